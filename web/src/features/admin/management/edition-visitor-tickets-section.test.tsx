import { VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
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
import { TICKETS_FORM_INVALID } from './edition-visitor-tickets-section';

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
type Tickets = AdminEdition['visitorTickets'];

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

const TICKETS = { capacity: 300, exitScanning: false, issued: 120, returned: 2, waiting: 4 };

/** The admin's editions screen; PATCH answers with 2027's tickets as the body says. */
function mockEditions(editions: AdminEdition[], extra: Handlers = {}) {
  let list = editions;
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/editions': () => ({ body: { editions: list } }),
    'PATCH /api/admin/editions/2027': (body) => {
      const { visitorTickets } = body as {
        visitorTickets?: { capacity: number; exitScanning: boolean } | null;
      };
      list = list.map((entry): AdminEdition => {
        if (entry.year !== 2027 || visitorTickets === undefined) return entry;
        const tickets: Tickets = visitorTickets && {
          issued: 0,
          returned: 0,
          waiting: 0,
          ...entry.visitorTickets,
          capacity: visitorTickets.capacity,
          exitScanning: visitorTickets.exitScanning,
        };
        return { ...entry, visitorTickets: tickets };
      });
      return { body: { editions: list, message: 'Schlosstreffen 2027 ist gespeichert.' } };
    },
    ...extra,
  });
}

async function openForm() {
  const rendered = await renderAt('/admin/ausgaben');
  const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
  await rendered.user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
  const form = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
  const capacity = () => within(form).getByLabelText(/^Besucherplätze( \*)?$/) as HTMLInputElement;
  return { ...rendered, form, capacity };
}

const ticketsSwitch = (form: HTMLElement) =>
  within(form).getByRole('checkbox', { name: /Besuchertickets ausgeben/ });
const patches = (api: ReturnType<typeof mockApi>) => api.writes().filter((call) => call.method === 'PATCH');
const save = (form: HTMLElement) => within(form).getByRole('button', { name: 'Speichern' });

