import { BANK_ACCOUNT_MESSAGES, FEE_MESSAGES, type EditionFee } from '@schlosstreffen/shared';
import type { AdminEdition } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorOf,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../../test/screen-helpers';
import { FEE_FORM_INVALID, refundRuleText } from './edition-fee-section';

setupScreenTests();

// jsdom has no PointerEvent; Ark's checkbox creates one when the focus leaves it.
beforeEach(() => {
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  }
  if (typeof window.PointerEvent !== 'function') vi.stubGlobal('PointerEvent', PointerEventShim);
});

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const IBAN = 'DE89370400440532013000';

function edition(overrides: Partial<AdminEdition> & Pick<AdminEdition, 'year'>): AdminEdition {
  const { year } = overrides;
  return {
    name: `Schlosstreffen ${year}`,
    startsAt: `${year}-06-19T08:00:00.000Z`,
    endsAt: `${year}-06-19T16:00:00.000Z`,
    place: 'Schloss Dyck',
    applicationsOpenAt: `${year}-01-15T09:00:00.000Z`,
    applicationDeadline: `${year}-05-15`,
    parkingZones: [{ name: 'A', capacity: 30 }],
    confirmDays: 7,
    cutoffDays: 3,
    reminderDays: 2,
    currentFrom: null,
    fee: null,
    visitorTickets: null,
    phase: 'open',
    current: false,
    applications: 12,
    ...overrides,
  };
}

const FEE: EditionFee = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e. V.',
  iban: IBAN,
  bic: 'COBADEFFXXX',
  payWithinDays: 7,
  refund: { fullUntil: '2027-05-31', keepCents: 500 },
};

/** The admin's editions screen; PATCH answers with `editions` changed as the body says. */
function mockEditions(editions: AdminEdition[], extra: Handlers = {}) {
  let list = editions;
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/editions': () => ({ body: { editions: list } }),
    'PATCH /api/admin/editions/2027': (body) => {
      const { fee } = body as { fee?: EditionFee | null };
      list = list.map((entry) =>
        entry.year === 2027 && fee !== undefined ? { ...entry, fee: fee && { ...fee } } : entry,
      );
      return { body: { editions: list, message: 'Schlosstreffen 2027 ist gespeichert.' } };
    },
    ...extra,
  });
}

/** The screen with 2027's edit form open; `before` looks at the list first. */
async function openForm(before?: () => void) {
  const rendered = await renderAt('/admin/ausgaben');
  const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
  before?.();
  await rendered.user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
  const form = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
  const field = (label: string) => within(form).getByLabelText(new RegExp(`^${label}( \\*)?$`));
  return { ...rendered, form, field };
}

const feeSwitch = (form: HTMLElement) =>
  within(form).getByRole('checkbox', { name: /Teilnahmegebühr erheben/ });
const patches = (api: ReturnType<typeof mockApi>) => api.writes().filter((call) => call.method === 'PATCH');

