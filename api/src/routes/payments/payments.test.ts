import { randomUUID } from 'node:crypto';
import {
  CHECK_IN_MESSAGES,
  formatEuro,
  isValidPaymentReference,
  PAYMENT_MESSAGES,
} from '@schlosstreffen/shared';
import type {
  GateEntryData,
  GateList,
  PaymentImportResult,
  PaymentsOverview,
} from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { AuditLog } from '../../core/model/audit-log.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { BankEntry, Payment, PaymentBooking } from '../../core/model/payment.entity.js';
import { signRows } from '../../core/signs/signs.queries.js';
import { insertNumberedCar } from '../../testing/signs.js';
import {
  APPLYING_NOON,
  createTestContext,
  EVENT_DAY_NOON,
  insertBankLine,
  TEST_FEE,
  testClock,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';

/**
 * The participation fee through the API on the real database: each invitation gets a reference and
 * the owner sees what to pay; a confirmed car takes part (list, signs, gate) only once paid, at the
 * gate in cash too; statements are matched however the payer wrote the reference, booked once
 * however often read, unmatched lines assigned by hand; refunds go out as a SEPA file.
 */
const clock = testClock(EVENT_DAY_NOON);
let t: TestContext;
let admin: SignedIn;
let owner: SignedIn;
const em = () => t.orm.em.fork();

/** A car of the owner's, invited and given its payment as the invitation job does. */
async function invitedCar(name: string) {
  const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id, name });
  // Issued as the invitation job does (number, zone, confirm-by deadline, payment, mail).
  await em().nativeDelete(Invitation, { vehicle: vehicleId });
  const issued = await issueInvitation(t.orm.em, vehicleId, {
    event: t.event,
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    asOf: APPLYING_NOON,
    jobId: randomUUID(),
  });
  const payment = await em().findOneOrFail(Payment, { invitation: issued!.invitation.id });
  return {
    vehicleId,
    startNumber: issued!.invitation.startNumber,
    payment,
    invitationId: issued!.invitation.id,
  };
}

