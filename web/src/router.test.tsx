import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
});

describe('routes', () => {
  it('renders the German landing placeholder at /', async () => {
    await renderAt('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Schlosstreffen' })).toBeTruthy();
    expect(screen.getByText(/historischen Schlosses in\s+Sachsen/)).toBeTruthy();
    expect(screen.getByText('20. Juni 2026, 10:00 – 20:00 Uhr')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('öffnet in Kürze');
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
