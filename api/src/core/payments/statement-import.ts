import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPaymentReferences } from '@schlosstreffen/shared';
import type { PendingAudit } from '../pending-audit.js';
import {
  BankEntry,
  BankImport,
  Payment,
  PaymentBooking,
  type BankEntryOutcome,
} from '../model/payment.entity.js';
import type { BookingCandidate, StatementRead } from './statements/index.js';
import { amountsOf } from './payments.js';
import { feeSettled } from '../fees/participation.js';
import { queuePaymentMail } from './payment-notices.js';
import { knownBankLines } from './payments.queries.js';

/** What an import did, per line and in sum. */
export interface ImportOutcome {
  importId: string;
  /** The same file (by its checksum) was read in before: nothing in it was booked again. */
  fileSeenBefore: boolean;
  counts: Record<BankEntryOutcome | 'known' | 'skipped', number>;
  /** Bookings made: entry, payment reference, cents (the audit row lists them). */
  bookings: { entryId: string; reference: string; amountCents: number; outcome: BankEntryOutcome }[];
}

const formatOf = (read: StatementRead) =>
  [...new Set(read.documents.map((doc) => doc.format))].sort().join('+') || read.container;

/** The references a line names, in its payer's text or as structured creditor references. */
export const referencesOf = (candidate: Pick<BookingCandidate, 'remittance' | 'creditorReferences'>) => [
  ...new Set(findPaymentReferences([candidate.remittance, ...candidate.creditorReferences].join('\n'))),
];

/**
 * Reads a statement's credits into an edition's payments in one transaction: a line known before
 * (same identity, or the same bank references under another statement) changes nothing; a line
 * naming exactly one of the edition's references is booked on it (paid, partial, overpaid, or
 * already paid: the money is booked and what is beyond the fee becomes a refund due); any other is
 * kept unassigned for a person to assign. Owners left with a rest get a mail naming it.
 */
export async function importStatement(
  em: EntityManager,
  edition: { id: string; year: number },
  read: StatementRead,
  options: { fileName: string | null; importedById: string | null; audit?: PendingAudit; publicUrl: string },
): Promise<ImportOutcome> {
  return em.fork().transactional(async (tx) => {
    const fileSeenBefore =
      (await tx.count(BankImport, { edition: edition.id, fileSha256: read.fileSha256 })) > 0;
    const bankImport = tx.create(BankImport, {
      edition: edition.id,
      fileSha256: read.fileSha256,
      fileName: options.fileName?.slice(0, 200) ?? null,
      format: formatOf(read),
      importedBy: options.importedById,
      summary: {},
    });

    const identities = read.candidates.map((c) => c.identity);
    const bankKeys = read.candidates.flatMap((c) => (c.bankKey ? [c.bankKey] : []));
    const knownRows = await knownBankLines(tx, edition.id, identities, bankKeys);
    const knownIdentities = new Set(knownRows.map((row) => row.identity));
    const knownKeys = new Set(knownRows.flatMap((row) => (row.bank_key ? [row.bank_key] : [])));

    const fresh: { candidate: BookingCandidate; references: string[] }[] = [];
    let known = 0;
    for (const candidate of read.candidates) {
      if (
        knownIdentities.has(candidate.identity) ||
        (candidate.bankKey && knownKeys.has(candidate.bankKey))
      ) {
        known += 1;
        continue;
      }
      // A camt.052 and the camt.053 of one day in one file: the second sighting is known too.
      knownIdentities.add(candidate.identity);
      if (candidate.bankKey) knownKeys.add(candidate.bankKey);
      fresh.push({ candidate, references: referencesOf(candidate) });
    }

    const wanted = [...new Set(fresh.flatMap((line) => line.references))];
    const payments = wanted.length
      ? await tx.find(
          Payment,
          { edition: edition.id, reference: { $in: wanted } },
          { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { reference: 'asc' } },
        )
      : [];
    const byReference = new Map(payments.map((payment) => [payment.reference, payment]));

    const counts: ImportOutcome['counts'] = {
      paid: 0,
      partial: 0,
      overpaid: 0,
      already_paid: 0,
      unassigned: 0,
      assigned: 0,
      known,
      skipped: read.skipped.length,
    };
    const bookings: ImportOutcome['bookings'] = [];
    const touched = new Set<Payment>();
    for (const { candidate, references } of fresh) {
      const matched = [
        ...new Set(references.map((ref) => byReference.get(ref)).filter((p) => p !== undefined)),
      ];
      const payment = matched.length === 1 ? matched[0] : undefined;
      const outcome: BankEntryOutcome = payment
        ? creditOutcome(payment, candidate.amountCents)
        : 'unassigned';
      const entry = tx.create(BankEntry, {
        edition: edition.id,
        bankImport,
        identity: candidate.identity,
        bankKey: candidate.bankKey,
        amountCents: candidate.amountCents,
        bookingDate: candidate.bookingDate ?? candidate.valueDate,
        payerName: candidate.payerName,
        payerIban: candidate.payerIban,
        remittance: candidate.remittance || null,
        origin: { ...candidate.origin, statement: statementOf(candidate), part: candidate.part },
        outcome,
        payment: payment ?? null,
      });
      counts[outcome] += 1;
      if (!payment) continue;
      tx.create(PaymentBooking, {
        edition: edition.id,
        payment,
        kind: 'transfer',
        amountCents: candidate.amountCents,
        bankEntry: entry,
      });
      payment.paidCents += candidate.amountCents;
      touched.add(payment);
      bookings.push({
        entryId: entry.id,
        reference: payment.reference,
        amountCents: candidate.amountCents,
        outcome,
      });
    }
    bankImport.summary = { ...counts };
    await tx.flush();

    for (const payment of touched) {
      const amounts = amountsOf(payment);
      if (!feeSettled(amounts) && payment.keptCents === null) {
        await queuePaymentMail(tx, payment, 'payment-partial', options.publicUrl);
      }
    }
    options.audit?.record(tx, {
      target: edition.year,
      details: { file: read.fileSha256, format: bankImport.format, counts, fileSeenBefore, bookings },
    });
    await tx.flush();
    return { importId: bankImport.id, fileSeenBefore, counts, bookings };
  });
}

/** What a credit does to a payment, decided before it is booked. */
function creditOutcome(payment: Payment, cents: number): BankEntryOutcome {
  const before = amountsOf(payment);
  if (feeSettled(before) || before.keptCents !== null) return 'already_paid';
  const paid = before.paidCents + cents;
  if (paid > before.amountCents) return 'overpaid';
  return paid === before.amountCents ? 'paid' : 'partial';
}

const statementOf = (candidate: BookingCandidate) =>
  candidate.origin.kind === 'camt' ? candidate.origin.statementId : null;
