import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import type { MediaLibraryItem, MediaLibraryPage } from '@schlosstreffen/shared/api';
import { makeMedia } from '../../vehicles/vehicle-fixtures';
import { MediaLibrary } from './media-library';

function item(overrides: Partial<MediaLibraryItem> = {}): MediaLibraryItem {
  return {
    ...makeMedia(),
    vehicle: {
      id: 'v1',
      name: 'Black Pearl',
      brand: 'BMW',
      model: 'M3 E46',
      year: 2004,
      status: 'submitted',
    },
    user: {
      id: 'u1',
      firstName: 'Lena',
      lastName: 'Weber',
      email: 'lena.weber@example.de',
      phone: null,
      role: 'user',
    },
    // 09:30 UTC: 10:30 in Berlin.
    createdAt: '2026-11-22T09:30:00.000Z',
    ...overrides,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** One page of GET /api/admin/media: these items, the library's total, and the next page's cursor. */
function page(items: MediaLibraryItem[], total = items.length, nextCursor: string | null = null): Response {
  return json({ items, total, nextCursor } satisfies MediaLibraryPage);
}

let respond: () => Promise<Response> | Response;
let respondNext: ((cursor: string) => Response) | null = null;
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  if (String(input) === '/api/admin/media') return respond();
  const cursor = /^\/api\/admin\/media\?cursor=(.+)$/.exec(String(input))?.[1];
  if (cursor && respondNext) return respondNext(cursor);
  return json({ message: `Unerwarteter Aufruf ${String(input)}` }, 404);
});

beforeEach(() => {
  fetchMock.mockClear();
  respondNext = null;
  vi.stubGlobal('fetch', fetchMock);
  // jsdom does not scroll; the virtualised grid keeps the scroll position when rows are measured.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderLibrary() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MediaLibrary />
    </QueryClientProvider>,
  );
}

const tiles = () => within(screen.getByRole('list', { name: 'Alle Bilder' })).getAllByRole('listitem');

