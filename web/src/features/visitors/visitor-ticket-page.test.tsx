import { VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
import type { VisitorTicketView } from '@schlosstreffen/shared/api';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deferred,
  failWith,
  mockApi,
  renderAt,
  setupScreenTests,
  unreachable,
} from '../../test/screen-helpers';
import { loadVisitorTicket, saveVisitorTicket } from './visitor-ticket-store';

setupScreenTests();

beforeEach(() => localStorage.clear());

const SECRET = 'vt_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const TICKET_GET = `GET /api/visitor-tickets/${SECRET}`;
const RETURN_POST = `POST /api/visitor-tickets/${SECRET}/return`;

const VIEW: VisitorTicketView = {
  state: 'issued',
  firstName: 'Jonas',
  lastName: 'Hartmann',
  // 10:00 to 18:00 at the venue (summer time).
  edition: {
    name: 'Schlosstreffen 2027',
    year: 2027,
    startsAt: '2027-06-19T08:00:00.000Z',
    endsAt: '2027-06-19T16:00:00.000Z',
    place: 'Schloss Dyck',
  },
  code: SECRET,
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>',
};

const ticketCard = () => screen.findByRole('article', { name: 'Schlosstreffen 2027' });

describe('/besucherticket/$secret', () => {
  it("shows the edition's date and time at the venue, the place, the holder and the code; not for search engines", async () => {
    mockApi({ [TICKET_GET]: () => ({ body: VIEW }) });
    await renderAt(`/besucherticket/${SECRET}`);

    const card = await ticketCard();
    expect(screen.getByRole('heading', { level: 1, name: 'Besucherticket' })).toBeTruthy();
    expect(card.textContent).toContain('Samstag, 19. Juni 2027');
    expect(card.textContent).toContain('10:00 – 18:00 Uhr');
    expect(card.textContent).toContain('Schloss Dyck');
    expect(card.textContent).toContain('Jonas Hartmann');
    expect(within(card).getByText(SECRET)).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'QR-Code des Besuchertickets' }).getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(VIEW.qrSvg)}`,
    );
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/^Offline/)).toBeNull();

    const giveBack = screen.getByRole('link', { name: 'Ticket zurückgeben' });
    expect(giveBack.getAttribute('href')).toBe(`/besucherticket/${SECRET}/zurueckgeben`);
    await waitFor(() => expect(document.title).toBe('Besucherticket – Schlosstreffen'));
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
    // Kept on the device for the gate without network.
    expect(loadVisitorTicket(SECRET)?.view).toEqual(VIEW);
  });

  it('says a returned ticket no longer counts, without code and without the return link', async () => {
    mockApi({ [TICKET_GET]: () => ({ body: { ...VIEW, state: 'returned' } }) });
    await renderAt(`/besucherticket/${SECRET}`);

    const card = await ticketCard();
    expect(within(card).getByRole('alert').textContent).toBe(
      'Dieses Ticket ist zurückgegeben und gilt nicht mehr.',
    );
    expect(within(card).queryByText(SECRET)).toBeNull();
    expect(within(card).queryByRole('img', { name: 'QR-Code des Besuchertickets' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Ticket zurückgeben' })).toBeNull();
  });

  it('says an unknown ticket does not exist and forgets a kept copy of it', async () => {
    saveVisitorTicket(SECRET, VIEW);
    mockApi({ [TICKET_GET]: failWith(404, VISITOR_TICKET_MESSAGES.ticketUnknown) });
    await renderAt(`/besucherticket/${SECRET}`);

    expect((await screen.findByRole('alert')).textContent).toBe(VISITOR_TICKET_MESSAGES.ticketUnknown);
    expect(screen.queryByRole('article')).toBeNull();
    expect(loadVisitorTicket(SECRET)).toBeNull();
  });

  it('without network shows the ticket loaded last time, with when that was', async () => {
    mockApi({ [TICKET_GET]: () => ({ body: VIEW }) });
    await renderAt(`/besucherticket/${SECRET}`);
    await ticketCard();
    const savedAt = new Date(loadVisitorTicket(SECRET)!.savedAt);
    cleanup();

    const api = mockApi({ [TICKET_GET]: unreachable });
    await renderAt(`/besucherticket/${SECRET}`);

    const card = await ticketCard();
    expect(api.calls.some((call) => call.path === `/api/visitor-tickets/${SECRET}`)).toBe(true);
    expect(card.textContent).toContain('Jonas Hartmann');
    expect(within(card).getByText(SECRET)).toBeTruthy();
    const clock = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(savedAt);
    expect(screen.getByText(/^Offline: zuletzt geladen am/).textContent).toBe(
      `Offline: zuletzt geladen am ${clock} Uhr`,
    );
  });

  it('without network and nothing kept, says it could not load and offers another try', async () => {
    mockApi({ [TICKET_GET]: unreachable });
    await renderAt(`/besucherticket/${SECRET}`);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Ticket konnte nicht geladen werden' })).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });
});

describe('/besucherticket/$secret/zurueckgeben', () => {
  it('asks first, posts only on the button and shows the server message; the kept copy is returned', async () => {
    saveVisitorTicket(SECRET, VIEW);
    const reply = deferred({ body: { message: VISITOR_TICKET_MESSAGES.ticketReturned } });
    const api = mockApi({ [RETURN_POST]: () => reply.promise });
    const { user } = await renderAt(`/besucherticket/${SECRET}/zurueckgeben`);

    expect(
      await screen.findByText(
        'Möchtest du dein Besucherticket zurückgeben? Dein Platz geht an die nächste Person auf der Warteliste.',
      ),
    ).toBeTruthy();
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Ticket zurückgeben' }));
    expect(
      (await screen.findByRole('button', { name: 'Wird zurückgegeben...' })).hasAttribute('disabled'),
    ).toBe(true);
    expect(api.writes()).toEqual([
      { method: 'POST', path: `/api/visitor-tickets/${SECRET}/return`, body: {} },
    ]);

    reply.release();
    expect((await screen.findByRole('status')).textContent).toBe(VISITOR_TICKET_MESSAGES.ticketReturned);
    expect(screen.queryByRole('button', { name: 'Ticket zurückgeben' })).toBeNull();
    expect(loadVisitorTicket(SECRET)?.view.state).toBe('returned');
  });

  it("shows the server's message for a ticket already given back", async () => {
    mockApi({ [RETURN_POST]: failWith(409, VISITOR_TICKET_MESSAGES.alreadyReturned) });
    const { user } = await renderAt(`/besucherticket/${SECRET}/zurueckgeben`);

    await user.click(await screen.findByRole('button', { name: 'Ticket zurückgeben' }));

    expect((await screen.findByRole('alert')).textContent).toBe(VISITOR_TICKET_MESSAGES.alreadyReturned);
    expect(screen.queryByRole('button', { name: 'Ticket zurückgeben' })).toBeNull();
  });

  it("shows the server's message for an unknown ticket", async () => {
    mockApi({ [RETURN_POST]: failWith(404, VISITOR_TICKET_MESSAGES.ticketUnknown) });
    const { user } = await renderAt(`/besucherticket/${SECRET}/zurueckgeben`);

    await user.click(await screen.findByRole('button', { name: 'Ticket zurückgeben' }));

    expect((await screen.findByRole('alert')).textContent).toBe(VISITOR_TICKET_MESSAGES.ticketUnknown);
  });
});
