import type { Role } from '@schlosstreffen/shared';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import type {
  AdminVehiclePage,
  CurrentUser,
  Owner,
  Vehicle,
  WaitlistOverview,
} from '@schlosstreffen/shared/api';
import { VEHICLE_STATUSES } from '@schlosstreffen/shared';
import { createAppRouter } from '../../../router';
import { SIGNED_IN_USER } from '../../../test/screen-helpers';
import { makeMedia, makeVehicle } from '../../vehicles/vehicle-fixtures';

const currentUser = (role: Role): CurrentUser => ({
  ...SIGNED_IN_USER,
  id: 'me',
  email: 'pruefer@schlosstreffen.de',
  firstName: 'Andrea',
  lastName: 'Krüger',
  role,
});

const owner = (firstName: string, lastName: string, email: string): Owner => ({
  id: email,
  firstName,
  lastName,
  email,
  phone: null,
  role: 'user',
});

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

/** Two BMWs, a Supra, an RX-7 and a draft; seven images in all. */
const FLEET: Vehicle[] = [
  makeVehicle({
    id: id(1),
    brand: 'BMW',
    model: 'M3 (E30)',
    name: 'Henna',
    status: 'submitted',
    user: owner('Jonas', 'Becker', 'jonas@example.de'),
    media: [makeMedia({ id: 'a' }), makeMedia({ id: 'b' })],
  }),
  makeVehicle({
    id: id(2),
    brand: 'Toyota',
    model: 'Supra (A80)',
    status: 'in_review',
    user: owner('Marie', 'Fischer', 'marie@example.de'),
    media: [makeMedia({ id: 'c' }), makeMedia({ id: 'd' }), makeMedia({ id: 'e' })],
  }),
  makeVehicle({
    id: id(3),
    brand: 'Mazda',
    model: 'RX-7 (FD)',
    status: 'in_review',
    user: null,
    media: [],
  }),
  makeVehicle({
    id: id(4),
    brand: 'bmw',
    model: '2002 turbo',
    status: 'confirmed',
    user: owner('', '', 'felix@example.de'),
    media: [makeMedia({ id: 'f' })],
  }),
  makeVehicle({
    id: id(5),
    brand: 'Audi',
    model: 'Sport quattro',
    status: 'draft',
    user: owner('Max', 'Schulz', 'max@example.de'),
    media: [makeMedia({ id: 'g' })],
  }),
];

let role: Role | null;
let vehicles: Vehicle[];
let calls: string[];
let listResponse: (() => Promise<Response> | Response) | null;

/**
 * What the server answers for GET /api/admin/vehicles?…: status filter, search on brand, model and
 * owner names (case-insensitive substring), the counts per status for the search; one page here.
 * FLEET is newest first; `oldest` reverses it, `brand` orders by brand A–Z.
 */
function adminPage(url: string, list: readonly Vehicle[]): AdminVehiclePage {
  const params = new URL(url, 'http://localhost').searchParams;
  const status = params.get('status') ?? 'all';
  const q = (params.get('q') ?? '').trim().toLowerCase();
  const searched = list.filter(
    (vehicle) =>
      !q ||
      [vehicle.brand, vehicle.model, vehicle.user?.firstName ?? '', vehicle.user?.lastName ?? ''].some(
        (text) => text.toLowerCase().includes(q),
      ),
  );
  const counts = Object.fromEntries(
    ['all', ...VEHICLE_STATUSES].map((key) => [
      key,
      searched.filter((vehicle) => key === 'all' || vehicle.status === key).length,
    ]),
  ) as AdminVehiclePage['counts'];
  const sort = params.get('sort') ?? 'newest';
  const sorted =
    sort === 'oldest'
      ? searched.toReversed()
      : sort === 'brand'
        ? searched.toSorted((a, b) => a.brand.localeCompare(b.brand, 'de', { sensitivity: 'base' }))
        : searched;
  return {
    items: sorted.filter((vehicle) => status === 'all' || vehicle.status === status),
    counts,
    nextCursor: null,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Automatic moving up switched off, one place free: the RX-7 is the suggested 'Nachrücker'. */
const waitlist: WaitlistOverview = {
  autoMoveUp: false,
  rule: 'Nachrücken nach höchster Bewertung (Mittel der abgegebenen Bewertungen nach Gewichtung der Kategorien, ohne solche die zuletzt vergebene Punktzahl), bei Gleichstand nach früherer Einreichung.',
  cutoff: '2026-06-06T08:00:00.000Z',
  pastCutoff: false,
  free: 1,
  pending: 1,
  zones: [{ name: 'A', capacity: 30, taken: 29 }],
  candidates: [
    {
      rank: 1,
      score: 8,
      scoreHidden: false,
      conflict: null,
      submittedAt: '2026-03-01T10:00:00.000Z',
      vehicle: { id: id(4), title: 'Mazda RX-7', brand: 'Mazda', model: 'RX-7', ownerName: 'Lena Wolf' },
    },
    // The signed-in staff member's own car: its score hidden from them, not theirs to invite.
    {
      rank: 2,
      score: null,
      scoreHidden: true,
      conflict: 'own',
      submittedAt: '2026-03-02T10:00:00.000Z',
      vehicle: { id: id(5), title: 'Lancia Delta', brand: 'Lancia', model: 'Delta', ownerName: 'Henna Prüf' },
    },
  ],
};

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  calls.push(`${method} ${url}`);
  if (url === '/api/auth/user')
    return role ? json(currentUser(role)) : json({ message: 'Nicht angemeldet' }, 401);
  if (isListCall(url)) return listResponse ? listResponse() : json(adminPage(url, vehicles));
  if (url === '/api/admin/media') return json({ items: [], total: 0, nextCursor: null });
  // The Medien tab's count: the library's total from its smallest page.
  if (url === '/api/admin/media?limit=1') {
    const total = vehicles.reduce((sum, vehicle) => sum + vehicle.media.length, 0);
    return json({ items: [], total, nextCursor: null });
  }
  if (url === '/api/admin/waitlist') return json(waitlist);
  if (url === '/api/admin/waitlist/invite' && method === 'POST') {
    return json({ vehicleId: id(4), startNumber: 71, parkingZone: 'A' }, 201);
  }
  if (/^\/api\/vehicles\/[^/]+\/reviews$/.test(url)) return json([]);
  return json({ message: `Unerwarteter Aufruf ${method} ${url}` }, 404);
});

