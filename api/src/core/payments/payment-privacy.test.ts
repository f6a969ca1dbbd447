import { DEFAULT_RETENTION } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  insertBankLine,
  openTestPayment,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';
import { insertNumberedCar } from '../../testing/signs.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { collectAccountData, requestDataExport } from '../accounts/data-export.js';
import { BankEntry, Payment, PaymentBooking } from '../model/payment.entity.js';
import { User } from '../model/user.entity.js';
import { runRetention } from '../privacy/retention.js';

/**
 * The fee's personal data: the owner's export holds the payments with the statement lines behind
 * them; an account's deletion keeps the bookings (bookkeeping, § 147 AO) without the payer's name,
 * IBAN and text; lines nobody claimed keep only amount and date after their period.
 */
const DAY = 24 * 3600_000;
let t: TestContext;
let owner: SignedIn;
const em = () => t.orm.em.fork();

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  owner = await t.signIn('user', { firstName: 'Paula', lastName: 'Zahler' });
});
afterAll(() => t?.close());

describe('the fee and personal data', () => {
  it("exports the owner's payments and keeps their bookings without the person once the account is deleted", async () => {
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id, name: 'Bezahlter Benz' });
    const payment = await openTestPayment(t, vehicleId);
    const entry = await insertBankLine(t, t.event.edition.id, {
      amountCents: 2500,
      paymentId: payment.id,
      payerName: 'Paula Zahler',
      payerIban: 'DE12500105170648489890',
    });

    const row = await requestDataExport(em(), await em().findOneOrFail(User, owner.id));
    const data = await collectAccountData(t.orm.em, row.id);
    const exported = data!.documents['startgeld.json'] as Array<Record<string, unknown>>;
    expect(exported).toEqual([
      expect.objectContaining({
        reference: payment.reference,
        amountCents: 2500,
        paidCents: 2500,
        bookings: [
          expect.objectContaining({
            kind: 'transfer',
            amountCents: 2500,
            payerName: 'Paula Zahler',
            payerIban: 'DE12500105170648489890',
          }),
        ],
      }),
    ]);

    await deleteAccount(t.orm.em, owner.id, new Date(t.event.start.getTime() - 30 * DAY));
    const kept = await em().findOneOrFail(Payment, payment.id);
    expect(kept).toMatchObject({
      reference: payment.reference,
      amountCents: 2500,
      paidCents: 2500,
      invitation: null,
    });
    expect(await em().count(PaymentBooking, { payment: payment.id })).toBe(1);
    const line = await em().findOneOrFail(BankEntry, entry);
    expect(line).toMatchObject({ amountCents: 2500, payerName: null, payerIban: null, remittance: null });
    expect(line.prunedAt).not.toBeNull();
  });

  it('keeps only amount and date of a line nobody claimed after its period', async () => {
    const readAt = new Date(t.event.start.getTime() - 100 * DAY);
    const old = await insertBankLine(t, t.event.edition.id, { amountCents: 1800, readAt });
    const recent = await insertBankLine(t, t.event.edition.id, {
      amountCents: 1900,
      readAt: new Date(t.event.start.getTime() - 10 * DAY),
    });
    const removed = await runRetention(t.orm.em, { asOf: t.event.start, periods: DEFAULT_RETENTION });
    expect(removed.unassignedBankLines).toBe(1);
    expect(await em().findOneOrFail(BankEntry, old)).toMatchObject({
      amountCents: 1800,
      bookingDate: '2026-05-04',
      payerName: null,
      payerIban: null,
      remittance: null,
    });
    expect(await em().findOneOrFail(BankEntry, recent)).toMatchObject({
      payerName: 'Paula Zahler',
      payerIban: 'DE12500105170648489890',
    });
    // Run again: nothing more.
    expect(
      (await runRetention(t.orm.em, { asOf: t.event.start, periods: DEFAULT_RETENTION })).unassignedBankLines,
    ).toBe(0);
  });
});
