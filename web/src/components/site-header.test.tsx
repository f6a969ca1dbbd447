import { DEFAULT_SITE_CONFIG, HEADER_SCROLL_THRESHOLD_PX, type SiteConfig } from '@schlosstreffen/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORGANIZER_SOCIAL_LINKS } from '../lib/organizer';
import { createQueryClient } from '../lib/query-client';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import { SIGNED_IN_USER } from '../test/screen-helpers';
import { resetAppClock } from '../lib/app-clock';
import { browserPage, SiteHeader } from './site-header';
import { AppToaster, toaster } from './ui/toaster';

/** The page's site config: the spec's 2026 meeting (deadline 31 March) as the server wrote it at `now`. */
const site = vi.hoisted(() => ({ config: undefined as SiteConfig | undefined }));
vi.mock('../lib/site-config', () => ({ getSiteConfig: () => site.config }));

const writtenAt = (now: string, changes: Partial<SiteConfig> = {}): SiteConfig => ({
  ...DEFAULT_SITE_CONFIG,
  applicationsOpenAt: '2025-12-01T09:00:00+01:00',
  now: new Date(now).toISOString(),
  ...changes,
});
/** The 2027 meeting, current since the 2026 one is over, no opening date set yet. */
const NEXT_IN_PREPARATION = {
  eventStart: '2027-06-19T08:00:00.000Z',
  eventEnd: '2027-06-19T18:00:00.000Z',
  applicationDeadline: '2027-03-31',
  applicationsOpenAt: null,
} as const;