function isListCall(url: string) {
  return url === '/api/admin/vehicles' || url.startsWith('/api/admin/vehicles?');
}
const listCalls = () => calls.filter((call) => isListCall(call.replace(/^GET /, ''))).length;

async function renderAt(path = '/admin/dashboard') {
  const router = createAppRouter({
    queryClient: createQueryClient(),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  render(<RouterProvider router={router} />);
  return router;
}

/** The cards in the list, by title. */
function cardTitles(): string[] {
  const list = screen.queryByRole('list', { name: /^Fahrzeuge:/ });
  if (!list) return [];
  return within(list)
    .getAllByRole('article')
    .map((article) => article.getAttribute('aria-label') ?? '');
}

const sortSelect = () => screen.getByRole('combobox', { name: 'Sortieren nach' });

async function chooseSort(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(sortSelect());
  await user.click(await screen.findByRole('option', { name: label }));
}

const listCallUrls = () => calls.filter((call) => isListCall(call.replace(/^GET /, '')));

const filterTab = (name: RegExp) =>
  within(screen.getByRole('tablist', { name: 'Nach Status filtern' })).getByRole('tab', { name });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

beforeEach(() => {
  role = 'reviewer';
  vehicles = FLEET;
  calls = [];
  listResponse = null;
  vi.stubGlobal('fetch', fetchMock);
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
  // jsdom does not implement scrolling; the router's scroll restoration calls it after each navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  act(() => toaster.remove());
  fetchMock.mockClear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/admin/dashboard: Fahrzeuge', () => {
  it('shows the heading, the main tabs and the cards with owner line and edit button', async () => {
    await renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeTruthy();
    expect(document.title).toBe('Admin Dashboard – Schlosstreffen');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBeTruthy();
    const main = screen.getByRole('tablist', { name: 'Admin Dashboard' });
    expect(
      within(main)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Fahrzeuge', 'Medien7']);

    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    const henna = screen.getByRole('article', { name: 'Henna' });
    expect(within(henna).getByText('Jonas Becker')).toBeTruthy();
    expect(within(henna).getByText('Besitzer:')).toBeTruthy();
    const edit = within(henna).getByRole('link', { name: 'Henna bearbeiten' });
    expect(edit.getAttribute('href')).toBe(`/edit/${id(1)}`);
    // Owner fallbacks: email without a name, 'Unbekannt' without a user.
    expect(
      within(screen.getByRole('article', { name: 'bmw 2002 turbo' })).getByText('felix@example.de'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: 'Mazda RX-7 (FD)' })).getByText('Unbekannt'),
    ).toBeTruthy();
  });

  it('staggers the cards by 0.05 s', async () => {
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    const list = screen.getByRole('list', { name: /^Fahrzeuge:/ });
    const delays = [...list.children].map((item) => (item as HTMLElement).style.transitionDelay);
    expect(delays).toEqual(['0.00s', '0.05s', '0.10s', '0.15s', '0.20s']);
  });

  it('counts per status filter; drafts only under Alle', async () => {
    const user = userEvent.setup();
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    const tabs = within(screen.getByRole('tablist', { name: 'Nach Status filtern' }))
      .getAllByRole('tab')
      .map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'Alle5',
      'Eingereicht1',
      'In Prüfung2',
      'Warteliste0',
      'Eingeladen0',
      'Bestätigt1',
      'Abgelehnt0',
    ]);
    expect(filterTab(/^Alle/).getAttribute('aria-selected')).toBe('true');

    await user.click(filterTab(/^In Prüfung/));
    await waitFor(() => expect(cardTitles()).toEqual(['Toyota Supra (A80)', 'Mazda RX-7 (FD)']));
    expect(calls).toContain('GET /api/admin/vehicles?status=in_review');
    await user.click(filterTab(/^Bestätigt/));
    await waitFor(() => expect(cardTitles()).toEqual(['bmw 2002 turbo']));
    await user.click(filterTab(/^Alle/));
    await waitFor(() => expect(cardTitles()).toContain('Audi Sport quattro'));
  });

  it("shows 'Keine Fahrzeuge in dieser Kategorie' for an empty filter", async () => {
    const user = userEvent.setup();
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    await user.click(filterTab(/^Warteliste/));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Keine Fahrzeuge gefunden' })).toBeTruthy(),
    );
    expect(screen.getByText('Keine Fahrzeuge in dieser Kategorie')).toBeTruthy();
    expect(screen.queryByText('Versuchen Sie einen anderen Suchbegriff')).toBeNull();
  });

  it('searches brand, model or owner case-insensitively on the server, within the chosen filter, with counts for the search', async () => {
    const user = userEvent.setup();
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    const search = screen.getByLabelText('Fahrzeuge durchsuchen');
    expect(search.getAttribute('placeholder')).toBe('Suche nach Marke oder Modell...');

    await user.type(search, 'BmW');
    await waitFor(() => expect(cardTitles()).toEqual(['Henna', 'bmw 2002 turbo']));
    // Debounced: one request for the settled text, not one per keystroke.
    expect(calls.filter((call) => call.includes('q='))).toEqual(['GET /api/admin/vehicles?q=BmW']);
    expect(filterTab(/^Alle/).textContent).toBe('Alle2');
    expect(filterTab(/^Bestätigt/).textContent).toBe('Bestätigt1');
    await user.clear(search);
    await user.type(search, 'fischer');
    await waitFor(() => expect(cardTitles()).toEqual(['Toyota Supra (A80)']));
    await user.clear(search);
    await user.type(search, 'supra');
    await waitFor(() => expect(cardTitles()).toEqual(['Toyota Supra (A80)']));
    await user.clear(search);
    await user.type(search, 'rx-7');
    await waitFor(() => expect(cardTitles()).toEqual(['Mazda RX-7 (FD)']));
    // The card's name is not searched, only brand, model and the owner's names.
    await user.clear(search);
    await user.type(search, 'henna');
    await waitFor(() => expect(cardTitles()).toEqual([]));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Keine Fahrzeuge gefunden' })).toBeTruthy(),
    );
    expect(screen.getByText('Versuchen Sie einen anderen Suchbegriff')).toBeTruthy();
    expect(screen.queryByText('Keine Fahrzeuge in dieser Kategorie')).toBeNull();

    await user.clear(search);
    await user.type(search, 'bmw');
    await user.click(filterTab(/^Bestätigt/));
    await waitFor(() => expect(cardTitles()).toEqual(['bmw 2002 turbo']));
  });

  it('exports as CSV what the filter and the search show; the export takes no sort', async () => {
    await renderAt('/admin/dashboard?status=in_review&q=supra&sort=brand');
    const link = await screen.findByRole('link', { name: 'CSV exportieren' });
    expect(link.getAttribute('href')).toBe('/api/admin/vehicles.csv?status=in_review&q=supra');
    expect(link.hasAttribute('download')).toBe(true);
  });

  it("sorts newest first by default, sending no sort; 'Marke A–Z' asks the server with sort=brand", async () => {
    const user = userEvent.setup();
    const router = await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(sortSelect().textContent).toContain('Neueste zuerst');
    expect(listCallUrls()).toEqual(['GET /api/admin/vehicles']);

    await user.click(sortSelect());
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Neueste zuerst', 'Älteste zuerst', 'Marke A–Z']);
    await user.click(screen.getByRole('option', { name: 'Marke A–Z' }));
    await waitFor(() =>
      expect(cardTitles()).toEqual([
        'Audi Sport quattro',
        'Henna',
        'bmw 2002 turbo',
        'Mazda RX-7 (FD)',
        'Toyota Supra (A80)',
      ]),
    );
    expect(listCallUrls()).toEqual(['GET /api/admin/vehicles', 'GET /api/admin/vehicles?sort=brand']);
    expect(sortSelect().textContent).toContain('Marke A–Z');
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'brand' }));

    // Within the chosen filter; back to the default drops the param from the request and the URL.
    await user.click(filterTab(/^In Prüfung/));
    await waitFor(() => expect(cardTitles()).toEqual(['Mazda RX-7 (FD)', 'Toyota Supra (A80)']));
    expect(listCallUrls().at(-1)).toBe('GET /api/admin/vehicles?status=in_review&sort=brand');
    await chooseSort(user, 'Neueste zuerst');
    await waitFor(() => expect(cardTitles()).toEqual(['Toyota Supra (A80)', 'Mazda RX-7 (FD)']));
    expect(listCallUrls().at(-1)).toBe('GET /api/admin/vehicles?status=in_review');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'in_review' }));
  });

  it('starts the list from its first page when the sort changes', async () => {
    const user = userEvent.setup();
    listResponse = () => {
      const last = calls.at(-1)?.replace(/^GET /, '') ?? '';
      const page = adminPage(last, FLEET);
      return last.includes('cursor=')
        ? json({ ...page, items: page.items.slice(3), nextCursor: null })
        : json({ ...page, items: page.items.slice(0, 3), nextCursor: 'after-3' });
    };
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    await chooseSort(user, 'Älteste zuerst');
    await waitFor(() =>
      expect(cardTitles()).toEqual([
        'Audi Sport quattro',
        'bmw 2002 turbo',
        'Mazda RX-7 (FD)',
        'Toyota Supra (A80)',
        'Henna',
      ]),
    );
    expect(listCallUrls()).toEqual([
      'GET /api/admin/vehicles',
      'GET /api/admin/vehicles?cursor=after-3',
      'GET /api/admin/vehicles?sort=oldest',
      'GET /api/admin/vehicles?sort=oldest&cursor=after-3',
    ]);
  });

  it('restores the sort from the URL; an unknown sort or status falls back to the default', async () => {
    await renderAt('/admin/dashboard?sort=oldest');
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(sortSelect().textContent).toContain('Älteste zuerst');
    expect(listCallUrls()).toEqual(['GET /api/admin/vehicles?sort=oldest']);
    cleanup();
    calls = [];

    await renderAt('/admin/dashboard?sort=zufall&status=bogus');
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(sortSelect().textContent).toContain('Neueste zuerst');
    expect(filterTab(/^Alle/).getAttribute('aria-selected')).toBe('true');
    expect(listCallUrls()).toEqual(['GET /api/admin/vehicles']);
  });

  it('keeps filter and search in the URL, and restores them from it', async () => {
    const user = userEvent.setup();
    const router = await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    await user.click(filterTab(/^In Prüfung/));
    await user.type(screen.getByLabelText('Fahrzeuge durchsuchen'), 'mazda');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'in_review', q: 'mazda' }));
    cleanup();

    await renderAt('/admin/dashboard?status=in_review&q=toyota');
    await waitFor(() => expect(cardTitles()).toEqual(['Toyota Supra (A80)']));
    expect(filterTab(/^In Prüfung/).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Fahrzeuge durchsuchen') as HTMLInputElement).value).toBe('toyota');
  });

  it('loads the next page by its cursor as the end of the list comes near', async () => {
    const [first, second] = [FLEET.slice(0, 3), FLEET.slice(3)];
    listResponse = () => {
      const last = calls.at(-1) ?? '';
      const page = adminPage('/api/admin/vehicles', FLEET);
      return last.endsWith('cursor=after-3')
        ? json({ ...page, items: second, nextCursor: null })
        : json({ ...page, items: first, nextCursor: 'after-3' });
    };
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(calls.filter((call) => isListCall(call.replace(/^GET /, '')))).toEqual([
      'GET /api/admin/vehicles',
      'GET /api/admin/vehicles?cursor=after-3',
    ]);
    expect(filterTab(/^Alle/).textContent).toBe('Alle5');
  });

  it('shows 3 skeleton cards while the list loads', async () => {
    const answer = deferred<Response>();
    listResponse = () => answer.promise;
    await renderAt();
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    expect(screen.getAllByTestId('vehicle-card-skeleton')).toHaveLength(3);
    expect(screen.getByText('Fahrzeuge werden geladen...')).toBeTruthy();
    answer.resolve(json(adminPage('/api/admin/vehicles', vehicles)));
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(screen.queryByTestId('vehicle-card-skeleton')).toBeNull();
  });

  it('shows a load error with a retry', async () => {
    const user = userEvent.setup();
    listResponse = () => json({ message: 'Datenbank nicht erreichbar' }, 503);
    await renderAt();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/Datenbank nicht erreichbar/)).toBeTruthy();
    listResponse = null;
    await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
  });

  it('opens the detail dialog from a card, by click and by keyboard; Escape returns focus to the card', async () => {
    const user = userEvent.setup();
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));

    await user.click(screen.getByRole('button', { name: 'Toyota Supra (A80)' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Toyota Supra (A80)' })).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'Media 3' })).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'Admin' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const title = screen.getByRole('button', { name: 'Henna' });
    title.focus();
    await user.keyboard('{Enter}');
    expect(
      within(await screen.findByRole('dialog')).getByRole('heading', { name: 'BMW M3 (E30)' }),
    ).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Henna' })));
  });
});

