import type { JuryResults, LookBack } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests } from '../../test/screen-helpers';

setupScreenTests();

const RESULTS: JuryResults = {
  edition: {
    year: 2026,
    name: 'Schlosstreffen 2026',
    startsAt: '2026-06-20T08:00:00.000Z',
    endsAt: '2026-06-20T18:00:00.000Z',
    place: 'Schlosspark, Sachsen',
  },
  publishedAt: '2026-06-20T17:30:00.000Z',
  classes: [
    {
      id: 'c3000000-0000-4000-8000-000000000001',
      name: 'Bester Umbau',
      places: [
        { place: 2, startNumber: 3, name: 'Audi Sport Quattro', imageUrl: null, hasPage: false },
        {
          place: 1,
          startNumber: 7,
          name: 'Roter Blitz',
          imageUrl: '/objects/thumbs/m1/1280.webp',
          hasPage: true,
        },
      ],
    },
    {
      id: 'c3000000-0000-4000-8000-000000000002',
      name: 'Bester Klassiker',
      places: [{ place: 1, startNumber: 12, name: 'Silberpfeil', imageUrl: null, hasPage: true }],
    },
  ],
  award: [
    { rank: 1, startNumber: 3, name: 'Audi Sport Quattro', votes: 40 },
    { rank: 2, startNumber: 7, name: 'Roter Blitz', votes: 1 },
  ],
};

describe('/ergebnisse/$year', () => {
  it("shows each class's places from the first on, with start number, photo and the car's page, then the visitors' award", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/results': () => ({ body: RESULTS }),
    });
    await renderAt('/ergebnisse/2026');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ergebnisse 2026' })).toBeTruthy();
    expect(screen.getByText('Schlosstreffen 2026 am 20.06.2026 · Schlosspark, Sachsen')).toBeTruthy();
    const umbau = screen.getByRole('list', { name: 'Bester Umbau' });
    expect(
      within(umbau)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1. PlatzRoter BlitzStartnummer 7', '2. PlatzAudi Sport QuattroStartnummer 3']);
    expect(within(umbau).getByRole('img', { name: 'Roter Blitz' }).getAttribute('src')).toBe(
      '/objects/thumbs/m1/1280.webp',
    );
    expect(within(umbau).getByRole('link', { name: 'Roter Blitz' }).getAttribute('href')).toBe(
      '/fahrzeuge/2026/7',
    );
    // A car without a public page is named, not linked.
    expect(within(umbau).queryByRole('link', { name: 'Audi Sport Quattro' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Bester Klassiker' })).toBeTruthy();

    const award = screen.getByRole('region', { name: 'Publikumsliebling 2026' });
    expect(
      within(award)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '11. Platz: Audi Sport QuattroStartnummer 340 Stimmen',
      '22. Platz: Roter BlitzStartnummer 71 Stimme',
    ]);
    expect(document.title).toBe('Ergebnisse 2026 – Schlosstreffen');
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute('content')).toBe(
      'http://localhost:3000/objects/thumbs/m1/1280.webp',
    );
  });

  it('is not found before the results are published', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2027/results': () => ({ status: 404, body: { message: 'Nicht veröffentlicht.' } }),
    });
    await renderAt('/ergebnisse/2027');
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
  });
});

describe("the jury's places on the look back", () => {
  it('shows each class with its places above the award, linking to all results', async () => {
    const lookBack: LookBack = {
      edition: RESULTS.edition,
      vehicles: [],
      checkedIn: 0,
      visitorsAdmitted: null,
      startNumbers: {},
      award: null,
      jury: RESULTS.classes,
    };
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/look-back': () => ({ body: lookBack }),
    });
    await renderAt('/rueckblick/2026');

    const block = await screen.findByRole('region', { name: 'Jury-Ergebnisse' });
    expect(within(block).getByRole('link', { name: 'Alle Ergebnisse 2026' }).getAttribute('href')).toBe(
      '/ergebnisse/2026',
    );
    expect(
      within(block)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Bester Umbau', 'Bester Klassiker']);
    expect(
      within(within(block).getByRole('list', { name: 'Bester Klassiker' })).getByText('Silberpfeil'),
    ).toBeTruthy();
  });

  it('leaves the block out without published places', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/look-back': () => ({
        body: {
          edition: RESULTS.edition,
          vehicles: [],
          checkedIn: 0,
          startNumbers: {},
          award: null,
          jury: [],
        },
      }),
    });
    await renderAt('/rueckblick/2026');
    await screen.findByText('Für diese Ausgabe zeigen wir keine Fahrzeuge.');
    expect(screen.queryByRole('region', { name: 'Jury-Ergebnisse' })).toBeNull();
  });
});

describe("the jury's places on the car's page", () => {
  it("names each place as a badge: '1. Platz – Bester Umbau 2026'", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/vehicles/7': () => ({
        body: {
          edition: RESULTS.edition,
          startNumber: 7,
          brand: 'Lancia',
          model: 'Delta',
          vehicle: null,
          story: null,
          instagramHandle: null,
          shareImageUrl: null,
          award: null,
          juryPlaces: [{ place: 1, className: 'Bester Umbau', year: 2026 }],
        },
      }),
    });
    await renderAt('/fahrzeuge/2026/7');
    const places = await screen.findByRole('list', { name: 'Jury-Platzierungen' });
    expect(
      within(places)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1. Platz – Bester Umbau 2026']);
  });
});
