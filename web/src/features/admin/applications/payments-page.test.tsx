import { PAYMENT_MESSAGES } from '@schlosstreffen/shared';
import type {
  AdminEdition,
  PaymentImportResult,
  PaymentRow,
  PaymentsOverview,
} from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deferred,
  errorOf,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../../test/screen-helpers';
import { installDomShims } from '../../vehicle-form/test-helpers';

setupScreenTests();

// What jsdom lacks and the select and dialogs use: pointer events, a size watch, scrolling.
beforeEach(() => {
  installDomShims();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const PAYMENTS = '/api/admin/payments/2026';

const EDITION: AdminEdition = {
  year: 2026,
  name: 'Schlosstreffen 2026',
  startsAt: '2026-06-20T08:00:00.000Z',
  endsAt: '2026-06-20T18:00:00.000Z',
  place: 'Schloss',
  applicationsOpenAt: '2026-01-01T00:00:00.000Z',
  applicationDeadline: '2026-03-31',
  parkingZones: [{ name: 'A', capacity: 30 }],
  confirmDays: 14,
  cutoffDays: 7,
  reminderDays: 3,
  currentFrom: '2026-01-01T00:00:00.000Z',
  phase: 'closed',
  current: true,
  applications: 12,
  fee: {
    amountCents: 2500,
    accountHolder: 'Schlosstreffen e. V.',
    iban: 'DE89370400440532013000',
    bic: null,
    payWithinDays: 5,
    refund: { fullUntil: null, keepCents: 0 },
  },
  visitorTickets: null,
};

const payment = (overrides: Partial<PaymentRow> & Pick<PaymentRow, 'id' | 'reference'>): PaymentRow => ({
  startNumber: null,
  vehicleTitle: null,
  ownerName: null,
  status: 'open',
  amountCents: 2500,
  paidCents: 0,
  refundedCents: 0,
  dueAt: null,
  waiveReason: null,
  placeHeld: true,
  noDeadline: false,
  ...overrides,
});

const BLITZ = payment({
  id: 'a1000000-0000-4000-8000-000000000001',
  reference: 'ST26-K7Q2P-K',
  startNumber: 7,
  vehicleTitle: 'Roter Blitz',
  ownerName: 'Lena Weber',
  // The end of 5 June in Berlin.
  dueAt: '2026-06-05T21:59:59.000Z',
});
const WAL = payment({
  id: 'a1000000-0000-4000-8000-000000000002',
  reference: 'ST26-B3W4L-A',
  startNumber: 3,
  vehicleTitle: 'Blauer Wal',
  ownerName: 'Jan Richter',
  status: 'paid',
  paidCents: 2500,
  dueAt: '2026-06-05T21:59:59.000Z',
});
const GURKE = payment({
  id: 'a1000000-0000-4000-8000-000000000003',
  reference: 'ST26-G9R8K-E',
  startNumber: 9,
  vehicleTitle: 'Grüne Gurke',
  ownerName: 'Tom Becker',
  status: 'partial',
  paidCents: 1000,
  noDeadline: true,
});
const KAEFER = payment({
  id: 'a1000000-0000-4000-8000-000000000004',
  reference: 'ST26-K4F3R-Q',
  startNumber: 12,
  vehicleTitle: 'Gelber Käfer',
  ownerName: 'Mia Koch',
  status: 'waived',
  waiveReason: 'Sponsor des Treffens',
});

const ENTRY_ID = 'b2000000-0000-4000-8000-000000000001';
const OPEN_FILE = 'c3000000-0000-4000-8000-000000000001';
const DONE_FILE = 'c3000000-0000-4000-8000-000000000002';

const OVERVIEW: PaymentsOverview = {
  year: 2026,
  fee: { amountCents: 2500, accountHolder: 'Schlosstreffen e. V.', ibanMasked: 'DE89 **** **** 3000' },
  totals: {
    expectedCents: 10_000,
    receivedCents: 5_250,
    openCents: 4_000,
    waivedCents: 2_500,
    refundedCents: 1_200,
    refundDueCents: 750,
    unassignedCents: 1_800,
  },
  payments: [BLITZ, WAL, GURKE, KAEFER],
  unassigned: [
    {
      id: ENTRY_ID,
      amountCents: 1_800,
      bookingDate: '2026-06-02',
      payerName: 'Max Muster',
      payerIbanMasked: 'DE12 **** **** 4567',
      remittance: 'Startgeld Schlosstreffen',
    },
  ],
  refundsDue: [
    {
      paymentId: WAL.id,
      reference: WAL.reference,
      startNumber: 3,
      ownerName: 'Jan Richter',
      amountCents: 500,
      payerName: 'Jan Richter',
      payerIbanMasked: 'DE44 **** **** 1234',
      bySepa: true,
    },
    {
      paymentId: KAEFER.id,
      reference: KAEFER.reference,
      startNumber: 12,
      ownerName: 'Mia Koch',
      amountCents: 250,
      payerName: null,
      payerIbanMasked: null,
      bySepa: false,
    },
  ],
  refundExports: [
    {
      id: OPEN_FILE,
      messageId: 'ST-2026-0002',
      count: 2,
      totalCents: 3_000,
      createdAt: '2026-06-25T08:30:00.000Z',
      confirmedAt: null,
    },
    {
      id: DONE_FILE,
      messageId: 'ST-2026-0001',
      count: 1,
      totalCents: 1_200,
      createdAt: '2026-06-10T08:30:00.000Z',
      confirmedAt: '2026-06-12T09:00:00.000Z',
    },
  ],
  imports: [],
};

function mockPayments(handlers: Handlers = {}, user: typeof ADMIN | typeof REVIEWER = ADMIN) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: user }),
    'GET /api/admin/editions': () => ({ body: { editions: [EDITION] } }),
    [`GET ${PAYMENTS}`]: () => ({ body: OVERVIEW }),
    ...handlers,
  });
}