describe('/admin/dashboard: Warteliste', () => {
  it('shows the rule, free places and, with automatic moving up off, the Nachrücker to invite with one click', async () => {
    await renderAt();
    const panel = await screen.findByRole('region', { name: 'Warteliste und Nachrücken' });
    expect(within(panel).getByText(waitlist.rule)).toBeTruthy();
    expect(within(panel).getByText('29 / 30')).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'Nachrücker' })).toBeTruthy();
    expect(within(panel).getByText(/Lena Wolf · Bewertung 8/)).toBeTruthy();
    expect(within(panel).getByText(/Henna Prüf · Bewertung verborgen/)).toBeTruthy();
    expect(
      within(panel).getByText('Eigene Bewerbung: Über die Einladung entscheidet jemand anderes.'),
    ).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Lancia Delta einladen' })).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Mazda RX-7 einladen' }));
    await waitFor(() => expect(calls).toContain('POST /api/admin/waitlist/invite'));
    expect(await screen.findByText('Nachrücker eingeladen')).toBeTruthy();
  });
});

describe('/admin/dashboard: Medien and access', () => {
  it('counts the images from the library’s total; the media library loads only when its tab opens', async () => {
    const user = userEvent.setup();
    await renderAt();
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(screen.getByRole('tab', { name: 'Medien 7' })).toBeTruthy();
    expect(calls).not.toContain('GET /api/admin/media');

    await user.click(screen.getByRole('tab', { name: 'Medien 7' }));
    await waitFor(() => expect(calls).toContain('GET /api/admin/media'));
    await waitFor(() => expect(screen.queryByRole('list', { name: /^Fahrzeuge:/ })).toBeNull());
  });

  it('starts loading the list in the route loader; a quick list is there for the first render', async () => {
    // In after 100 ms, within the loader's wait.
    listResponse = () =>
      new Promise((resolve) =>
        setTimeout(() => resolve(json(adminPage('/api/admin/vehicles', vehicles))), 100),
      );
    const queryClient = createQueryClient();
    const router = createAppRouter({
      queryClient,
      history: createMemoryHistory({ initialEntries: ['/admin/dashboard'] }),
    });
    await router.load();
    expect(listCalls()).toBe(1);
    expect(queryClient.getQueryCache().findAll({ queryKey: ['vehicles', 'admin'] })[0]?.state.status).toBe(
      'success',
    );
    render(<RouterProvider router={router} />);
    expect(cardTitles()).toHaveLength(5);
    expect(screen.queryByText('Fahrzeuge werden geladen...')).toBeNull();
  });

  it('does not wait for a slow list: the page shows its skeleton, then the cards', async () => {
    const answer = deferred<Response>();
    listResponse = () => answer.promise;
    const router = createAppRouter({
      queryClient: createQueryClient(),
      history: createMemoryHistory({ initialEntries: ['/admin/dashboard'] }),
    });
    await router.load();
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Fahrzeuge werden geladen...')).toBeTruthy();
    expect(cardTitles()).toEqual([]);
    answer.resolve(json(adminPage('/api/admin/vehicles', vehicles)));
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
  });

  it("shows 'Zugriff verweigert' to a plain user without reading the admin list", async () => {
    role = 'user';
    await renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(
      screen.getAllByText('Sie haben keine Berechtigung, auf das Admin-Dashboard zuzugreifen.').length,
    ).toBeGreaterThan(0);
    expect(listCalls()).toBe(0);
  });

  it('sends signed-out visitors to /login', async () => {
    role = null;
    const router = await renderAt();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
