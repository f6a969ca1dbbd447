/** What the statement reader hands to the import: one shape for camt.053, camt.052 and CSV. */

export type StatementFormat = 'camt.053' | 'camt.052' | 'csv';

/** Where a line came from: a camt entry (and its transaction within a batch) or a CSV row. */
export type StatementOrigin =
  | {
      kind: 'camt';
      /** The file's name inside the ZIP archive; null for a single XML file. */
      document: string | null;
      format: 'camt.053' | 'camt.052';
      statementId: string;
      /** 0-based position of the entry (`Ntry`) in its statement. */
      entryIndex: number;
      /** 0-based position of the transaction (`TxDtls`) in its entry; null for a whole entry. */
      txIndex: number | null;
    }
  | {
      kind: 'csv';
      /** 1-based line in the file, as a spreadsheet shows it. */
      line: number;
    };

/** The references a bank gives an entry and its transaction; any may be missing. */
export interface StatementReferences {
  /** `Ntry/NtryRef` */
  entryRef: string | null;
  /** `Ntry/AcctSvcrRef` */
  entryAccountServicerRef: string | null;
  /** `TxDtls/Refs/EndToEndId` ('NOTPROVIDED' kept as the bank wrote it) */
  endToEndId: string | null;
  /** `TxDtls/Refs/AcctSvcrRef` */
  txAccountServicerRef: string | null;
  /** `TxDtls/Refs/TxId` */
  txId: string | null;
  /** `TxDtls/Refs/MsgId` */
  msgId: string | null;
}

/**
 * A credit in euro that the import may book: a booked entry, or one transaction of a booked batch
 * entry whose transactions carry their own amounts.
 */
export interface BookingCandidate {
  /**
   * Stable identity (SHA-256, hex): the statement, the entry's and the transaction's references,
   * the position within the entry, amount and booking date, and which of several otherwise
   * identical lines of one statement it is. The same file read twice gives the same identities.
   */
  identity: string;
  /**
   * The same line's key without the statement (SHA-256, hex), for an entry the bank gave a
   * reference (`AcctSvcrRef`, `NtryRef`, or transaction references): a camt.052 report and the
   * later camt.053 statement (or two overlapping reports) show one payment under two statement
   * ids. Null where the bank gave no reference.
   */
  bankKey: string | null;
  origin: StatementOrigin;
  amountCents: number;
  currency: 'EUR';
  /** YYYY-MM-DD, as the bank wrote it (the date part of a date-time). */
  bookingDate: string | null;
  valueDate: string | null;
  payerName: string | null;
  /** Upper case, without spaces; null where the payer's account has no IBAN. */
  payerIban: string | null;
  /** The unstructured remittance lines (`RmtInf/Ustrd`), joined with '\n'. */
  remittance: string;
  /** Structured creditor references (`RmtInf/Strd/CdtrRefInf/Ref`). */
  creditorReferences: string[];
  references: StatementReferences;
  /** The bank's booking text (`AddtlNtryInf`, CSV: none), e.g. 'GUTSCHR. UEBERWEISUNG'. */
  bookingText: string | null;
  /**
   * `entry`: an entry with at most one transaction, at the entry's amount. `batch-part`: one
   * transaction of a batch entry, at its own amount. `batch-whole`: a batch entry whose
   * transactions do not add up to it in euro, kept whole at the entry's amount.
   */
  part: 'entry' | 'batch-part' | 'batch-whole';
}

export type SkipReason = 'debit' | 'currency' | 'not_booked' | 'reversal' | 'sub_cent' | 'zero';

/** An entry that is not booked: a debit, another currency, not (yet) booked, a reversal. */
export interface SkippedEntry {
  identity: string;
  origin: StatementOrigin;
  reason: SkipReason;
  /** German, for the organizer. */
  message: string;
  /** The amount as the bank wrote it (decimal point), without sign. */
  amount: string;
  currency: string;
  creditDebit: 'CRDT' | 'DBIT';
  /** BOOK, PDNG, INFO … as the bank wrote it; null in a CSV row. */
  status: string | null;
  bookingDate: string | null;
  payerName: string | null;
  remittance: string;
}

export interface StatementInfo {
  /** `Stmt/Id` or `Rpt/Id` */
  id: string;
  accountIban: string | null;
  /** The account's other identification (`Acct/Id/Othr/Id`), where it has no IBAN. */
  accountOther: string | null;
  /** `CreDtTm` as written. */
  createdAt: string | null;
  /** Entries (`Ntry`) in the statement. */
  entries: number;
}

export interface StatementDocument {
  /** The file's name inside the ZIP archive; null for a single file. */
  name: string | null;
  /** SHA-256 (hex) of this document's bytes. */
  sha256: string;
  format: StatementFormat;
  /** The message's namespace, e.g. 'camt.053.001.08'; null when it names none (and for CSV). */
  version: string | null;
  /** `GrpHdr/MsgId` */
  messageId: string | null;
  statements: StatementInfo[];
}

export interface StatementRead {
  /** SHA-256 (hex) of the whole uploaded file, for the import record. */
  fileSha256: string;
  container: 'xml' | 'zip' | 'csv';
  documents: StatementDocument[];
  candidates: BookingCandidate[];
  skipped: SkippedEntry[];
  /** Lines met a second time within this file (same identity), kept once. */
  duplicates: number;
}
