import { DomainError } from '../../errors.js';
import { decimalToCents } from './amount.js';
import { OccurrenceCounter, sha256Hex } from './identity.js';
import { STATEMENT_MESSAGES as M } from './messages.js';
import type {
  BookingCandidate,
  SkippedEntry,
  StatementDocument,
  StatementInfo,
  StatementOrigin,
  StatementReferences,
} from './types.js';
import { XmlDoctypeError, XmlSyntaxError, child, findAll, parseXml, textAt, textOf } from './xml.js';
import type { XmlElement } from './xml.js';

export interface CamtRead {
  document: StatementDocument;
  candidates: BookingCandidate[];
  skipped: SkippedEntry[];
}

/** The message elements read, by local name: camt.053's statement and camt.052's report. */
const MESSAGES = {
  BkToCstmrStmt: { format: 'camt.053', statement: 'Stmt' },
  BkToCstmrAcctRpt: { format: 'camt.052', statement: 'Rpt' },
} as const;
type MessageName = keyof typeof MESSAGES;

/** Elements nothing is read from: balances, codes, agents, addresses, charges, card data. */
const SKIPPED = new Set([
  'Bal',
  'TxsSummry',
  'BkTxCd',
  'RltdAgts',
  'PstlAdr',
  'Chrgs',
  'Intrst',
  'RltdDts',
  'RltdPric',
  'Purp',
  'Tax',
  'CardTx',
  'SplmtryData',
  'Btch',
]);
const isMessageName = (name: string): name is MessageName => Object.hasOwn(MESSAGES, name);

/** Decodes an XML file by its byte order mark or the encoding its declaration names (UTF-8 if none). */
export function decodeXml(bytes: Uint8Array): string {
  let label = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
    const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
    if (declared) label = declared;
  }
  const decoder = (() => {
    try {
      return new TextDecoder(label, { fatal: true });
    } catch {
      throw new DomainError('unsupported_media_type', M.unknownEncoding(label));
    }
  })();
  try {
    return decoder.decode(bytes);
  } catch {
    throw new DomainError('invalid', M.badEncoding);
  }
}

const normalizeIban = (iban: string | null) => (iban ? iban.replace(/\s+/g, '').toUpperCase() : null);

/** The date of a `BookgDt`/`ValDt`: its `Dt`, or the date part of its `DtTm` as written. */
function dateOf(element: XmlElement | undefined, where: () => string): string | null {
  if (!element) return null;
  const text = textAt(element, 'Dt') ?? textAt(element, 'DtTm');
  if (!text) return null;
  const date = /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0];
  if (!date) throw new DomainError('invalid', M.badDate(text, where()));
  return date;
}

interface TxFacts {
  payerName: string | null;
  payerIban: string | null;
  remittanceLines: string[];
  creditorReferences: string[];
  endToEndId: string | null;
  txAccountServicerRef: string | null;
  txId: string | null;
  msgId: string | null;
}

function txFacts(tx: XmlElement | undefined): TxFacts {
  const texts = (path: string) =>
    findAll(tx, path)
      .map(textOf)
      .filter((t): t is string => t !== null);
  return {
    payerName: textAt(tx, 'RltdPties/Dbtr/Nm') ?? textAt(tx, 'RltdPties/Dbtr/Pty/Nm'),
    payerIban: normalizeIban(textAt(tx, 'RltdPties/DbtrAcct/Id/IBAN')),
    remittanceLines: texts('RmtInf/Ustrd'),
    creditorReferences: texts('RmtInf/Strd/CdtrRefInf/Ref'),
    endToEndId: textAt(tx, 'Refs/EndToEndId'),
    txAccountServicerRef: textAt(tx, 'Refs/AcctSvcrRef'),
    txId: textAt(tx, 'Refs/TxId'),
    msgId: textAt(tx, 'Refs/MsgId'),
  };
}

/** A transaction's own amount: `Amt` (from v.03 on) or `AmtDtls/TxAmt/Amt`. */
const txAmountElement = (tx: XmlElement) =>
  child(tx, 'Amt') ?? child(child(child(tx, 'AmtDtls'), 'TxAmt'), 'Amt');

interface StatementState {
  element: XmlElement;
  entries: number;
  identities: OccurrenceCounter;
  bankKeys: OccurrenceCounter;
}

/**
 * Reads one camt.053 or camt.052 document (any version, any namespace prefix) into booking
 * candidates (booked credits in euro; a batch split by its transactions when their euro amounts
 * add up to the entry) and skipped entries.
 */