/** The value each term of a description list (`dt` → `dd`) shows. */
function termsOf(list: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    [...list.querySelectorAll('dt')].map((term) => [
      term.textContent ?? '',
      term.parentElement?.querySelector('dd')?.textContent ?? '',
    ]),
  );
}

/** The fetch calls made, as URL and request. */
const fetchCalls = () =>
  vi
    .mocked(fetch)
    .mock.calls.map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), init }));

const reads = (api: ReturnType<typeof mockApi>, path: string) =>
  api.calls.filter((call) => call.method === 'GET' && call.path === path);

describe('/admin/zahlungen', () => {
  it('without a fee shows the German message and leads to the edition form', async () => {
    mockPayments({
      [`GET ${PAYMENTS}`]: () => ({ status: 404, body: { message: PAYMENT_MESSAGES.noFee(2026) } }),
    });
    await renderAt('/admin/zahlungen');

    expect(await screen.findByText('Für 2026 ist keine Teilnahmegebühr eingerichtet.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Keine Teilnahmegebühr' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zu den Ausgaben' }).getAttribute('href')).toBe(
      '/admin/ausgaben',
    );
    expect(screen.queryByRole('heading', { name: 'Kontoauszug einlesen' })).toBeNull();
    // Not an error to retry.
    expect(screen.queryByRole('button', { name: 'Erneut versuchen' })).toBeNull();
  });

  it("shows another failure as an error with the server's message and a retry", async () => {
    mockPayments({
      [`GET ${PAYMENTS}`]: () => ({ status: 404, body: { message: 'Die Ausgabe 2026 gibt es nicht.' } }),
    });
    await renderAt('/admin/zahlungen');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Zahlungen konnten nicht geladen werden');
    expect(alert.textContent).toContain('Die Ausgabe 2026 gibt es nicht.');
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Zu den Ausgaben' })).toBeNull();
  });

  it("shows the fee, the Kassenbericht's figures and its CSV, and is listed in the menu's 'Bewerbungen'", async () => {
    mockPayments();
    await renderAt('/admin/zahlungen');

    const page = (await screen.findByRole('heading', { level: 1, name: 'Zahlungen' })).closest('section')!;
    const totals = await screen.findByRole('region', { name: 'Kassenbericht' });
    expect(termsOf(totals)).toEqual({
      Erwartet: '100,00\u00a0€',
      Eingegangen: '52,50\u00a0€',
      Offen: '40,00\u00a0€',
      Erlassen: '25,00\u00a0€',
      Erstattet: '12,00\u00a0€',
      'Erstattung fällig': '7,50\u00a0€',
      'Nicht zugeordnet': '18,00\u00a0€',
    });
    expect(within(totals).getByRole('link', { name: 'Kassenbericht (CSV)' }).getAttribute('href')).toBe(
      `${PAYMENTS}/kassenbericht.csv`,
    );
    const fee = screen.getByText('Teilnahmegebühr').closest('dl')!;
    expect(termsOf(fee)).toEqual({
      Teilnahmegebühr: '25,00\u00a0€',
      Kontoinhaber: 'Schlosstreffen e. V.',
      IBAN: 'DE89 **** **** 3000',
    });
    // The sections in order, one level below the page's heading.
    expect(
      within(page)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['Kassenbericht', 'Kontoauszug einlesen', 'Nicht zugeordnet', 'Startgelder', 'Erstattungen']);

    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    const link = within(nav).getByRole('link', { name: 'Zahlungen' });
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(link.closest('ul')?.getAttribute('aria-labelledby')).toBeTruthy();
    expect(document.getElementById(link.closest('ul')!.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'Bewerbungen',
    );
  });

  it("lists the payments with state, Berlin due date and 'ohne Zahlungsfrist', 'Erlassen' for open ones only, the unassigned lines and the refunds", async () => {
    mockPayments();
    await renderAt('/admin/zahlungen');
    const table = await screen.findByRole('table', { name: 'Startgelder' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Startnr.',
      'Auto',
      'Besitzer',
      'Verwendungszweck',
      'Betrag',
      'Bezahlt',
      'Status',
      'Zahlungsfrist',
      'Aktion',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.replace(/\u00a0/g, ' '));
    expect(rows.map(cells)).toEqual([
      [
        '7',
        'Roter Blitz',
        'Lena Weber',
        'ST26-K7Q2P-K',
        '25,00 €',
        '0,00 €',
        'Offen',
        '05.06.2026',
        'Erlassen – Nr. 7 · Roter Blitz',
      ],
      ['3', 'Blauer Wal', 'Jan Richter', 'ST26-B3W4L-A', '25,00 €', '25,00 €', 'Bezahlt', '05.06.2026', ''],
      [
        '9',
        'Grüne Gurke',
        'Tom Becker',
        'ST26-G9R8K-E',
        '25,00 €',
        '10,00 €',
        'Teilweise bezahlt',
        'ohne Zahlungsfrist',
        'Erlassen – Nr. 9 · Grüne Gurke',
      ],
      [
        '12',
        'Gelber Käfer',
        'Mia Koch',
        'ST26-K4F3R-Q',
        '25,00 €',
        '0,00 €',
        'ErlassenGrund: Sponsor des Treffens',
        '–',
        '',
      ],
    ]);
    expect(within(rows[0]!).getByText('ST26-K7Q2P-K').className).toContain('font-mono');
    expect(within(rows[0]!).getByText('Offen').className).toContain('bg-yellow-100');

    const unassigned = screen.getByRole('table', { name: 'Nicht zugeordnet' });
    expect(
      within(unassigned)
        .getAllByRole('row')[1]!
        .textContent?.replace(/\u00a0/g, ' '),
    ).toBe(
      '02.06.2026Max MusterDE12 **** **** 456718,00 €Startgeld SchlosstreffenZuordnen – 18,00 € von Max Muster',
    );

    const due = screen.getByRole('table', { name: 'Fällig' });
    const refunds = within(due).getAllByRole('row').slice(1);
    expect(within(refunds[0]!).getByText('per Überweisung')).toBeTruthy();
    expect(within(refunds[0]!).getByText('DE44 **** **** 1234')).toBeTruthy();
    expect(within(refunds[1]!).getByText('bar erstatten')).toBeTruthy();
  });

  it('shows the empty states', async () => {
    mockPayments({
      [`GET ${PAYMENTS}`]: () => ({
        body: { ...OVERVIEW, payments: [], unassigned: [], refundsDue: [], refundExports: [] },
      }),
    });
    await renderAt('/admin/zahlungen');
    expect(await screen.findByText('Jede eingelesene Buchung ist einer Zahlung zugeordnet.')).toBeTruthy();
    expect(screen.getByText('Noch keine Startgelder: Jede Einladung bringt ihres mit.')).toBeTruthy();
    expect(screen.getByText('Keine Erstattung fällig.')).toBeTruthy();
    expect(screen.getByText('Noch keine SEPA-Datei erstellt.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('reads a statement in: checks the file and the CSV layout, sends the bytes with name and layout, shows the progress and the outcome', async () => {
    const answer = deferred({
      body: {
        message: 'Eingelesen: 3 Zahlungen gebucht, 1 nicht zugeordnet, 2 bereits bekannt.',
        fileSeenBefore: false,
        counts: {
          paid: 1,
          partial: 1,
          overpaid: 1,
          already_paid: 0,
          unassigned: 1,
          assigned: 3,
          known: 2,
          skipped: 1,
        },
        skipped: [
          {
            message: 'Lastschrift: keine Zahlung eines Startgelds.',
            amount: '-12.00',
            currency: 'EUR',
            bookingDate: '2026-06-03',
          },
        ],
      } satisfies PaymentImportResult,
    });
    const api = mockPayments({ [`POST ${PAYMENTS}/import`]: () => answer.promise });
    const { user } = await renderAt('/admin/zahlungen');
    const section = await screen.findByRole('region', { name: 'Kontoauszug einlesen' });
    const fileInput = within(section).getByLabelText(/^Kontoauszug \(Datei\)/) as HTMLInputElement;
    expect(fileInput.type).toBe('file');
    expect(fileInput.accept).toBe('.xml,.zip,.csv');

    // Nothing chosen: the German message at the field, nothing sent.
    await user.click(within(section).getByRole('button', { name: 'Einlesen' }));
    await waitFor(() => expect(errorOf(fileInput)).toBe(PAYMENT_MESSAGES.fileRequired));

    // A CSV needs its bank's layout.
    const csv = new File(['Buchungstag;Betrag\n'], 'umsaetze juni.csv', { type: 'text/csv' });
    await user.upload(fileInput, csv);
    await waitFor(() => expect(errorOf(fileInput)).toBeNull());
    await user.click(within(section).getByRole('button', { name: 'Einlesen' }));
    expect(await within(section).findByText(PAYMENT_MESSAGES.csvPreset)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.click(within(section).getByRole('combobox', { name: 'Format' }));
    await user.click(await screen.findByRole('option', { name: 'CSV Sparkasse' }));
    await waitFor(() => expect(within(section).queryByText(PAYMENT_MESSAGES.csvPreset)).toBeNull());
    await user.click(within(section).getByRole('button', { name: 'Einlesen' }));

    // While it is read: the button waits, the status says so.
    const busy = await within(section).findByRole('button', { name: 'Wird eingelesen...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(within(section).getByRole('status').textContent).toContain('wird eingelesen');
    const upload = fetchCalls().find(({ url }) => url.pathname === `${PAYMENTS}/import`)!;
    expect(upload.init?.method).toBe('POST');
    expect(upload.url.searchParams.get('name')).toBe('umsaetze juni.csv');
    expect(upload.url.searchParams.get('csv')).toBe('sparkasse');
    expect((upload.init?.headers as Record<string, string>)['Content-Type']).toBe('application/octet-stream');
    expect(upload.init?.body).toBe(csv);

    answer.release();
    const outcome = await screen.findByRole('article', { name: 'Ergebnis' });
    expect(outcome.textContent).toContain(
      'Eingelesen: 3 Zahlungen gebucht, 1 nicht zugeordnet, 2 bereits bekannt.',
    );
    expect(termsOf(outcome)).toEqual({
      Bezahlt: '1',
      'Teilweise bezahlt': '1',
      Überzahlt: '1',
      'Bereits bezahlt': '0',
      'Nicht zugeordnet': '1',
      'Bereits eingelesen': '2',
      Übersprungen: '1',
    });
    expect(within(outcome).getByRole('listitem').textContent).toBe(
      'Lastschrift: keine Zahlung eines Startgelds. (-12.00 EUR, 03.06.2026)',
    );
    // The overview is read again with the new bookings; the form is ready for the next file.
    await waitFor(() => expect(reads(api, PAYMENTS)).toHaveLength(2));
    expect(fileInput.value).toBe('');
    expect(within(section).getByRole('button', { name: 'Einlesen' })).toBeTruthy();
  });

  it("shows the server's German message when a statement cannot be read; a camt file goes without layout", async () => {
    mockPayments({
      [`POST ${PAYMENTS}/import`]: () => ({
        status: 400,
        body: { message: 'Die Datei ist kein Kontoauszug im Format camt.053 oder camt.052.' },
      }),
    });
    const { user } = await renderAt('/admin/zahlungen');
    const section = await screen.findByRole('region', { name: 'Kontoauszug einlesen' });
    const file = new File(['<Document/>'], 'auszug.xml', { type: 'application/xml' });
    await user.upload(within(section).getByLabelText(/^Kontoauszug \(Datei\)/), file);
    await user.click(within(section).getByRole('button', { name: 'Einlesen' }));

    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toBe('Die Datei ist kein Kontoauszug im Format camt.053 oder camt.052.');
    const upload = fetchCalls().find(({ url }) => url.pathname === `${PAYMENTS}/import`)!;
    expect(upload.url.searchParams.get('name')).toBe('auszug.xml');
    expect(upload.url.searchParams.has('csv')).toBe(false);
    expect(screen.queryByRole('article', { name: 'Ergebnis' })).toBeNull();
  });

  it('assigns an unassigned line through the dialog: searches, picks a payment and sends it', async () => {
    const api = mockPayments({
      [`GET ${PAYMENTS}/search`]: () => ({ body: [BLITZ, GURKE] }),
      [`POST ${PAYMENTS}/entries/${ENTRY_ID}/assign`]: () => ({ body: { message: 'Zahlung zugeordnet.' } }),
    });
    const { user } = await renderAt('/admin/zahlungen');
    await user.click(await screen.findByRole('button', { name: 'Zuordnen – 18,00\u00a0€ von Max Muster' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buchung zuordnen' });
    expect(dialog.textContent).toContain('Verwendungszweck „Startgeld Schlosstreffen“');

    await user.type(within(dialog).getByRole('searchbox', { name: 'Zahlung suchen' }), 'Blitz');
    // Typing pauses before the search goes out; a slow typist's pause may send a part of it first.
    await waitFor(() =>
      expect(
        fetchCalls()
          .filter(({ url }) => url.pathname === `${PAYMENTS}/search`)
          .at(-1)
          ?.url.searchParams.get('q'),
      ).toBe('Blitz'),
    );
    expect(await within(dialog).findByText('2 Zahlungen gefunden.')).toBeTruthy();

    // Nothing picked: nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Zuordnen' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Bitte wählen Sie die Zahlung, zu der die Buchung gehört.',
    );
    expect(api.writes()).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: /Nr\. 7 · Roter Blitz/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Zuordnen' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Buchung zuordnen' })).toBeNull());
    expect(api.writes()).toEqual([
      { method: 'POST', path: `${PAYMENTS}/entries/${ENTRY_ID}/assign`, body: { paymentId: BLITZ.id } },
    ]);
    expect(await findToast('Zahlung zugeordnet.')).toContain('ST26-K7Q2P-K');
    await waitFor(() => expect(reads(api, PAYMENTS)).toHaveLength(2));
  });

  it('waives an open fee only with a reason of at least 10 characters, with the German message otherwise', async () => {
    const api = mockPayments({
      [`POST ${PAYMENTS}/payments/${BLITZ.id}/waive`]: () => ({ body: { message: 'Startgeld erlassen.' } }),
    });
    const { user } = await renderAt('/admin/zahlungen');
    await user.click(await screen.findByRole('button', { name: 'Erlassen – Nr. 7 · Roter Blitz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Startgeld erlassen' });
    const reason = within(dialog).getByRole('textbox', { name: /^Grund/ });

    await user.click(within(dialog).getByRole('button', { name: 'Erlassen' }));
    await waitFor(() => expect(errorOf(reason)).toBe(PAYMENT_MESSAGES.waiveReason));
    await user.type(reason, '  Sponsor ');
    await user.click(within(dialog).getByRole('button', { name: 'Erlassen' }));
    await waitFor(() => expect(errorOf(reason)).toBe(PAYMENT_MESSAGES.waiveReason));
    expect(api.writes()).toEqual([]);

    await user.type(reason, 'des Treffens');
    await waitFor(() => expect(errorOf(reason)).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Erlassen' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Startgeld erlassen' })).toBeNull());
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: `${PAYMENTS}/payments/${BLITZ.id}/waive`,
        body: { reason: 'Sponsor des Treffens' },
      },
    ]);
    await findToast('Startgeld erlassen.');
  });

  it('exports the refunds due by transfer, offers the file until it is confirmed, and confirms only after asking', async () => {
    const api = mockPayments({
      [`POST ${PAYMENTS}/refunds/export`]: () => ({
        status: 201,
        body: {
          id: 'c3000000-0000-4000-8000-000000000003',
          count: 1,
          totalCents: 500,
          message: '1 Erstattungen über 5,00\u00a0€ in der SEPA-Datei.',
        },
      }),
      [`POST ${PAYMENTS}/refunds/${OPEN_FILE}/confirm`]: () => ({
        body: { message: 'Erstattungen als überwiesen bestätigt.' },
      }),
    });
    const { user } = await renderAt('/admin/zahlungen');
    await user.click(await screen.findByRole('button', { name: 'Erstattungen exportieren' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toEqual({ method: 'POST', path: `${PAYMENTS}/refunds/export`, body: {} });
    expect(await findToast('SEPA-Datei erstellt')).toContain('in der SEPA-Datei.');

    const open = screen.getByRole('article', { name: 'SEPA-Datei vom 25.06.2026, 10:30 Uhr' });
    expect(open.textContent?.replace(/\u00a0/g, ' ')).toContain('2 Erstattungen · 30,00 €');
    expect(within(open).getByRole('link', { name: 'SEPA-Datei herunterladen' }).getAttribute('href')).toBe(
      `${PAYMENTS}/refunds/${OPEN_FILE}/file`,
    );
    const done = screen.getByRole('article', { name: 'SEPA-Datei vom 10.06.2026, 10:30 Uhr' });
    expect(within(done).getByText('Überwiesen am 12.06.2026')).toBeTruthy();
    expect(within(done).queryByRole('link')).toBeNull();
    expect(within(done).queryByRole('button')).toBeNull();

    await user.click(within(open).getByRole('button', { name: 'Als überwiesen bestätigen' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Als überwiesen bestätigen?' });
    expect(api.writes()).toHaveLength(1);
    await user.click(within(ask).getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes()[1]).toEqual({
      method: 'POST',
      path: `${PAYMENTS}/refunds/${OPEN_FILE}/confirm`,
      body: {},
    });
    await findToast('Erstattungen als überwiesen bestätigt.');
  });

  it('offers no export while no refund can go by transfer', async () => {
    mockPayments({
      [`GET ${PAYMENTS}`]: () => ({
        body: { ...OVERVIEW, refundsDue: OVERVIEW.refundsDue.filter((refund) => !refund.bySepa) },
      }),
    });
    await renderAt('/admin/zahlungen');
    const button = await screen.findByRole('button', { name: 'Erstattungen exportieren' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
      PAYMENT_MESSAGES.noRefundsDue,
    );
  });

  it("refuses reviewers: 'Zugriff verweigert', no link in the menu, no call for the payments", async () => {
    const api = mockPayments({}, REVIEWER);
    await renderAt('/admin/zahlungen');
    expect(await screen.findByRole('heading', { name: 'Zugriff verweigert' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).queryByRole('link', { name: 'Zahlungen' })).toBeNull();
    expect(api.calls.some((call) => call.path.startsWith('/api/admin/payments'))).toBe(false);
  });
});
