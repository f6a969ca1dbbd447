import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { carPagePath, PAGES_WITHOUT_QUERY, readsNoQuery } from '@schlosstreffen/shared';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';

async function renderAt(path: string) {
  const router = createAppRouter({
    queryClient: createQueryClient(),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  // jsdom does not implement scrolling; the router's scroll restoration calls it after each navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('renders the landing page at / without waiting for the vehicle list', async () => {
    // The vehicle list never answers: the page must render all the same.
    const fetchMock = vi.fn((path: string) =>
      path === '/api/vehicles/public'
        ? new Promise<Response>(() => undefined)
        : Promise.resolve(new Response(JSON.stringify({ message: 'Nicht angemeldet' }), { status: 401 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await renderAt('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Schlosstreffen' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Hauptnavigation' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getAllByText('Samstag, 20. Juni 2026').length).toBeGreaterThan(0);
    expect(screen.getAllByText('10:00 – 20:00 Uhr').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { level: 2, name: 'Häufige Fragen' })).toBeTruthy();
    expect(document.getElementById('faq')).toBeTruthy();
    expect(screen.getByLabelText('Bestätigte Fahrzeuge werden geladen')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/vehicles/public', expect.anything());
    expect(document.title).toBe('Schlosstreffen – Tuning-Treffen am Schloss');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toContain(
      '20. Juni 2026',
    );
  });

  it('renders the not-found page for unknown paths', async () => {
    await renderAt('/gibt-es-nicht');

    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
      'textContent',
      '404 Page Not Found',
    );
    expect(screen.getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe('/');
    expect(document.title).toBe('404 Page Not Found – Schlosstreffen');
  });
});

/** A route's options as the test reads them. */
type RouteOptions = { options: { validateSearch?: unknown; loaderDeps?: unknown } };

describe('pages that read no query', () => {
  it('declare no search schema and no loader depending on the query', () => {
    const router = createAppRouter({ queryClient: createQueryClient(), history: createMemoryHistory() });
    const routes = router.routesById as unknown as Record<string, RouteOptions>;
    expect(readsNoQuery('/rueckblick/2026')).toBe(true);
    expect(readsNoQuery(carPagePath(2026, 17))).toBe(true);
    expect(readsNoQuery('/ergebnisse/2026')).toBe(true);
    for (const pagePath of [
      ...PAGES_WITHOUT_QUERY,
      '/rueckblick/2026',
      carPagePath(2026, 17),
      '/ergebnisse/2026',
    ]) {
      const matches = router.matchRoutes(pagePath, {});
      expect(
        matches.some((match) => match._notFound),
        pagePath,
      ).toBe(false);
      for (const match of matches) {
        const { options } = routes[match.routeId]!;
        expect(options.validateSearch, `${pagePath}: ${match.routeId}`).toBeUndefined();
        expect(options.loaderDeps, `${pagePath}: ${match.routeId}`).toBeUndefined();
      }
    }
    // A page that does read one is not among them.
    const login = router.matchRoutes('/login', {}).at(-1)!;
    expect(routes[login.routeId]!.options.validateSearch).toBeDefined();
    expect(readsNoQuery('/login')).toBe(false);
  });
});
