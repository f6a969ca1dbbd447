import { randomBytes } from 'node:crypto';
import type { EditionFee } from '@schlosstreffen/shared';
import { BankEntry, BankImport } from '../core/model/payment.entity.js';
import { Edition } from '../core/model/edition.entity.js';
import { Invitation } from '../core/model/invitation.entity.js';
import { bookCredit, openPayment } from '../core/payments/payments.js';
import type { TestContext } from './test-context.js';

/** A fee as organizers set it: 25 € to the club's account, 5 days to pay, full refund until May. */
export const TEST_FEE: EditionFee = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e.V.',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  payWithinDays: 5,
  refund: { fullUntil: '2026-05-31', keepCents: 1000 },
};

/** Sets (or removes) an edition's fee straight in its row. */
export async function setTestFee(t: TestContext, editionId: string, fee: EditionFee | null): Promise<void> {
  await t.orm.em.fork().nativeUpdate(Edition, { id: editionId }, { fee });
}

/** Gives the vehicle's invitation its payment as the invitation job would (the edition's fee). */
export async function openTestPayment(
  t: TestContext,
  vehicleId: string,
  fee: EditionFee = TEST_FEE,
): Promise<{ id: string; reference: string }> {
  const em = t.orm.em.fork();
  const invitation = await em.findOneOrFail(Invitation, { vehicle: vehicleId }, { populate: ['edition'] });
  const payment = (await openPayment(em, invitation, fee, invitation.edition.year))!;
  await em.flush();
  return { id: payment.id, reference: payment.reference };
}

/** A statement line read in for the edition: booked on `paymentId` (that much paid), or unassigned. */
export async function insertBankLine(
  t: TestContext,
  editionId: string,
  line: { amountCents: number; paymentId?: string; payerIban?: string; payerName?: string; readAt?: Date },
): Promise<string> {
  const em = t.orm.em.fork();
  const bankImport = em.create(BankImport, {
    edition: editionId,
    fileSha256: randomBytes(32).toString('hex'),
    format: 'camt.053',
    summary: {},
  });
  const entry = em.create(BankEntry, {
    edition: editionId,
    bankImport,
    identity: randomBytes(32).toString('hex'),
    amountCents: line.amountCents,
    bookingDate: '2026-05-04',
    payerName: line.payerName ?? 'Paula Zahler',
    payerIban: line.payerIban ?? 'DE12500105170648489890',
    remittance: 'Startgeld',
    origin: { kind: 'camt', statementId: 'TEST', entryIndex: 0 },
    outcome: line.paymentId ? 'paid' : 'unassigned',
    payment: line.paymentId ?? null,
    ...(line.readAt ? { createdAt: line.readAt } : {}),
  });
  await em.flush();
  if (line.paymentId) {
    await em.transactional((tx) =>
      bookCredit(tx, line.paymentId!, line.amountCents, { kind: 'transfer', bankEntryId: entry.id }),
    );
  }
  return entry.id;
}