export function readCamt(bytes: Uint8Array, name: string | null, sha256: string): CamtRead {
  const text = decodeXml(bytes);
  let message: { name: MessageName; element: XmlElement; depth: number } | null = null;
  let camt054 = false;
  let version: string | null = null;
  let messageId: string | null = null;
  let current: StatementState | null = null;
  const statements: StatementInfo[] = [];
  const candidates: BookingCandidate[] = [];
  const skipped: SkippedEntry[] = [];

  const onEntry = (entry: XmlElement, state: StatementState) => {
    const { format } = MESSAGES[message!.name];
    const statement = state.element;
    const entryIndex = state.entries++;
    const statementId = textAt(statement, 'Id');
    const where = () =>
      [name && `Datei „${name}“`, `Auszug „${statementId ?? '?'}“`, `Buchung ${entryIndex + 1}`]
        .filter(Boolean)
        .join(', ');
    if (!statementId)
      throw new DomainError('invalid', M.missingElement('die Kennung des Auszugs (Id)', where()));
    const account = textAt(statement, 'Acct/Id/IBAN') ?? textAt(statement, 'Acct/Id/Othr/Id');

    const amountElement = child(entry, 'Amt');
    const amount = textOf(amountElement);
    if (!amount) throw new DomainError('invalid', M.missingElement('der Betrag (Amt)', where()));
    const currency = amountElement!.attributes.Ccy?.trim();
    if (!currency) throw new DomainError('invalid', M.missingElement('die Währung (Amt/@Ccy)', where()));
    const creditDebit = textAt(entry, 'CdtDbtInd');
    if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT') {
      throw new DomainError('invalid', M.missingElement('das Soll/Haben-Kennzeichen (CdtDbtInd)', where()));
    }
    const cents = decimalToCents(amount);
    if (!cents.ok && cents.reason === 'invalid')
      throw new DomainError('invalid', M.badAmount(amount, where()));
    const sts = child(entry, 'Sts');
    const status = textAt(sts, 'Cd') ?? textAt(sts, 'Prtry') ?? textOf(sts) ?? '';
    const bookingDate = dateOf(child(entry, 'BookgDt'), where);
    const valueDate = dateOf(child(entry, 'ValDt'), where);
    const entryRef = textAt(entry, 'NtryRef');
    const entryAccountServicerRef = textAt(entry, 'AcctSvcrRef');
    const bookingText = textAt(entry, 'AddtlNtryInf');
    const txs = findAll(entry, 'NtryDtls/TxDtls');

    const origin = (txIndex: number | null): StatementOrigin => ({
      kind: 'camt',
      document: name,
      format,
      statementId,
      entryIndex,
      txIndex,
    });
    const references = (facts: TxFacts | null): StatementReferences => ({
      entryRef,
      entryAccountServicerRef,
      endToEndId: facts?.endToEndId ?? null,
      txAccountServicerRef: facts?.txAccountServicerRef ?? null,
      txId: facts?.txId ?? null,
      msgId: facts?.msgId ?? null,
    });
    const keys = (refs: StatementReferences, txIndex: number | null, amountKey: string) => {
      const refParts = [
        refs.entryRef,
        refs.entryAccountServicerRef,
        refs.endToEndId,
        refs.txAccountServicerRef,
        refs.txId,
        refs.msgId,
      ];
      const base = JSON.stringify([account, ...refParts, txIndex, amountKey, bookingDate]);
      const identity = sha256Hex(JSON.stringify(['camt', statementId, base, state.identities.next(base)]));
      const referenced =
        refs.entryRef ?? refs.entryAccountServicerRef ?? refs.txAccountServicerRef ?? refs.txId;
      const bankKey = referenced
        ? sha256Hex(JSON.stringify(['bank', base, state.bankKeys.next(base)]))
        : null;
      return { identity, bankKey };
    };
    const allFacts = txs.map(txFacts);
    const skip = (reason: SkippedEntry['reason'], message: string) => {
      const first = allFacts[0] ?? null;
      skipped.push({
        identity: keys(references(txs.length === 1 ? first : null), null, `${currency} ${amount}`).identity,
        origin: origin(null),
        reason,
        message,
        amount,
        currency,
        creditDebit,
        status: status || null,
        bookingDate,
        payerName: first?.payerName ?? null,
        remittance: allFacts.flatMap((f) => f.remittanceLines).join('\n'),
      });
    };

    if (creditDebit === 'DBIT') return skip('debit', M.skipped.debit);
    if (currency !== 'EUR') return skip('currency', M.skipped.currency(currency));
    if (status !== 'BOOK') return skip('not_booked', M.skipped.notBooked(status));
    if (textAt(entry, 'RvslInd') === 'true') return skip('reversal', M.skipped.reversal);
    if (!cents.ok) return skip('sub_cent', M.skipped.subCent);
    if (cents.cents === 0) return skip('zero', M.skipped.zero);

    const candidate = (
      facts: TxFacts | null,
      txIndex: number | null,
      amountCents: number,
      part: BookingCandidate['part'],
      lines: {
        payerName: string | null;
        payerIban: string | null;
        remittance: string;
        creditorReferences: string[];
      },
    ) => {
      const refs = references(facts);
      candidates.push({
        ...keys(refs, txIndex, String(amountCents)),
        origin: origin(txIndex),
        amountCents,
        currency: 'EUR',
        bookingDate,
        valueDate,
        ...lines,
        references: refs,
        bookingText,
        part,
      });
    };
    const linesOf = (facts: TxFacts | undefined) => ({
      payerName: facts?.payerName ?? null,
      payerIban: facts?.payerIban ?? null,
      remittance: facts?.remittanceLines.join('\n') ?? '',
      creditorReferences: facts?.creditorReferences ?? [],
    });

    if (txs.length <= 1) {
      return candidate(
        allFacts[0] ?? null,
        txs.length === 1 ? 0 : null,
        cents.cents,
        'entry',
        linesOf(allFacts[0]),
      );
    }
    // A batch: split by its transactions only when each names its amount in euro and they add up.
    const parts = txs.map((tx) => {
      const element = txAmountElement(tx);
      const value = textOf(element);
      const parsed = value ? decimalToCents(value) : null;
      return element?.attributes.Ccy === 'EUR' && parsed?.ok ? parsed.cents : null;
    });
    const sum = parts.reduce<number | null>(
      (total, part) => (total === null || part === null ? null : total + part),
      0,
    );
    if (sum === cents.cents) {
      parts.forEach((partCents, txIndex) => {
        if (partCents)
          candidate(allFacts[txIndex]!, txIndex, partCents, 'batch-part', linesOf(allFacts[txIndex]));
      });
      return;
    }
    const names = new Set(allFacts.map((f) => f.payerName));
    const ibans = new Set(allFacts.map((f) => f.payerIban));
    candidate(null, null, cents.cents, 'batch-whole', {
      payerName: names.size === 1 ? allFacts[0]!.payerName : null,
      payerIban: ibans.size === 1 ? allFacts[0]!.payerIban : null,
      remittance: allFacts.flatMap((f) => f.remittanceLines).join('\n'),
      creditorReferences: allFacts.flatMap((f) => f.creditorReferences),
    });
  };

  try {
    parseXml(text, {
      skip: SKIPPED,
      onOpen(element, ancestors) {
        if (!version) {
          for (const value of Object.values(element.attributes)) {
            version = /camt\.05[23]\.\d{3}\.\d{2}/.exec(value)?.[0] ?? null;
            if (version) break;
          }
        }
        if (!message && isMessageName(element.name)) {
          message = { name: element.name, element, depth: ancestors.length };
        } else if (element.name === 'BkToCstmrDbtCdtNtfctn') {
          camt054 = true;
        } else if (
          message &&
          ancestors.length === message.depth + 1 &&
          element.name === MESSAGES[message.name].statement
        ) {
          current = {
            element,
            entries: 0,
            identities: new OccurrenceCounter(),
            bankKeys: new OccurrenceCounter(),
          };
        }
      },
      onClose(element, ancestors) {
        if (!message || ancestors.length < message.depth) return false;
        const parent = ancestors[ancestors.length - 1];
        if (current && element.name === 'Ntry' && parent === current.element) {
          onEntry(element, current);
          return false;
        }
        if (current && element === current.element) {
          const state: StatementState = current;
          const id = textAt(element, 'Id');
          if (id || state.entries > 0) {
            statements.push({
              id: id ?? '',
              accountIban: normalizeIban(textAt(element, 'Acct/Id/IBAN')),
              accountOther: textAt(element, 'Acct/Id/Othr/Id'),
              createdAt: textAt(element, 'CreDtTm'),
              entries: state.entries,
            });
          }
          current = null;
          return false;
        }
        if (element.name === 'GrpHdr' && parent === message.element) {
          messageId = textAt(element, 'MsgId');
          return false;
        }
        return element !== message.element;
      },
    });
  } catch (error) {
    if (error instanceof XmlSyntaxError) {
      throw new DomainError(
        'invalid',
        name ? M.malformedXmlIn(name, error.line, error.column) : M.malformedXml(error.line, error.column),
      );
    }
    if (error instanceof XmlDoctypeError) throw new DomainError('invalid', M.doctype);
    throw error;
  }

  const found = message as { name: MessageName } | null;
  if (!found) {
    if (camt054) throw new DomainError('unsupported_media_type', M.camt054);
    throw new DomainError('unsupported_media_type', name ? M.notAStatementInZip(name) : M.notAStatement);
  }
  return {
    document: {
      name,
      sha256,
      format: MESSAGES[found.name].format,
      version,
      messageId,
      statements,
    },
    candidates,
    skipped,
  };
}