describe("the edition form's 'Teilnahmegebühr'", () => {
  it('switched on, sends the fee in cents with the IBAN in its electronic form; the list shows it masked', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form, field } = await openForm();
    expect(within(form).queryByLabelText(/^IBAN/)).toBeNull();

    await user.click(feeSwitch(form));
    expect((field('Zahlungsfrist \\(Tage nach der Bestätigungsfrist\\)') as HTMLInputElement).value).toBe(
      '5',
    );
    expect((field('Danach einbehalten') as HTMLInputElement).value).toBe('0,00');
    await user.type(field('Betrag'), '25,5');
    await user.type(field('Kontoinhaber'), 'Schlosstreffen e. V.');
    await user.type(field('IBAN'), 'de89370400440532013000');
    await user.tab();
    expect((field('IBAN') as HTMLInputElement).value).toBe('DE89 3704 0044 0532 0130 00');
    expect((field('Betrag') as HTMLInputElement).value).toBe('25,50');
    expect(
      within(form).getByText('Wer nach der Zahlung absagt, bekommt die volle Gebühr zurück.'),
    ).toBeTruthy();

    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    expect(await findToast('Ausgabe gespeichert')).toContain('Schlosstreffen 2027 ist gespeichert.');
    expect(patches(api)).toHaveLength(1);
    expect((patches(api)[0]!.body as { fee: unknown }).fee).toEqual({
      amountCents: 2550,
      accountHolder: 'Schlosstreffen e. V.',
      iban: IBAN,
      bic: null,
      payWithinDays: 5,
      refund: { fullUntil: null, keepCents: 0 },
    });
    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    expect(card.textContent).toContain('Teilnahmegebühr25,50\u00a0€ · IBAN DE89 **** **** 3000');
  });

  it('refuses an IBAN whose checksum fails with the German message at the field and sends nothing', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form, field } = await openForm();
    await user.click(feeSwitch(form));
    await user.type(field('Betrag'), '25');
    await user.type(field('Kontoinhaber'), 'Schlosstreffen e. V.');
    await user.type(field('IBAN'), 'DE89 3704 0044 0532 0130 01');
    await user.clear(field('Danach einbehalten'));
    await user.type(field('Danach einbehalten'), '30');
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));

    await waitFor(() => expect(errorOf(field('IBAN'))).toBe(BANK_ACCOUNT_MESSAGES.ibanChecksum));
    expect(errorOf(field('Danach einbehalten'))).toBe(FEE_MESSAGES.keepAboveAmount);
    expect(within(form).getByText(FEE_FORM_INVALID)).toBeTruthy();
    expect(patches(api)).toEqual([]);
  });

  it("shows the server's messages at the fee's fields", async () => {
    const api = mockEditions([edition({ year: 2027 })], {
      'PATCH /api/admin/editions/2027': () => ({
        status: 400,
        body: {
          message: 'Der Kontoinhaber darf höchstens 70 Zeichen lang sein.',
          issues: [
            { field: 'fee.accountHolder', message: 'Der Kontoinhaber darf höchstens 70 Zeichen lang sein.' },
          ],
        },
      }),
    });
    const { user, form, field } = await openForm();
    await user.click(feeSwitch(form));
    await user.type(field('Betrag'), '20');
    await user.type(field('Kontoinhaber'), 'Schlosstreffen e. V.');
    await user.type(field('IBAN'), IBAN);
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));

    await waitFor(() =>
      expect(errorOf(field('Kontoinhaber'))).toBe('Der Kontoinhaber darf höchstens 70 Zeichen lang sein.'),
    );
    expect(patches(api)).toHaveLength(1);
  });

  it('shows a set fee, also of an edition that is over; switched off, the save removes it with fee: null', async () => {
    const api = mockEditions([
      edition({ year: 2027, fee: FEE }),
      edition({ year: 2026, fee: { ...FEE, amountCents: 2000 }, phase: 'archived' }),
    ]);
    const { user, form, field } = await openForm(() => {
      const over = screen.getByRole('article', { name: 'Schlosstreffen 2026' });
      expect(over.textContent).toContain('20,00\u00a0€ · IBAN DE89 **** **** 3000');
      expect(within(over).queryByRole('button', { name: 'Bearbeiten' })).toBeNull();
      const open = screen.getByRole('article', { name: 'Schlosstreffen 2027' });
      expect(open.textContent).toContain('25,00\u00a0€ · IBAN DE89 **** **** 3000');
      // Lists show the IBAN masked only.
      expect(screen.queryByText(/3704|0532/)).toBeNull();
    });
    expect((field('Betrag') as HTMLInputElement).value).toBe('25,00');
    expect((field('IBAN') as HTMLInputElement).value).toBe('DE89 3704 0044 0532 0130 00');
    expect((field('BIC \\(optional\\)') as HTMLInputElement).value).toBe('COBADEFFXXX');
    expect((field('Volle Erstattung bis') as HTMLInputElement).value).toBe('2027-05-31');
    expect((field('Danach einbehalten') as HTMLInputElement).value).toBe('5,00');
    expect(form.textContent).toContain(
      'Wer bis einschließlich 31.05.2027 absagt, bekommt die volle Gebühr zurück, wer später absagt, 20,00\u00a0€ (5,00\u00a0€ bleiben einbehalten).',
    );

    await user.click(feeSwitch(form));
    expect(within(form).queryByLabelText(/^IBAN/)).toBeNull();
    expect(form.textContent).toContain('Beim Speichern wird die Teilnahmegebühr entfernt');
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)).toHaveLength(1);
    expect(patches(api)[0]!.body).toMatchObject({ fee: null });
  });

  it('an edition without fee saved unchanged sends no fee', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form } = await openForm();
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)).toHaveLength(1);
    expect(patches(api)[0]!.body).toMatchObject({ name: 'Schlosstreffen 2027', place: 'Schloss Dyck' });
    expect(patches(api)[0]!.body).not.toHaveProperty('fee');
  });

  it('a set fee saved unchanged is not sent; changed, it is', async () => {
    const api = mockEditions([edition({ year: 2027, fee: FEE })]);
    const { user, form } = await openForm();
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)[0]!.body).not.toHaveProperty('fee');

    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    await user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
    const again = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
    await user.clear(within(again).getByLabelText('Volle Erstattung bis'));
    await user.clear(within(again).getByLabelText(/^Danach einbehalten/));
    await user.type(within(again).getByLabelText(/^Danach einbehalten/), '25');
    expect(again.textContent).toContain('Wer nach der Zahlung absagt, bekommt nichts zurück.');
    await user.click(within(again).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(patches(api)).toHaveLength(2));
    expect((patches(api)[1]!.body as { fee: unknown }).fee).toEqual({
      ...FEE,
      refund: { fullUntil: null, keepCents: 2500 },
    });
  });
});

describe('refundRuleText', () => {
  it('says what a decline after paying gets back', () => {
    expect(refundRuleText(2500, '2027-05-31', 0)).toBe(
      'Wer nach der Zahlung absagt, bekommt die volle Gebühr zurück.',
    );
    expect(refundRuleText(2500, null, 2500)).toBe('Wer nach der Zahlung absagt, bekommt nichts zurück.');
    expect(refundRuleText(2500, '2027-05-31', 2500)).toBe(
      'Wer bis einschließlich 31.05.2027 absagt, bekommt die volle Gebühr zurück, wer später absagt, nichts.',
    );
    expect(refundRuleText(2500, null, 1000)).toBe(
      'Wer nach der Zahlung absagt, bekommt 15,00\u00a0€ (10,00\u00a0€ bleiben einbehalten) zurück.',
    );
  });
});