/** A camt.053.001.08 statement of credits (and whatever else is given) in euro unless said otherwise. */
function camt053(
  id: string,
  entries: Array<{
    amount: string;
    lines: string[];
    ref: string;
    payer?: string;
    iban?: string;
    ccy?: string;
    debit?: boolean;
  }>,
): string {
  const body = entries
    .map(
      (e) => `
      <Ntry>
        <Amt Ccy="${e.ccy ?? 'EUR'}">${e.amount}</Amt>
        <CdtDbtInd>${e.debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-05-04</Dt></BookgDt>
        <ValDt><Dt>2026-05-04</Dt></ValDt>
        <AcctSvcrRef>${e.ref}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <Amt Ccy="${e.ccy ?? 'EUR'}">${e.amount}</Amt>
          <CdtDbtInd>${e.debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
          <RltdPties>
            <Dbtr><Pty><Nm>${e.payer ?? 'Olaf Owner'}</Nm></Pty></Dbtr>
            <DbtrAcct><Id><IBAN>${e.iban ?? 'DE64120300000001234567'}</IBAN></Id></DbtrAcct>
          </RltdPties>
          <RmtInf>${e.lines.map((line) => `<Ustrd>${line}</Ustrd>`).join('')}</RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${id}</MsgId><CreDtTm>2026-05-04T22:00:00+02:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${id}</Id>
      <CreDtTm>2026-05-04T22:00:00+02:00</CreDtTm>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>${body}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

const year = () => t.event.edition.year;

async function importFile(xml: string, name = 'auszug.xml') {
  const res = await admin.client.request('POST', `/api/admin/payments/${year()}/import?name=${name}`, {
    body: xml,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.status, res.text).toBe(200);
  return res.data as PaymentImportResult;
}

async function overview() {
  const res = await admin.client.get(`/api/admin/payments/${year()}`);
  expect(res.status, res.text).toBe(200);
  return res.data as PaymentsOverview;
}

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now, env: { RATE_LIMIT_FACTOR: '100' } });
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
  owner = await t.signIn('user', { firstName: 'Olaf', lastName: 'Owner' });
  const res = await admin.client.patch(`/api/admin/editions/${year()}`, { fee: TEST_FEE });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => t?.close());

describe('the participation fee', () => {
  it('gives each invitation a reference and shows the owner what to pay, with a GiroCode', async () => {
    const car = await invitedCar('Gelber Golf');
    expect(isValidPaymentReference(car.payment.reference)).toBe(true);
    expect(car.payment.reference).toMatch(/^ST\d{2}-[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]$/);
    const invitation = await em().findOneOrFail(Invitation, { id: car.invitationId });
    expect(car.payment.dueAt!.getTime() - invitation.confirmBy!.getTime()).toBe(5 * 24 * 3600_000);

    const res = await owner.client.get(`/api/vehicles/${car.vehicleId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.data.payment).toEqual({
      status: 'open',
      reference: car.payment.reference,
      amountCents: 2500,
      paidCents: 0,
      dueAt: car.payment.dueAt!.toISOString(),
      payTo: { accountHolder: TEST_FEE.accountHolder, iban: TEST_FEE.iban, bic: TEST_FEE.bic },
    });
    const svg = await owner.client.get(`/api/vehicles/${car.vehicleId}/girocode.svg`);
    expect(svg.status).toBe(200);
    expect(svg.text).toContain('<svg');

    // The invitation mail carries amount, account, reference and deadline for its GiroCode.
    const mails = (await em().find(Outbox, { job: 'email.send' })).filter(
      (row) => (row.payload as { vehicleId?: string; template: string }).vehicleId === car.vehicleId,
    );
    expect((mails[0]!.payload as { props: { payment: unknown } }).props.payment).toEqual({
      amountCents: 2500,
      accountHolder: TEST_FEE.accountHolder,
      iban: TEST_FEE.iban,
      bic: TEST_FEE.bic,
      reference: car.payment.reference,
      dueAt: car.payment.dueAt!.toISOString(),
    });
  });

  it('lets a confirmed car take part only once paid: signs and gate ask the one rule; cash at the gate', async () => {
    const car = await invitedCar('Roter Rennsport');
    const signed = async () => (await signRows(em(), t.event.edition.id)).map((row) => row.start_number);
    expect(await signed()).not.toContain(car.startNumber);

    const list = await admin.client.get('/api/admin/check-in/list');
    expect(list.status, list.text).toBe(200);
    const entry = (list.data as GateList).entries
      .map((e) => JSON.parse(e.data) as GateEntryData)
      .find((e) => e.startNumber === car.startNumber);
    expect(entry).toMatchObject({ confirmed: true, feeOpenCents: 2500 });

    const refused = await admin.client.post('/api/admin/check-in', { code: String(car.startNumber) });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.data).toMatchObject({
      result: 'fee_open',
      message: CHECK_IN_MESSAGES.fee_open,
      feeOpenCents: 2500,
    });

    // Once the meeting is over, no cash is booked at the gate.
    const late = await clock.during(new Date(t.event.end.getTime() + 3600_000), () =>
      admin.client.post('/api/admin/check-in/cash', { code: String(car.startNumber), gate: 'Nord' }),
    );
    expect(late.status, late.text).toBe(409);
    expect(late.data.message).toMatch(/ist vorbei:/);

    const cash = await admin.client.post('/api/admin/check-in/cash', {
      code: String(car.startNumber),
      gate: 'Nord',
    });
    expect(cash.status, cash.text).toBe(200);
    expect(cash.data.message).toBe(PAYMENT_MESSAGES.cashBooked(formatEuro(2500)));
    const again = await admin.client.post('/api/admin/check-in/cash', { code: String(car.startNumber) });
    expect(again.status).toBe(409);
    expect(again.data.message).toBe(PAYMENT_MESSAGES.noPayment);
    const bookings = await em().find(PaymentBooking, { payment: car.payment.id });
    expect(bookings.map((b) => [b.kind, b.amountCents])).toEqual([['cash', 2500]]);
    expect(
      await em().count(AuditLog, { action: 'payments.cash', target: String(year()) }),
    ).toBeGreaterThanOrEqual(1);

    expect(await signed()).toContain(car.startNumber);
    const admitted = await admin.client.post('/api/admin/check-in', { code: String(car.startNumber) });
    expect(admitted.status, admitted.text).toBe(200);
  });

  it('matches statements however the reference was written, books each line once, and leaves the rest to assign by hand', async () => {
    const full = await invitedCar('Voll bezahlt');
    const part = await invitedCar('Teilweise');
    const over = await invitedCar('Zu viel');
    const ref = (p: { reference: string }) => p.reference;
    const split = (r: string) => [r.slice(0, 7).toLowerCase(), `${r.slice(7)} Startgeld`];
    const statement = camt053('2026050400000001', [
      // Lower case, split over two lines, among other words.
      { amount: '25.00', lines: ['Startgeld Schlosstreffen', ...split(ref(full.payment))], ref: 'A1' },
      { amount: '10.00', lines: [`${ref(part.payment).replace(/-/g, ' ')} erste Rate`], ref: 'A2' },
      {
        amount: '30.00',
        lines: [ref(over.payment)],
        ref: 'A3',
        payer: 'Zora Zuviel',
        iban: 'DE12500105170648489890',
      },
      { amount: '20.00', lines: ['Teilnahme Schlosstreffen'], ref: 'A4', payer: 'Nora Niemand' },
      { amount: '12.50', lines: ['Kontoführung'], ref: 'A5', debit: true },
      { amount: '25.00', lines: [ref(full.payment)], ref: 'A6', ccy: 'USD' },
    ]);
    const first = await importFile(statement);
    expect(first.counts).toMatchObject({
      paid: 1,
      partial: 1,
      overpaid: 1,
      unassigned: 1,
      known: 0,
      skipped: 2,
    });
    expect(first.fileSeenBefore).toBe(false);

    // The same file again books nothing twice.
    const second = await importFile(statement);
    expect(second.fileSeenBefore).toBe(true);
    expect(second.counts).toMatchObject({ paid: 0, partial: 0, overpaid: 0, unassigned: 0, known: 4 });
    const paid = async (id: string) => (await em().findOneOrFail(Payment, id)).paidCents;
    expect([await paid(full.payment.id), await paid(part.payment.id), await paid(over.payment.id)]).toEqual([
      2500, 1000, 3000,
    ]);

    // The owner of the partial payment is told the rest; the overpaid surplus is listed for refund.
    const partialMails = (await em().find(Outbox, { job: 'email.send' })).filter(
      (row) => (row.payload as { template: string }).template === 'payment-partial',
    );
    expect(partialMails).toHaveLength(1);
    expect((partialMails[0]!.payload as { props: { openCents: number } }).props.openCents).toBe(1500);
    let view = await overview();
    expect(view.refundsDue).toEqual([
      expect.objectContaining({
        reference: over.payment.reference,
        amountCents: 500,
        payerIbanMasked: 'DE12 **** **** 9890',
      }),
    ]);
    const stray = view.unassigned.find((row) => row.payerName === 'Nora Niemand')!;
    expect(stray).toMatchObject({ amountCents: 2000, remittance: 'Teilnahme Schlosstreffen' });
    expect(JSON.stringify(view)).not.toContain('DE64120300000001234567');

    // Assigned by hand to the partial payment: now paid (5 € beyond the fee become due back).
    const found = await admin.client.get(
      `/api/admin/payments/${year()}/search?q=${encodeURIComponent('teilweise')}`,
    );
    expect(found.status).toBe(200);
    expect(found.data.map((row: { id: string }) => row.id)).toEqual([part.payment.id]);
    const assigned = await admin.client.post(`/api/admin/payments/${year()}/entries/${stray.id}/assign`, {
      paymentId: part.payment.id,
    });
    expect(assigned.status, assigned.text).toBe(200);
    const twice = await admin.client.post(`/api/admin/payments/${year()}/entries/${stray.id}/assign`, {
      paymentId: part.payment.id,
    });
    expect(twice.status).toBe(409);
    expect(await paid(part.payment.id)).toBe(3000);
    expect((await em().findOneOrFail(BankEntry, stray.id)).outcome).toBe('assigned');
    view = await overview();
    expect(view.payments.find((row) => row.id === part.payment.id)?.status).toBe('refund_due');
    const audits = await em().find(AuditLog, { action: { $in: ['payments.import', 'payments.assign'] } });
    expect(audits.map((row) => row.action).sort()).toEqual([
      'payments.assign',
      'payments.import',
      'payments.import',
    ]);
    const bookedInAudit = (
      audits.find((row) => row.action === 'payments.import')!.details as { bookings: unknown[] }
    ).bookings;
    expect(bookedInAudit).toHaveLength(3);

    // Refunds go out as one SEPA file and count as refunded once the upload is confirmed.
    const exported = await admin.client.post(`/api/admin/payments/${year()}/refunds/export`, {});
    expect(exported.status, exported.text).toBe(201);
    expect(exported.data).toMatchObject({ count: 2, totalCents: 1000 });
    const file = await admin.client.get(`/api/admin/payments/${year()}/refunds/${exported.data.id}/file`);
    expect(file.status).toBe(200);
    expect(file.text).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(file.text).toContain('<IBAN>DE12500105170648489890</IBAN>');
    expect(file.text).toContain('<CtrlSum>10.00</CtrlSum>');
    expect((await overview()).refundsDue).toEqual([]);
    const nothing = await admin.client.post(`/api/admin/payments/${year()}/refunds/export`, {});
    expect(nothing.status).toBe(409);
    const confirmed = await admin.client.post(
      `/api/admin/payments/${year()}/refunds/${exported.data.id}/confirm`,
      {},
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    view = await overview();
    expect(view.payments.find((row) => row.id === over.payment.id)).toMatchObject({
      status: 'refunded',
      refundedCents: 500,
    });

    // The treasurer's report: every booking traced to its source, then the totals.
    const report = await admin.client.get(`/api/admin/payments/${year()}/kassenbericht.csv`);
    expect(report.status).toBe(200);
    expect(report.text).toContain('Kontoauszug 2026050400000001 Eintrag 1');
    expect(report.text).toContain('Erstattung');
    expect(report.text).toContain('"Erstattung";"5,00"');
    expect(report.text).toContain('"Summe";"Erstattet";"10,00"');
    expect(report.text).toContain('"Summe";"Eingegangen";"110,00"');
  });

  it('applies the refund rule to a decline after paying: all back until its date, less the kept amount after', async () => {
    const early = await invitedCar('Früh abgesagt');
    const late = await invitedCar('Spät abgesagt');
    for (const car of [early, late])
      await insertBankLine(t, t.event.edition.id, { amountCents: 2500, paymentId: car.payment.id });
    const decline = async (vehicleId: string) => {
      const res = await owner.client.post(`/api/vehicles/${vehicleId}/decline`, {});
      expect(res.status, res.text).toBe(200);
    };
    // Until 31 May the whole fee goes back; on the meeting's day the club keeps 10 €.
    await clock.during(APPLYING_NOON, () => decline(early.vehicleId));
    await decline(late.vehicleId);
    const due = (await overview()).refundsDue;
    expect(due.find((row) => row.reference === early.payment.reference)?.amountCents).toBe(2500);
    expect(due.find((row) => row.reference === late.payment.reference)?.amountCents).toBe(1500);
    const mine = await owner.client.get(`/api/vehicles/${late.vehicleId}`);
    expect(mine.data.payment).toMatchObject({ status: 'refund_due', paidCents: 2500, payTo: null });
  });

  it('waives a fee with a reason: the car takes part as if paid', async () => {
    const car = await invitedCar('Sponsorwagen');
    const short = await admin.client.post(`/api/admin/payments/${year()}/payments/${car.payment.id}/waive`, {
      reason: 'kurz',
    });
    expect(short.status).toBe(400);
    const res = await admin.client.post(`/api/admin/payments/${year()}/payments/${car.payment.id}/waive`, {
      reason: 'Fahrzeug des Hauptsponsors',
    });
    expect(res.status, res.text).toBe(200);
    expect((await signRows(em(), t.event.edition.id)).map((row) => row.start_number)).toContain(
      car.startNumber,
    );
    const mine = await owner.client.get(`/api/vehicles/${car.vehicleId}`);
    expect(mine.data.payment).toMatchObject({ status: 'waived', payTo: null });
  });

  it('gives places held before the fee was set their payment, and a removed fee asks nothing of anyone', async () => {
    const { vehicleId, startNumber } = await insertNumberedCar(t, {
      ownerId: owner.id,
      name: 'Vor der Gebühr',
    });
    const signed = async () => (await signRows(em(), t.event.edition.id)).map((row) => row.start_number);
    expect(await signed()).toContain(startNumber);
    const set = await admin.client.patch(`/api/admin/editions/${year()}`, { fee: TEST_FEE });
    expect(set.status, set.text).toBe(200);
    const invitation = await em().findOneOrFail(Invitation, { vehicle: vehicleId });
    const payment = await em().findOneOrFail(Payment, { invitation: invitation.id });
    expect(payment).toMatchObject({ amountCents: 2500, paidCents: 0, dueAt: null });
    expect(await signed()).not.toContain(startNumber);

    const removed = await admin.client.patch(`/api/admin/editions/${year()}`, { fee: null });
    expect(removed.status, removed.text).toBe(200);
    expect(await signed()).toContain(startNumber);
    const admitted = await admin.client.post('/api/admin/check-in', { code: String(startNumber) });
    expect(admitted.status, admitted.text).toBe(200);
  });
});