function user(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    ...SIGNED_IN_USER,
    id: 'u1',
    consentMedia: true,
    consentQuartett: true,
    consentContact: true,
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** fetch answering the current-user call with `current` (null: 401) and logout with `logoutResponse`. */
function stubApi(current: CurrentUser | null, logoutResponse: () => Response = () => json({ ok: true })) {
  const fetchMock = vi.fn(async (path: string) => {
    if (path === '/api/auth/user') {
      return current ? json(current) : json({ message: 'Nicht angemeldet' }, 401);
    }
    if (path === '/api/auth/logout') return logoutResponse();
    return json({ message: 'unbekannt' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function renderHeader(path = '/dashboard') {
  const queryClient = createQueryClient();
  const rootRoute = createRootRoute({
    component: () => (
      <>
        <SiteHeader />
        <Outlet />
        <AppToaster />
      </>
    ),
  });
  const page = (routePath: string, text: string) =>
    createRoute({ getParentRoute: () => rootRoute, path: routePath, component: () => <p>{text}</p> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page('/', 'Startseite'), page('/dashboard', 'Dashboard-Seite')]),
    history: createMemoryHistory({ initialEntries: [path] }),
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
  await router.load();
  render(<RouterProvider router={router} />);
  return router;
}

const header = () => screen.getByRole('banner');
const mainNav = () => screen.getByRole('navigation', { name: 'Hauptnavigation' });

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  fireEvent.scroll(window);
}

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  site.config = writtenAt('2026-03-02T12:00:00+01:00');
  resetAppClock();
  sessionStorage.clear();
  scrollTo(0);
});

afterEach(() => {
  // The toast store is global: no message may carry over into the next test.
  act(() => toaster.remove());
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('SiteHeader on wide screens', () => {
  it('shows the login icon for signed-out visitors', async () => {
    stubApi(null);
    await renderHeader();

    const login = await within(mainNav()).findByRole('link', { name: 'Anmelden' });
    expect(login.getAttribute('href')).toBe('/login');
    expect(within(mainNav()).queryByRole('button', { name: 'Abmelden' })).toBeNull();
    expect(within(mainNav()).queryByRole('link', { name: /Lena/ })).toBeNull();
  });

  it('shows the dashboard button with the first name and the logout icon when signed in', async () => {
    stubApi(user());
    await renderHeader();

    const dashboard = await within(mainNav()).findByRole('link', { name: 'Lena' });
    expect(dashboard.getAttribute('href')).toBe('/dashboard');
    expect(within(mainNav()).getByRole('button', { name: 'Abmelden' })).toBeTruthy();
    expect(within(mainNav()).queryByRole('link', { name: 'Anmelden' })).toBeNull();
    expect(within(mainNav()).queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  it("links signed-in users to their profile ('Mein Profil'), not signed-out ones", async () => {
    stubApi(user());
    await renderHeader();

    const profile = await within(mainNav()).findByRole('link', { name: 'Mein Profil' });
    expect(profile.getAttribute('href')).toBe('/profile');
    cleanup();

    stubApi(null);
    await renderHeader();
    await within(mainNav()).findByRole('link', { name: 'Anmelden' });
    expect(within(mainNav()).queryByRole('link', { name: 'Mein Profil' })).toBeNull();
  });

  it('falls back to the part of the email before the at-sign', async () => {
    stubApi(user({ firstName: null, email: 'max.mustermann@example.de' }));
    await renderHeader();

    const dashboard = await within(mainNav()).findByRole('link', { name: 'max.mustermann' });
    expect(dashboard.getAttribute('href')).toBe('/dashboard');
  });

  it("links reviewers to 'Meine Prüfungen' of the admin area", async () => {
    stubApi(user({ role: 'reviewer' }));
    await renderHeader();

    const admin = await within(mainNav()).findByRole('link', { name: 'Admin' });
    expect(admin.getAttribute('href')).toBe('/admin/pruefungen');
  });

  it("links admins to the admin area's applications", async () => {
    stubApi(user({ role: 'admin' }));
    await renderHeader();

    const admin = await within(mainNav()).findByRole('link', { name: 'Admin' });
    expect(admin.getAttribute('href')).toBe('/admin/dashboard');
  });
});

describe('SiteHeader scroll style', () => {
  it('turns opaque once the page is scrolled past the threshold', async () => {
    stubApi(null);
    await renderHeader();
    expect(header().getAttribute('data-scrolled')).toBe('false');
    expect(header().className).toContain('bg-transparent');

    act(() => scrollTo(HEADER_SCROLL_THRESHOLD_PX));
    expect(header().getAttribute('data-scrolled')).toBe('false');

    act(() => scrollTo(HEADER_SCROLL_THRESHOLD_PX + 1));
    expect(header().getAttribute('data-scrolled')).toBe('true');
    expect(header().className).toContain('backdrop-blur-md');
    expect(header().className).not.toContain('bg-transparent');

    act(() => scrollTo(0));
    expect(header().getAttribute('data-scrolled')).toBe('false');
  });
});

describe('SiteHeader menu on small screens', () => {
  it('opens with the social links, both calls to action and login; Escape closes it', async () => {
    stubApi(null);
    await renderHeader();
    const eventUser = userEvent.setup();

    const toggle = screen.getByRole('button', { name: 'Menü' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('navigation', { name: 'Menü' })).toBeNull();

    await eventUser.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('navigation', { name: 'Menü' });
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)?.contains(menu)).toBe(true);

    const apply = within(menu).getByRole('link', { name: 'Jetzt Bewerben' });
    expect(apply.getAttribute('href')).toBe('/apply');
    expect(document.activeElement).toBe(apply);
    expect(within(menu).getByRole('link', { name: 'Als Besucher vormerken' }).getAttribute('href')).toBe(
      '/visitor-registration',
    );
    expect((await within(menu).findByRole('link', { name: 'Anmelden' })).getAttribute('href')).toBe('/login');
    for (const social of ORGANIZER_SOCIAL_LINKS) {
      const link = within(menu).getByRole('link', { name: new RegExp(social.label) });
      expect(link.getAttribute('href')).toBe(social.href);
      expect(link.getAttribute('target')).toBe('_blank');
    }

    await eventUser.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menü' })).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('offers dashboard and logout to signed-in users and closes after following a link', async () => {
    stubApi(user());
    const router = await renderHeader('/');
    const eventUser = userEvent.setup();

    await within(mainNav()).findByRole('link', { name: 'Lena' });
    await eventUser.click(screen.getByRole('button', { name: 'Menü' }));
    const menu = screen.getByRole('navigation', { name: 'Menü' });
    expect(within(menu).getByText('Lena')).toBeTruthy();
    expect(within(menu).getByRole('button', { name: 'Abmelden' })).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Mein Profil' }).getAttribute('href')).toBe('/profile');
    expect(within(menu).queryByRole('link', { name: 'Anmelden' })).toBeNull();

    await eventUser.click(within(menu).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('navigation', { name: 'Menü' })).toBeNull();
  });
});

describe("SiteHeader's call to action in the current edition's phase", () => {
  it.each([
    [
      'before the applications open',
      'Bewerbung ab 1. Dezember 2025',
      '/apply',
      writtenAt('2025-11-15T12:00:00+01:00'),
    ],
    ['while they are open', 'Jetzt Bewerben', '/apply', writtenAt('2026-03-31T23:59:00+02:00')],
    ['after the meeting', 'Rückblick 2026', '/rueckblick/2026', writtenAt('2026-11-27T12:00:00+01:00')],
    [
      'while the next edition is in preparation',
      'Rückblick 2026',
      '/rueckblick/2026',
      writtenAt('2026-12-01T12:00:00+01:00', { ...NEXT_IN_PREPARATION, lookBackYear: 2026 }),
    ],
    [
      'in preparation with nothing to look back on',
      'Bewerbung bald möglich',
      '/apply',
      writtenAt('2026-12-01T12:00:00+01:00', NEXT_IN_PREPARATION),
    ],
  ])('%s: %s', async (_moment, label, href, config) => {
    site.config = config;
    stubApi(null);
    await renderHeader();
    const eventUser = userEvent.setup();

    const main = within(mainNav()).getByRole('link', { name: label });
    expect(main.getAttribute('href')).toBe(href);
    expect(within(mainNav()).getByRole('link', { name: 'Als Besucher vormerken' })).toBeTruthy();
    if (label !== 'Jetzt Bewerben') expect(screen.queryByRole('link', { name: 'Jetzt Bewerben' })).toBeNull();

    await eventUser.click(screen.getByRole('button', { name: 'Menü' }));
    const menu = screen.getByRole('navigation', { name: 'Menü' });
    expect(within(menu).getByRole('link', { name: label }).getAttribute('href')).toBe(href);
    expect(within(menu).getByRole('link', { name: 'Als Besucher vormerken' })).toBeTruthy();
  });

  it.each([
    ['after the deadline', '2026-04-01T00:00:00+02:00'],
    ['on the meeting day', '2026-06-20T09:00:00+02:00'],
  ])("%s: the deadline, and 'Als Besucher vormerken' as the main button", async (_moment, now) => {
    site.config = writtenAt(now);
    stubApi(null);
    await renderHeader();
    const eventUser = userEvent.setup();

    expect(screen.queryByRole('link', { name: /Bewerben|Bewerbung ab/ })).toBeNull();
    expect(within(mainNav()).getByText('Bewerbungsschluss war am 31. März 2026')).toBeTruthy();
    const visitor = within(mainNav()).getAllByRole('link', { name: 'Als Besucher vormerken' });
    expect(visitor).toHaveLength(1);
    expect(visitor[0]!.getAttribute('href')).toBe('/visitor-registration');

    await eventUser.click(screen.getByRole('button', { name: 'Menü' }));
    const menu = screen.getByRole('navigation', { name: 'Menü' });
    expect(within(menu).getByText('Bewerbungsschluss war am 31. März 2026')).toBeTruthy();
    expect(within(menu).getAllByRole('link', { name: 'Als Besucher vormerken' })).toHaveLength(1);
  });

  it("follows the app's clock, not the device's, while the page stays open", async () => {
    // The server wrote the page a minute before the deadline ended; the device's clock is a year off.
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['Date', 'setInterval', 'clearInterval', 'performance'],
    });
    vi.setSystemTime(new Date('2027-09-01T12:00:00+02:00'));
    site.config = writtenAt('2026-03-31T23:59:00+02:00');
    stubApi(null);
    await renderHeader();
    expect(within(mainNav()).getByRole('link', { name: 'Jetzt Bewerben' })).toBeTruthy();

    act(() => vi.advanceTimersByTime(61_000));
    expect(within(mainNav()).queryByRole('link', { name: 'Jetzt Bewerben' })).toBeNull();
    expect(within(mainNav()).getByText('Bewerbungsschluss war am 31. März 2026')).toBeTruthy();
    vi.useRealTimers();
  });
});

describe('SiteHeader logout', () => {
  it('posts an empty object, confirms, goes to / and reloads', async () => {
    const fetchMock = stubApi(user());
    const reload = vi.spyOn(browserPage, 'reload').mockImplementation(() => undefined);
    const router = await renderHeader('/dashboard');
    const eventUser = userEvent.setup();

    await eventUser.click(await within(mainNav()).findByRole('button', { name: 'Abmelden' }));

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    const logoutCall = fetchMock.mock.calls.find(([path]) => path === '/api/auth/logout') as unknown as [
      string,
      RequestInit,
    ];
    expect(logoutCall[1]).toMatchObject({ method: 'POST', body: '{}', credentials: 'include' });
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText('Erfolgreich abgemeldet')).toBeTruthy();
    expect(screen.getByText('Bis bald!')).toBeTruthy();
  });

  it('shows the server message when logout fails', async () => {
    stubApi(user(), () => json({ message: 'Sitzung konnte nicht beendet werden.' }, 500));
    const reload = vi.spyOn(browserPage, 'reload').mockImplementation(() => undefined);
    const router = await renderHeader('/dashboard');
    const eventUser = userEvent.setup();

    await eventUser.click(await within(mainNav()).findByRole('button', { name: 'Abmelden' }));

    expect(await screen.findByText('Fehler beim Abmelden')).toBeTruthy();
    expect(screen.getByText('Sitzung konnte nicht beendet werden.')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows the logout confirmation again after the reload', async () => {
    stubApi(null);
    sessionStorage.setItem('schlosstreffen:logged-out', '1');
    await renderHeader('/');

    expect(await screen.findByText('Erfolgreich abgemeldet')).toBeTruthy();
    expect(sessionStorage.getItem('schlosstreffen:logged-out')).toBeNull();
  });
});