describe('MediaLibrary', () => {
  it('counts the whole library and loads the next page by its cursor', async () => {
    respond = () => page([item({ id: 'a' }), item({ id: 'b' })], 3, 'after-b');
    respondNext = (cursor) => (cursor === 'after-b' ? page([item({ id: 'c' })], 3) : json({}, 400));
    renderLibrary();
    expect(await screen.findByText('Insgesamt 3 Bilder')).toBeTruthy();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual([
      '/api/admin/media',
      '/api/admin/media?cursor=after-b',
    ]);
  });

  it('shows 8 skeletons while the library loads, then the images', async () => {
    let release!: () => void;
    respond = () =>
      new Promise((resolve) => {
        release = () => resolve(page([item()]));
      });
    renderLibrary();

    expect(screen.getAllByTestId('media-skeleton')).toHaveLength(8);
    expect(screen.getByRole('status').textContent).toBe('Medien werden geladen...');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    release();
    expect(await screen.findByText('Insgesamt 1 Bild')).toBeTruthy();
    expect(screen.queryAllByTestId('media-skeleton')).toHaveLength(0);
  });

  it('counts the images and offers the ZIP of all of them as a plain download', async () => {
    respond = () => page([item({ id: 'a' }), item({ id: 'b' }), item({ id: 'c' })]);
    renderLibrary();

    expect(await screen.findByText('Insgesamt 3 Bilder')).toBeTruthy();
    const all = screen.getByRole('link', { name: 'Alle herunterladen' });
    expect(all.getAttribute('href')).toBe('/api/admin/media.zip');
    expect(all.hasAttribute('download')).toBe(true);
    expect(tiles()).toHaveLength(3);
  });

  it('marks hero images, names the vehicle by name or brand and model, with year and de-DE date', async () => {
    respond = () =>
      page([
        item({ id: 'hero', isHero: true }),
        item({
          id: 'plain',
          isHero: false,
          vehicle: { id: 'v2', name: null, brand: 'Audi', model: 'RS2 Avant', year: 1994, status: 'draft' },
          createdAt: '2026-03-05T23:30:00.000Z',
        }),
      ]);
    renderLibrary();
    await screen.findByText('Insgesamt 2 Bilder');

    const [hero, plain] = tiles();
    expect(within(hero!).getByText('Hauptbild')).toBeTruthy();
    expect(within(hero!).getByText('Black Pearl')).toBeTruthy();
    expect(within(hero!).getByText('Baujahr 2004')).toBeTruthy();
    expect(within(hero!).getByRole('figure').textContent).toContain('22.11.26');

    expect(within(plain!).queryByText('Hauptbild')).toBeNull();
    expect(within(plain!).getByText('Audi RS2 Avant')).toBeTruthy();
    expect(within(plain!).getByText('Baujahr 1994')).toBeTruthy();
    // 23:30 UTC on 5 March is already 6 March in Berlin.
    const time = plain!.querySelector('time')!;
    expect(time.textContent).toBe('Hochgeladen am 06.03.26');
    expect(time.getAttribute('dateTime')).toBe('2026-03-05T23:30:00.000Z');
  });

  it("shows the owner's name, else email, else 'Unbekannt'", async () => {
    const owner = { id: 'u', phone: null, role: 'user' as const };
    respond = () =>
      page([
        item({ id: '1', user: { ...owner, firstName: 'Lena', lastName: 'Weber', email: 'lena@example.de' } }),
        item({ id: '2', user: { ...owner, firstName: null, lastName: null, email: 'max@example.de' } }),
        item({ id: '3', user: null }),
      ]);
    renderLibrary();
    await screen.findByText('Insgesamt 3 Bilder');

    const [first, second, third] = tiles();
    expect(within(first!).getByText('Lena Weber')).toBeTruthy();
    expect(within(second!).getByText('max@example.de')).toBeTruthy();
    expect(within(third!).getByText('Unbekannt')).toBeTruthy();
  });

  it('shows the thumbnail, else the original, and labels the image', async () => {
    respond = () =>
      page([
        item({ id: '1', altText: 'Front', thumbnailUrl: '/objects/thumbs/1/480.webp' }),
        item({ id: '2', url: '/objects/uploads/u/2.png', thumbnailUrl: null }),
      ]);
    renderLibrary();
    await screen.findByText('Insgesamt 2 Bilder');

    const [first, second] = tiles();
    expect(within(first!).getByRole('img', { name: 'Front' }).getAttribute('src')).toBe(
      '/objects/thumbs/1/480.webp',
    );
    expect(within(second!).getByRole('img', { name: 'Black Pearl' }).getAttribute('src')).toBe(
      '/objects/uploads/u/2.png',
    );
  });

  it('opens each image in a new tab and downloads it under the spec file name', async () => {
    respond = () =>
      page([
        item({ id: '1', url: '/objects/uploads/u/one.jpg' }),
        item({
          id: '2',
          url: '/objects/uploads/u/two.PNG',
          vehicle: { id: 'v2', name: null, brand: 'VW', model: 'Golf II GTI', year: 1986, status: 'draft' },
          createdAt: '2026-06-20T08:05:09.000Z',
        }),
      ]);
    renderLibrary();
    await screen.findByText('Insgesamt 2 Bilder');

    const [first, second] = tiles();
    const open = within(first!).getByRole('link', { name: 'In neuem Tab öffnen' });
    expect(open.getAttribute('href')).toBe('/objects/uploads/u/one.jpg');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toContain('noopener');

    const download = within(first!).getByRole('link', { name: 'Herunterladen' });
    expect(download.getAttribute('download')).toBe('Black_Pearl_2026-11-22T10-30-00.jpg');
    expect(download.getAttribute('href')).toBe(
      '/objects/uploads/u/one.jpg?download=Black_Pearl_2026-11-22T10-30-00.jpg',
    );

    const other = within(second!).getByRole('link', { name: 'Herunterladen' });
    expect(other.getAttribute('download')).toBe('VW_Golf_II_GTI_2026-06-20T10-05-09.png');
    // The actions name their image for screen readers.
    expect(other.getAttribute('aria-describedby')).toBe(
      within(second!).getByRole('figure').getAttribute('aria-labelledby'),
    );
  });

  it('reaches the actions by keyboard', async () => {
    respond = () => page([item()]);
    renderLibrary();
    await screen.findByText('Insgesamt 1 Bild');

    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement?.textContent).toContain('Alle herunterladen');
    await user.tab();
    expect(document.activeElement?.getAttribute('title')).toBe('In neuem Tab öffnen');
    await user.tab();
    expect(document.activeElement?.getAttribute('title')).toBe('Herunterladen');
  });

  it('shows both empty texts and no download without images', async () => {
    respond = () => page([]);
    renderLibrary();

    expect(await screen.findByRole('heading', { name: 'Keine Medien gefunden' })).toBeTruthy();
    expect(screen.getByText('Noch keine Bilder hochgeladen')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Alle herunterladen' })).toBeNull();
  });

  it("shows the server's message on failure and loads again on retry", async () => {
    respond = () => json({ message: 'Keine Berechtigung.' }, 403);
    renderLibrary();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Medien konnten nicht geladen werden');
    expect(alert.textContent).toContain('Keine Berechtigung.');

    respond = () => page([item()]);
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(screen.getByText('Insgesamt 1 Bild')).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