describe("the edition form's 'Besuchertickets'", () => {
  it('switched on, sends the capacity; the list shows the counts', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form, capacity } = await openForm();
    expect(within(form).queryByLabelText(/^Besucherplätze/)).toBeNull();
    expect(form.textContent).toContain('Ohne Tickets bleibt die Besucher-Voranmeldung, wie sie ist.');

    await user.click(ticketsSwitch(form));
    await user.type(capacity(), '250');
    await user.click(save(form));

    expect(await findToast('Ausgabe gespeichert')).toContain('Schlosstreffen 2027 ist gespeichert.');
    expect(patches(api)).toHaveLength(1);
    expect((patches(api)[0]!.body as { visitorTickets: unknown }).visitorTickets).toEqual({
      capacity: 250,
      exitScanning: false,
    });
    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    expect(card.textContent).toContain(
      'Besuchertickets: 0 von 250 ausgegeben · 0 auf der Warteliste · 0 zurückgegeben',
    );
  });

  it('refuses a capacity that is no whole number from 1 with the German message and sends nothing', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form, capacity } = await openForm();
    await user.click(ticketsSwitch(form));
    await user.type(capacity(), '0');
    await user.click(save(form));

    await waitFor(() => expect(errorOf(capacity())).toBe(VISITOR_TICKET_MESSAGES.capacity));
    expect(within(form).getByText(TICKETS_FORM_INVALID)).toBeTruthy();

    await user.clear(capacity());
    await user.type(capacity(), '12,5');
    await user.click(save(form));
    await waitFor(() => expect(errorOf(capacity())).toBe(VISITOR_TICKET_MESSAGES.capacity));
    expect(patches(api)).toEqual([]);
  });

  it('shows the counts of an edition with tickets; switched off, the save sends visitorTickets: null', async () => {
    const api = mockEditions([edition({ year: 2027, visitorTickets: TICKETS })]);
    const rendered = await renderAt('/admin/ausgaben');
    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    expect(card.textContent).toContain(
      'Besuchertickets: 120 von 300 ausgegeben · 4 auf der Warteliste · 2 zurückgegeben',
    );
    await rendered.user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
    const form = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
    expect((within(form).getByLabelText(/^Besucherplätze/) as HTMLInputElement).value).toBe('300');

    await rendered.user.click(ticketsSwitch(form));
    expect(within(form).queryByLabelText(/^Besucherplätze/)).toBeNull();
    expect(form.textContent).toContain('Beim Speichern werden keine Besuchertickets mehr ausgegeben.');
    await rendered.user.click(save(form));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)).toHaveLength(1);
    expect(patches(api)[0]!.body).toMatchObject({ visitorTickets: null });
    const after = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    expect(after.textContent).not.toContain('Besuchertickets:');
  });

  it('sends nothing of the tickets when unchanged; a changed capacity is sent', async () => {
    const api = mockEditions([edition({ year: 2027, visitorTickets: TICKETS })]);
    const { user, form } = await openForm();
    await user.click(save(form));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)[0]!.body).not.toHaveProperty('visitorTickets');

    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    await user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
    const again = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
    const field = within(again).getByLabelText(/^Besucherplätze/);
    await user.clear(field);
    await user.type(field, '350');
    await user.click(save(again));
    await waitFor(() => expect(patches(api)).toHaveLength(2));
    expect((patches(api)[1]!.body as { visitorTickets: unknown }).visitorTickets).toEqual({
      capacity: 350,
      exitScanning: false,
    });
  });

  it('an edition without tickets saved unchanged sends no visitorTickets', async () => {
    const api = mockEditions([edition({ year: 2027 })]);
    const { user, form } = await openForm();
    await user.click(save(form));
    await findToast('Ausgabe gespeichert');
    expect(patches(api)[0]!.body).not.toHaveProperty('visitorTickets');
  });

  it("shows the server's refusal of a capacity below the tickets out", async () => {
    const api = mockEditions([edition({ year: 2027, visitorTickets: TICKETS })], {
      'PATCH /api/admin/editions/2027': () => ({
        status: 400,
        body: { message: VISITOR_TICKET_MESSAGES.capacityBelowIssued(120) },
      }),
    });
    const { user, form, capacity } = await openForm();
    await user.clear(capacity());
    await user.type(capacity(), '100');
    await user.click(save(form));

    expect(await within(form).findByText(VISITOR_TICKET_MESSAGES.capacityBelowIssued(120))).toBeTruthy();
    expect((patches(api)[0]!.body as { visitorTickets: unknown }).visitorTickets).toEqual({
      capacity: 100,
      exitScanning: false,
    });
  });

  it("'Ausgang scannen' is offered with the tickets, starts as the edition has it and is sent with the capacity", async () => {
    const api = mockEditions([edition({ year: 2027, visitorTickets: TICKETS })]);
    const { user, form } = await openForm();
    const exit = () =>
      within(form).getByRole('checkbox', {
        name: /^Ausgang scannen \(Besucher dürfen das Gelände verlassen und wiederkommen\)/,
      }) as HTMLInputElement;
    expect(exit().checked).toBe(false);

    await user.click(exit());
    expect(exit().checked).toBe(true);
    await user.click(save(form));
    await findToast('Ausgabe gespeichert');
    expect((patches(api)[0]!.body as { visitorTickets: unknown }).visitorTickets).toEqual({
      capacity: 300,
      exitScanning: true,
    });

    // Opened again, it is on; switched off, the save says so.
    const card = await screen.findByRole('article', { name: 'Schlosstreffen 2027' });
    await user.click(within(card).getByRole('button', { name: 'Bearbeiten' }));
    const again = screen.getByRole('form', { name: 'Schlosstreffen 2027 bearbeiten' });
    const exitAgain = within(again).getByRole('checkbox', { name: /^Ausgang scannen/ }) as HTMLInputElement;
    expect(exitAgain.checked).toBe(true);
    await user.click(exitAgain);
    await user.click(save(again));
    await waitFor(() => expect(patches(api)).toHaveLength(2));
    expect((patches(api)[1]!.body as { visitorTickets: unknown }).visitorTickets).toEqual({
      capacity: 300,
      exitScanning: false,
    });
  });

  it("offers 'Ausgang scannen' only while tickets are switched on", async () => {
    mockEditions([edition({ year: 2027 })]);
    const { user, form } = await openForm();
    expect(within(form).queryByRole('checkbox', { name: /^Ausgang scannen/ })).toBeNull();
    await user.click(ticketsSwitch(form));
    expect(within(form).getByRole('checkbox', { name: /^Ausgang scannen/ })).toBeTruthy();
  });
});
