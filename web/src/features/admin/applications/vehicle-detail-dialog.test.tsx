import {
  EDITION_MESSAGES,
  REVIEW_MESSAGES,
  type StatusHistoryEntry,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import { QueryClientProvider, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster, toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import type {
  AdminEdition,
  AdminVehiclePage,
  Consent,
  CurrentUser,
  Owner,
  Vehicle,
} from '@schlosstreffen/shared/api';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { SIGNED_IN_USER } from '../../../test/screen-helpers';
import { makeInvitation, makeMedia, makeVehicle } from '../../vehicles/vehicle-fixtures';
import { adminVehiclesQueryOptions } from './admin-queries';
import { VehicleDetailDialog } from './vehicle-detail-dialog';

const REVIEWER: CurrentUser = {
  ...SIGNED_IN_USER,
  id: 'r1',
  email: 'pruefer@schlosstreffen.de',
  firstName: 'Andrea',
  lastName: 'Krüger',
  role: 'reviewer',
};

const OWNER: Owner = {
  id: 'u1',
  firstName: 'Jonas',
  lastName: 'Becker',
  email: 'jonas.becker@example.de',
  phone: '+49 40 66969 207',
  role: 'user',
};

const ID = 'a1b2c3d4-0000-4000-8000-000000000001';

interface Call {
  method: string;
  url: string;
  body: unknown;
}

let vehicles: Vehicle[];
let history: StatusHistoryEntry[];
let consents: Consent[] | null;
let calls: Call[];
let patchResponse: ((call: Call) => Promise<Response> | Response) | null;
/** The server's refusal of the review (own application, bias); null: the review as below. */
let reviewRefusal: Record<string, unknown> | null;
/** The editions the edition switch lists (with their phase); null: not answered. */
let editions: Array<Pick<AdminEdition, 'year' | 'name' | 'phase'>> | null;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function entry(overrides: Partial<StatusHistoryEntry> = {}): StatusHistoryEntry {
  return {
    id: `h${history.length + 1}`,
    vehicleId: ID,
    reviewerId: 'r1',
    actorName: 'Andrea Krüger',
    actorRole: 'reviewer',
    kind: 'status',
    oldStatus: 'submitted',
    newStatus: 'in_review',
    commentInternal: null,
    score: null,
    createdAt: '2026-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** The server's default: apply the change and log it, like PATCH /api/admin/vehicles/{id}/status. */
function applyStatus(call: Call): Response {
  const body = call.body as {
    status: VehicleStatus;
    oldStatus: VehicleStatus;
    comment: string | null;
    score: number | null;
  };
  const vehicle = vehicles.find((item) => item.id === ID)!;
  if (vehicle.status !== body.oldStatus) {
    return json({ message: 'Der Status wurde inzwischen von jemand anderem geändert.' }, 409);
  }
  vehicles = vehicles.map((item) => (item.id === ID ? { ...item, status: body.status } : item));
  history = [
    entry({
      id: `h${history.length + 1}`,
      oldStatus: body.oldStatus,
      newStatus: body.status,
      commentInternal: body.comment,
      score: body.score,
      createdAt: '2026-02-01T09:30:00.000Z',
    }),
    ...history,
  ];
  return json({ ...vehicle, status: body.status });
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  const call = { method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
  calls.push(call);
  if (method === 'GET' && url === '/api/admin/vehicles') {
    return json({ items: vehicles, counts: {}, nextCursor: null } as unknown as AdminVehiclePage);
  }
  if (method === 'GET' && url === `/api/vehicles/${ID}/reviews`) return json(history);
  // The reviewer has an open review: its form (with a note field of its own) stands above the status form.
  if (method === 'GET' && url === `/api/admin/vehicles/${ID}/review`) {
    if (reviewRefusal) return json(reviewRefusal, 403);
    return json({
      vehicleId: ID,
      status: 'submitted',
      categories: [{ id: 'c1', name: 'Umbauqualität', weight: 1 }],
      reviews: [
        {
          reviewerId: REVIEWER.id,
          reviewerName: 'Andrea Krüger',
          mine: true,
          assignedAt: '2026-03-01T10:00:00.000Z',
          submittedAt: null,
          scores: null,
          total: null,
          comment: null,
        },
      ],
      score: { mean: null, min: null, max: null, submitted: 0, assigned: 1 },
      hidden: true,
      mine: { submitted: false },
      candidates: [],
    });
  }
  if (method === 'GET' && url === `/api/vehicles/${ID}/consents`) {
    return consents ? json(consents) : json({ message: 'Die Datenbank ist nicht erreichbar.' }, 500);
  }
  if (method === 'GET' && url === '/api/admin/editions' && editions) return json({ editions });
  if (method === 'POST' && url === `/api/admin/vehicles/${ID}/correction`) {
    const body = call.body as { status?: VehicleStatus; checkedIn?: boolean; reason: string };
    const vehicle = vehicles.find((item) => item.id === ID)!;
    const corrected: Vehicle = {
      ...vehicle,
      status: body.status ?? vehicle.status,
      invitation:
        body.checkedIn === undefined || !vehicle.invitation
          ? vehicle.invitation
          : {
              ...vehicle.invitation,
              checkedIn: body.checkedIn,
              checkedInAt: body.checkedIn ? '2026-07-01T10:00:00Z' : null,
            },
    };
    vehicles = [corrected];
    history = [
      entry({
        kind: 'correction',
        actorRole: 'admin',
        actorName: 'Anna Admin',
        oldStatus: vehicle.status,
        newStatus: corrected.status,
        commentInternal:
          body.checkedIn === false ? `Check-in: Nicht erschienen\n${body.reason}` : body.reason,
      }),
      ...history,
    ];
    return json(corrected);
  }
  if (method === 'PATCH' && url === `/api/admin/vehicles/${ID}/status`) {
    return patchResponse ? patchResponse(call) : applyStatus(call);
  }
  return json({ message: `Unerwarteter Aufruf ${method} ${url}` }, 404);
});

const gets = (url: string) => calls.filter((call) => call.method === 'GET' && call.url === url).length;
const patches = () => calls.filter((call) => call.method === 'PATCH');

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Like the Fahrzeuge tab: the dialog shows the vehicle as the admin list has it now. */
function Harness() {
  const { data } = useInfiniteQuery(adminVehiclesQueryOptions({ status: 'all', q: '' }));
  const [open, setOpen] = useState(true);
  return (
    <VehicleDetailDialog
      vehicle={data?.pages.flatMap((page) => page.items).find((item) => item.id === ID)}
      open={open}
      onOpenChange={setOpen}
    />
  );
}

let queryClient: QueryClient;

async function renderDialog(vehicle: Partial<Vehicle> = {}, viewer: CurrentUser = REVIEWER) {
  vehicles = [makeVehicle({ id: ID, status: 'submitted', user: OWNER, ...vehicle })];
  queryClient = createQueryClient();
  queryClient.setQueryData(currentUserQueryOptions.queryKey, viewer);
  render(
    <QueryClientProvider client={queryClient}>
      <Harness />
      <AppToaster />
    </QueryClientProvider>,
  );
  return screen.findByRole('dialog');
}

async function openTab(user: UserEvent, name: RegExp | string) {
  await user.click(screen.getByRole('tab', { name }));
  // Every block of the tab has loaded: no re-render closes a select the test has just opened.
  if (name === 'Admin') {
    await screen.findByRole('button', { name: 'Bewertung abgeben' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  }
  // The tab switch may keep the previous panel mounted for a moment.
  return waitFor(() => screen.getByRole('tabpanel'));
}

async function chooseStatus(user: UserEvent, label: string) {
  // Opened from the keyboard: a pointer press in jsdom can race the dialog's outside-press watch,
  // which then closes the list before its options show.
  screen.getByRole('combobox', { name: /Status/ }).focus();
  await user.keyboard('{ArrowDown}');
  // The list positions itself before its options show: on a loaded machine that takes over a second.
  await user.click(await screen.findByRole('option', { name: label }, { timeout: 5000 }));
}

async function findToast(title: string): Promise<HTMLElement> {
  const titleEl = await screen.findByText(title, { selector: '[data-testid="toast"] *' });
  return titleEl.closest<HTMLElement>('[data-testid="toast"]')!;
}

const updateButton = () => screen.getByRole('button', { name: /Status aktualisieren|Aktualisiere\.\.\./ });

beforeEach(() => {
  history = [];
  consents = [];
  calls = [];
  patchResponse = null;
  reviewRefusal = null;
  editions = null;
  vi.stubGlobal('fetch', fetchMock);
  // jsdom scrolls nothing: the select scrolls its list to the chosen option.
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  // jsdom has none; the tabs' indicator measures its tab with it.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  cleanup();
  act(() => toaster.remove());
  fetchMock.mockClear();
  vi.unstubAllGlobals();
});

describe('vehicle detail dialog: header and tabs', () => {
  it('shows brand, model and status badge, and the tabs Details, Media (with count) and Admin', async () => {
    const dialog = await renderDialog({
      media: [makeMedia({ id: 'm1' }), makeMedia({ id: 'm2' }), makeMedia({ id: 'm3' })],
    });
    expect(within(dialog).getByRole('heading', { name: 'BMW M3' })).toBeTruthy();
    expect(within(dialog).getAllByText('Eingereicht').length).toBeGreaterThan(0);
    const tabs = within(dialog)
      .getAllByRole('tab')
      .map((tab) => tab.textContent?.replace(/\s+/g, ' ').trim());
    expect(tabs).toEqual(['Details', 'Media 3', 'Admin']);
    expect(screen.getByRole('tab', { name: 'Details' }).getAttribute('aria-selected')).toBe('true');
  });

  it('lists the details with units and German labels, the invitation when invited', async () => {
    await renderDialog({
      status: 'invited',
      tuningCategories: ['Motor', 'Fahrwerk'],
      descriptionShort: 'Kurz und knapp.',
      descriptionLong: 'Die lange Geschichte.',
      specialMods: 'S14 mit Einzeldrosseln',
      driveType: 'awd',
      fuelType: 'Electric',
      invitation: makeInvitation({ startNumber: 42, parkingZone: 'B' }),
    });
    const panel = screen.getByRole('tabpanel');
    const value = (label: string) => within(panel).getByText(label).nextElementSibling?.textContent;
    expect(value('Marke')).toBe('BMW');
    expect(value('Modell')).toBe('M3');
    expect(value('Baujahr')).toBe('1988');
    expect(value('Farbe')).toBe('Henna-Rot');
    expect(value('Leistung')).toBe('238 PS');
    expect(value('Gewicht')).toBe('1.200 kg');
    expect(value('0-100 km/h')).toBe('6,7 s');
    expect(value('Höchstgeschwindigkeit')).toBe('241 km/h');
    expect(value('Drehmoment')).toBe('240 Nm');
    expect(value('Antrieb')).toBe('Allradantrieb');
    expect(value('Kraftstoff')).toBe('Elektro');
    expect(value('Startnummer')).toBe('42');
    expect(value('Parkzone')).toBe('B');
    const categories = within(panel).getByRole('list', { name: 'Tuning-Kategorien' });
    expect(
      within(categories)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Motor', 'Fahrwerk']);
    expect(within(panel).getByText('Kurz und knapp.')).toBeTruthy();
    expect(within(panel).getByText('Die lange Geschichte.')).toBeTruthy();
    expect(within(panel).getByText('S14 mit Einzeldrosseln')).toBeTruthy();
  });

  it('leaves out optional values that are missing and the invitation before one exists', async () => {
    await renderDialog({ torqueNm: null, driveType: null, fuelType: null, color: null });
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).queryByText('Drehmoment')).toBeNull();
    expect(within(panel).queryByText('Antrieb')).toBeNull();
    expect(within(panel).queryByText('Kraftstoff')).toBeNull();
    expect(within(panel).queryByText('Startnummer')).toBeNull();
    expect(within(panel).getByText('Farbe').nextElementSibling?.textContent).toBe('Nicht angegeben');
  });

  it("shows the hero image and every image with a 'Hero' marker on the hero", async () => {
    const user = userEvent.setup();
    await renderDialog({
      media: [
        makeMedia({ id: 'm1', url: '/objects/uploads/eins.jpg', thumbnailUrl: null }),
        makeMedia({ id: 'm2', url: '/objects/uploads/zwei.jpg', thumbnailUrl: null, isHero: true }),
      ],
    });
    const panel = await openTab(user, /Media/);
    const images = within(panel).getAllByRole('img', { hidden: true });
    expect(images[0]?.getAttribute('src')).toBe('/objects/uploads/zwei.jpg');
    const grid = within(panel).getByRole('list', { name: 'Alle Bilder' });
    const items = within(grid).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).queryByText('Hero')).toBeNull();
    expect(within(items[1]!).getByText('Hero')).toBeTruthy();
  });

  it("says 'No media uploaded' without images", async () => {
    const user = userEvent.setup();
    await renderDialog({ media: [] });
    expect(screen.getByRole('tab', { name: 'Media 0' })).toBeTruthy();
    const panel = await openTab(user, /Media/);
    expect(within(panel).getByText('No media uploaded')).toBeTruthy();
  });

  it('closes with Escape', async () => {
    const user = userEvent.setup();
    await renderDialog();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('vehicle detail dialog: Admin tab', () => {
  it('offers the seven statuses; the button is disabled while the chosen status is the current one', async () => {
    const user = userEvent.setup();
    await renderDialog();
    await openTab(user, 'Admin');
    expect(updateButton().textContent).toBe('Status aktualisieren');
    expect(updateButton().hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('combobox', { name: /Status/ }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual([
      'Entwurf',
      'Eingereicht',
      'In Prüfung',
      'Warteliste',
      'Eingeladen',
      'Bestätigt',
      'Abgelehnt',
    ]);
    await user.click(screen.getByRole('option', { name: 'Warteliste' }));
    expect(updateButton().hasAttribute('disabled')).toBe(false);

    await chooseStatus(user, 'Eingereicht');
    expect(updateButton().hasAttribute('disabled')).toBe(true);
    expect(screen.getByLabelText('Interne Notiz (optional)')).toBeTruthy();
    expect(screen.getByLabelText('Bewertung (optional)')).toBeTruthy();
  });

  it("sends status, oldStatus, comment and score; shows 'Aktualisiere...'; then toasts, refetches and clears the note", async () => {
    const user = userEvent.setup();
    const answer = deferred<Response>();
    patchResponse = (call) => answer.promise.then(() => applyStatus(call));
    await renderDialog();
    await openTab(user, 'Admin');
    await screen.findByText('Kein Änderungsverlauf');
    const listReads = gets('/api/admin/vehicles');
    const historyReads = gets(`/api/vehicles/${ID}/reviews`);

    await chooseStatus(user, 'In Prüfung');
    await user.type(screen.getByLabelText('Interne Notiz (optional)'), '  Gutachten liegt bei.  ');
    await user.type(screen.getByLabelText('Bewertung (optional)'), '8');
    await user.click(updateButton());

    await waitFor(() => expect(updateButton().textContent).toBe('Aktualisiere...'));
    expect(updateButton().hasAttribute('disabled')).toBe(true);
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).toEqual({
      status: 'in_review',
      oldStatus: 'submitted',
      comment: 'Gutachten liegt bei.',
      score: 8,
    });

    answer.resolve(new Response());
    const toast = await findToast('Status aktualisiert');
    expect(within(toast).getByText('Der Fahrzeugstatus wurde erfolgreich aktualisiert')).toBeTruthy();
    expect(gets('/api/admin/vehicles')).toBe(listReads + 1);
    expect(gets(`/api/vehicles/${ID}/reviews`)).toBe(historyReads + 1);
    await waitFor(() => expect(updateButton().textContent).toBe('Status aktualisieren'));
    expect((screen.getByLabelText('Interne Notiz (optional)') as HTMLTextAreaElement).value).toBe('');
    expect((screen.getByLabelText('Bewertung (optional)') as HTMLInputElement).value).toBe('');
    // The new status is the current one now.
    expect(updateButton().hasAttribute('disabled')).toBe(true);
    expect(within(screen.getByRole('dialog')).getAllByText('In Prüfung').length).toBeGreaterThan(0);
    const log = await screen.findByRole('list', { name: 'Änderungsverlauf' });
    expect(within(log).getByText('Gutachten liegt bei.')).toBeTruthy();
  });

  it('sends an empty note and no score as null', async () => {
    const user = userEvent.setup();
    await renderDialog();
    await openTab(user, 'Admin');
    await chooseStatus(user, 'Abgelehnt');
    await user.click(updateButton());
    await findToast('Status aktualisiert');
    expect(patches()[0]!.body).toEqual({
      status: 'rejected',
      oldStatus: 'submitted',
      comment: null,
      score: null,
    });
  });

  it('refuses a score outside 0 to 10 with the shared message, without a call', async () => {
    const user = userEvent.setup();
    await renderDialog();
    await openTab(user, 'Admin');
    await chooseStatus(user, 'Warteliste');
    await user.type(screen.getByLabelText('Bewertung (optional)'), '11');
    await user.click(updateButton());
    expect(await screen.findByText('Bewertung muss eine ganze Zahl zwischen 0 und 10 sein')).toBeTruthy();
    expect(screen.getByLabelText('Bewertung (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(patches()).toHaveLength(0);
  });

  it("on a 409 shows the server's message and reloads the vehicle with its new status", async () => {
    const user = userEvent.setup();
    await renderDialog();
    await openTab(user, 'Admin');
    await chooseStatus(user, 'Eingeladen');
    // Someone else has put it on the waitlist meanwhile.
    vehicles = vehicles.map((item) => ({ ...item, status: 'waitlist' }));
    await user.click(updateButton());

    const toast = await findToast('Fehler');
    expect(within(toast).getByText('Der Status wurde inzwischen von jemand anderem geändert.')).toBeTruthy();
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText(/Aktuell:/).textContent).toBe('Aktuell: Warteliste'));
    expect(within(within(dialog).getByRole('banner')).getByText('Warteliste')).toBeTruthy();
    // The choice stays, and now differs from the current status: the retry is one click away.
    expect(updateButton().hasAttribute('disabled')).toBe(false);
    act(() => toaster.remove());
    await user.click(updateButton());
    await findToast('Status aktualisiert');
    expect(patches()[1]!.body).toMatchObject({ status: 'invited', oldStatus: 'waitlist' });
  });

  it("falls back to 'Fehler beim Aktualisieren des Status' when the server gives no message", async () => {
    const user = userEvent.setup();
    patchResponse = () => Promise.reject(new TypeError('Failed to fetch'));
    await renderDialog();
    await openTab(user, 'Admin');
    await chooseStatus(user, 'Warteliste');
    await user.type(screen.getByLabelText('Interne Notiz (optional)'), 'Bleibt stehen');
    await user.click(updateButton());
    const toast = await findToast('Fehler');
    expect(within(toast).getByText('Fehler beim Aktualisieren des Status')).toBeTruthy();
    // Nothing was saved: the note is kept for another try.
    expect((screen.getByLabelText('Interne Notiz (optional)') as HTMLTextAreaElement).value).toBe(
      'Bleibt stehen',
    );
  });

  it('lists the history: old → new status, de-DE date and time, note, score and who', async () => {
    const user = userEvent.setup();
    history = [
      entry({
        id: 'h2',
        oldStatus: 'in_review',
        newStatus: 'invited',
        commentInternal: 'Sehr sauberes Exemplar.',
        score: 9,
        createdAt: '2026-03-05T17:45:00.000Z',
      }),
      entry({
        id: 'h1',
        oldStatus: null,
        newStatus: 'submitted',
        actorName: 'Jonas Becker',
        actorRole: 'user',
        createdAt: '2026-01-10T10:00:00.000Z',
      }),
    ];
    await renderDialog();
    await openTab(user, 'Admin');
    const log = await screen.findByRole('list', { name: 'Änderungsverlauf' });
    const [newest, first] = within(log).getAllByRole('listitem');
    expect(newest!.textContent).toContain('In Prüfung→Eingeladen');
    expect(newest!.textContent).toContain('05.03.2026, 18:45 Uhr');
    expect(newest!.textContent).toContain('Sehr sauberes Exemplar.');
    expect(newest!.textContent).toContain('Bewertung 9/10');
    expect(newest!.textContent).toContain('von Andrea Krüger (Prüfer)');
    expect(first!.textContent).toContain('Eingereicht');
    expect(first!.textContent).toContain('10.01.2026, 11:00 Uhr');
    expect(first!.textContent).toContain('von Jonas Becker (Bewerber)');
    expect(first!.textContent).not.toContain('Bewertung');
  });

  it("says 'Kein Änderungsverlauf' without entries", async () => {
    const user = userEvent.setup();
    await renderDialog();
    await openTab(user, 'Admin');
    expect(await screen.findByText('Kein Änderungsverlauf')).toBeTruthy();
  });

  it('shows the applicant with mailto and tel links', async () => {
    const user = userEvent.setup();
    await renderDialog();
    const panel = await openTab(user, 'Admin');
    const contact = within(panel).getByRole('heading', { name: 'Kontaktdaten Bewerber' }).parentElement!;
    expect(within(contact).getByText('Jonas Becker')).toBeTruthy();
    expect(within(contact).getByRole('link', { name: 'jonas.becker@example.de' }).getAttribute('href')).toBe(
      'mailto:jonas.becker@example.de',
    );
    expect(within(contact).getByRole('link', { name: '+49 40 66969 207' }).getAttribute('href')).toBe(
      'tel:+494066969207',
    );
  });

  it("falls back to 'Nicht angegeben' for a missing name and phone", async () => {
    const user = userEvent.setup();
    await renderDialog({ user: { ...OWNER, firstName: null, lastName: ' ', phone: null } });
    const panel = await openTab(user, 'Admin');
    const contact = within(panel).getByRole('heading', { name: 'Kontaktdaten Bewerber' }).parentElement!;
    expect(within(contact).getAllByText('Nicht angegeben')).toHaveLength(2);
    expect(within(contact).getByRole('link', { name: 'jonas.becker@example.de' })).toBeTruthy();
    expect(within(contact).queryByRole('link', { name: /^\+/ })).toBeNull();
  });

  it("says 'Benutzerdaten nicht verfügbar' without a user", async () => {
    const user = userEvent.setup();
    await renderDialog({ user: null });
    const panel = await openTab(user, 'Admin');
    expect(within(panel).getByText('Benutzerdaten nicht verfügbar')).toBeTruthy();
  });

  it('shows a withdrawn consent in the history as the consent event, not as a status change', async () => {
    const user = userEvent.setup();
    history = [
      entry({
        id: 'h2',
        kind: 'consent_withdrawn',
        oldStatus: 'confirmed',
        newStatus: 'confirmed',
        actorName: 'Jonas Becker',
        actorRole: 'user',
        commentInternal: 'Einwilligung „Mediennutzung“ widerrufen',
        createdAt: '2026-04-02T09:00:00.000Z',
      }),
      entry({ id: 'h1', oldStatus: 'invited', newStatus: 'confirmed' }),
    ];
    await renderDialog({ status: 'confirmed' });
    await openTab(user, 'Admin');
    const log = await screen.findByRole('list', { name: 'Änderungsverlauf' });
    const [withdrawn, change] = within(log).getAllByRole('listitem');
    expect(withdrawn!.textContent).toContain('Einwilligung widerrufen');
    expect(withdrawn!.textContent).toContain('Einwilligung „Mediennutzung“ widerrufen');
    expect(withdrawn!.textContent).toContain('02.04.2026, 11:00 Uhr');
    expect(withdrawn!.textContent).toContain('von Jonas Becker (Bewerber)');
    expect(withdrawn!.textContent).not.toContain('→');
    expect(withdrawn!.textContent).not.toContain('Bestätigt');
    expect(change!.textContent).toContain('Eingeladen→Bestätigt');
  });
});

describe('vehicle detail dialog: consents in the Admin tab', () => {
  it("lists the vehicle's consents with version, source, dates and withdrawals", async () => {
    const user = userEvent.setup();
    consents = [
      {
        id: 'c1',
        kind: 'media',
        vehicleId: ID,
        vehicleTitle: 'BMW M3',
        version: '2026-01',
        wording: 'Ich willige ein, dass die Bilder meines Fahrzeugs veröffentlicht werden dürfen.',
        source: 'application',
        grantedAt: '2026-01-10T10:00:00.000Z',
        withdrawnAt: '2026-04-02T09:00:00.000Z',
      },
      {
        id: 'c2',
        kind: 'contact',
        vehicleId: ID,
        vehicleTitle: 'BMW M3',
        version: '2025-12',
        wording: 'Kontakt erlaubt.',
        source: 'migration',
        grantedAt: '2025-12-01T08:00:00.000Z',
        withdrawnAt: null,
      },
    ];
    await renderDialog();
    const panel = await openTab(user, 'Admin');
    const block = within(panel).getByRole('heading', { name: 'Einwilligungen' }).parentElement!;
    const [media, contact] = within(
      await within(block).findByRole('list', { name: 'Einwilligungen' }),
    ).getAllByRole('listitem');
    expect(media!.textContent).toContain('Mediennutzung');
    expect(media!.textContent).toContain('Version 2026-01');
    expect(media!.textContent).toContain('Bewerbungsformular');
    expect(media!.textContent).toContain('erteilt am 10.01.2026, 11:00 Uhr');
    expect(media!.textContent).toContain('widerrufen am 02.04.2026, 11:00 Uhr');
    expect(contact!.textContent).toContain('Kontaktaufnahme');
    expect(contact!.textContent).toContain('Version 2025-12');
    expect(contact!.textContent).toContain('Bewerbung vor Einführung der Protokollierung');
    expect(contact!.textContent).not.toContain('widerrufen am');
    expect(gets(`/api/vehicles/${ID}/consents`)).toBe(1);
  });

  it("says 'Keine Einwilligungen erfasst' without any", async () => {
    const user = userEvent.setup();
    await renderDialog();
    const panel = await openTab(user, 'Admin');
    expect(await within(panel).findByText('Keine Einwilligungen erfasst')).toBeTruthy();
  });

  it('shows a load error and reads again on retry', async () => {
    const user = userEvent.setup();
    consents = null;
    await renderDialog();
    const panel = await openTab(user, 'Admin');
    const block = within(panel).getByRole('heading', { name: 'Einwilligungen' }).parentElement!;
    const alert = await within(block).findByRole('alert');
    expect(alert.textContent).toContain('Die Einwilligungen konnten nicht geladen werden.');
    expect(alert.textContent).toContain('Die Datenbank ist nicht erreichbar.');

    consents = [];
    await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await within(block).findByText('Keine Einwilligungen erfasst')).toBeTruthy();
  });
});

describe('vehicle detail dialog: an application one may not judge', () => {
  it("on one's own application says why, shows the contact data and consents, and asks for nothing internal", async () => {
    const user = userEvent.setup();
    const message = `${REVIEW_MESSAGES.conflictOwn} ${REVIEW_MESSAGES.conflictNoOtherAdmin}`;
    reviewRefusal = { message, conflict: 'own', otherAdmin: false };
    await renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Admin' }));
    const panel = await waitFor(() => screen.getByRole('tabpanel'));
    const note = await within(panel).findByRole('note');
    expect(note.textContent).toBe(message);
    expect(within(panel).getByRole('heading', { name: 'Eigene Bewerbung' })).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'Kontaktdaten Bewerber' })).toBeTruthy();
    expect(await within(panel).findByText('Keine Einwilligungen erfasst')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: /Status aktualisieren/ })).toBeNull();
    expect(within(panel).queryByRole('heading', { name: 'Änderungsverlauf' })).toBeNull();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    // Nothing internal is asked for: history, mails and the owner's other applications stay unread.
    expect(
      calls.filter((call) => /\/reviews$|\/emails$|\/earlier$/.test(call.url)).map((call) => call.url),
    ).toEqual([]);
  });
});

describe('vehicle detail dialog: an edition that is over', () => {
  const PAST = { year: 2026, name: 'Schlosstreffen 2026' };
  const ADMIN: CurrentUser = { ...REVIEWER, id: 'a1', firstName: 'Anna', lastName: 'Admin', role: 'admin' };

  async function openPastAdminTab(user: UserEvent) {
    await user.click(screen.getByRole('tab', { name: 'Admin' }));
    const panel = await waitFor(() => screen.getByRole('tabpanel'));
    await within(panel).findByRole('heading', { name: /Korrigieren|Abgeschlossen/ });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    return panel;
  }

  it('shows a reviewer that the record is closed: no status form, no review form', async () => {
    const user = userEvent.setup();
    editions = [{ ...PAST, phase: 'over' }];
    await renderDialog({ edition: PAST });
    const panel = await openPastAdminTab(user);
    expect(within(panel).getByRole('note').textContent).toBe(EDITION_MESSAGES.frozenForStaff(PAST.name));
    expect(within(panel).queryByRole('button', { name: /Status aktualisieren/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Bewertung abgeben' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Korrigieren' })).toBeNull();
  });

  it("offers an admin 'Korrigieren' with a required reason: a confirmed car that did not come", async () => {
    const user = userEvent.setup();
    editions = [{ ...PAST, phase: 'archived' }];
    await renderDialog(
      {
        edition: PAST,
        status: 'confirmed',
        invitation: makeInvitation({ checkedIn: true, checkedInAt: '2026-06-20T09:00:00Z' }),
      },
      ADMIN,
    );
    const panel = await openPastAdminTab(user);
    expect(within(panel).queryByRole('button', { name: /Status aktualisieren/ })).toBeNull();
    const submit = within(panel).getByRole('button', { name: 'Korrigieren' });
    // Nothing chosen differs from the record yet.
    expect(submit.hasAttribute('disabled')).toBe(true);

    screen.getByRole('combobox', { name: /Check-in/ }).focus();
    await user.keyboard('{ArrowDown}');
    await user.click(await screen.findByRole('option', { name: 'Nicht erschienen' }, { timeout: 5000 }));
    await user.type(within(panel).getByRole('textbox', { name: /Grund/ }), 'Zu kurz');
    await user.click(submit);
    expect(await within(panel).findByText(/mindestens 10 Zeichen/)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await user.type(within(panel).getByRole('textbox', { name: /Grund/ }), ', versehentlich gescannt.');
    await user.click(submit);
    await findToast('Korrektur gespeichert');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { checkedIn: false, reason: 'Zu kurz, versehentlich gescannt.' },
    ]);
    const log = within(panel).getByRole('list', { name: 'Änderungsverlauf' });
    expect(await within(log).findByText('Korrektur')).toBeTruthy();
    expect(within(log).getByText(/Check-in: Nicht erschienen/)).toBeTruthy();
  });
});
