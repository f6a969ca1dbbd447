import { expect, test } from '@playwright/test';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  expectAccessible,
  setVehicleStatus,
  signInAsStaff,
  SCREENSHOT_DIR,
} from './support';
import path from 'node:path';

/**
 * The participation fee: an owner sees amount, reference and GiroCode on the dashboard of a phone;
 * an organizer reads a statement in on 'Zahlungen' and assigns the transfer that named no reference
 * by hand, after which the owner's fee is paid. What the organizers see:
 * docs/organisation.md#startgeld-per-überweisung.
 */

const PHONE = { width: 390, height: 844 };
const FEE = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e.V.',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  payWithinDays: 5,
  refund: { fullUntil: null, keepCents: 0 },
};

/** One credit of 25 € whose payer wrote no reference, as the club's bank reports it. */
function statement(id: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>2026-05-04T22:00:00+02:00</CreDtTm></GrpHdr>
<Stmt><Id>${id}</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">25.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2026-05-04</Dt></BookgDt><AcctSvcrRef>${id}-1</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>Karla Seidel</Nm></Pty></Dbtr>
<DbtrAcct><Id><IBAN>DE12500105170648489890</IBAN></Id></DbtrAcct></RltdPties>
<RmtInf><Ustrd>Startgeld Schlosstreffen Golf</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
}

test('an owner pays the fee by the GiroCode; an organizer assigns a transfer without reference', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext({ baseURL: BASE_URL, viewport: PHONE })).newPage();
  await signInAsStaff(admin, 'admin', 'Anna');
  const year = (
    (await (await admin.request.get('/api/admin/editions')).json()) as {
      editions: { year: number; current: boolean }[];
    }
  ).editions.find((edition) => edition.current)!.year;
  const setFee = async (fee: typeof FEE | null) => {
    const res = await admin.request.patch(`/api/admin/editions/${year}`, {
      headers: { Origin: BASE_URL },
      data: { fee },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await setFee(FEE);
  try {
    const ownerContext = await browser.newContext({
      baseURL: BASE_URL,
      viewport: PHONE,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    const { vehicleId } = await applicantWithVehicle(ownerContext.request, {
      brand: 'Volkswagen',
      model: 'Golf GTI',
      name: 'Gelber Golf',
    });
    await setVehicleStatus(admin.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
    await expect
      .poll(async () => (await adminVehicle(admin.request, vehicleId)).invitation?.startNumber ?? null, {
        timeout: 30_000,
      })
      .not.toBeNull();

    // The owner on a phone: amount, account, reference and the GiroCode on the dashboard.
    const owner = await ownerContext.newPage();
    const mine = (await (await owner.request.get(`/api/vehicles/${vehicleId}`)).json()) as {
      payment: { reference: string; status: string };
    };
    expect(mine.payment.status).toBe('open');
    await owner.goto('/dashboard');
    await expect(owner.getByRole('heading', { name: 'Startgeld' })).toBeVisible();
    await expect(owner.getByText(mine.payment.reference)).toBeVisible();
    await expect(owner.getByText('25,00 €').first()).toBeVisible();
    await expect(owner.getByText('DE89 3704 0044 0532 0130 00')).toBeVisible();
    const giroCode = owner.getByRole('img', { name: 'GiroCode für die Überweisung des Startgelds' });
    await expect(giroCode).toBeVisible();
    await expect
      .poll(() => giroCode.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await giroCode.scrollIntoViewIfNeeded();
    await expectAccessible(owner, 'dashboard with the fee (phone)');
    await owner.screenshot({
      path: path.join(SCREENSHOT_DIR, 'payments-dashboard-phone.png'),
      fullPage: true,
    });

    // The organizer reads the statement in: the transfer named no reference, so it waits.
    await admin.goto('/admin/zahlungen');
    await expect(admin.getByRole('heading', { level: 1, name: 'Zahlungen' })).toBeVisible();
    await admin.getByLabel('Kontoauszug (Datei)').setInputFiles({
      name: 'auszug.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(statement(`E2E${Date.now()}`)),
    });
    await admin.getByRole('button', { name: 'Einlesen' }).click();
    await expect(admin.getByRole('article', { name: 'Ergebnis' })).toContainText(
      /Eingelesen: 0 Zahlungen gebucht, 1 nicht zugeordnet/,
    );
    const line = admin.getByRole('row', { name: /Karla Seidel/ }).first();
    await expect(line).toBeVisible();
    await line.getByRole('button', { name: 'Zuordnen' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Buchung zuordnen' });
    await dialog.getByLabel('Zahlung suchen').fill(mine.payment.reference);
    await dialog.getByRole('radio').first().check();
    await dialog.getByRole('button', { name: 'Zuordnen' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      admin.getByRole('row', { name: new RegExp(mine.payment.reference) }).getByText('Bezahlt'),
    ).toBeVisible();
    await captureEverywhere(admin, 'payments-admin');

    // The owner's fee is paid now.
    await owner.reload();
    await expect(owner.getByText('Dein Startgeld ist eingegangen. Danke!')).toBeVisible();
    await expect(giroCode).toHaveCount(0);
    await ownerContext.close();
  } finally {
    await setFee(null);
  }
});
