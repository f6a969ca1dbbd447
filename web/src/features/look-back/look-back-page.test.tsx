import type { LookBack } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests } from '../../test/screen-helpers';

setupScreenTests();

const car = (id: string, name: string, brand: string, model: string) => ({
  id,
  name,
  brand,
  model,
  year: 1988,
  color: 'Rot',
  ps: 320,
  torqueNm: null,
  topSpeedKmh: 260,
  zeroToHundredS: 4.9,
  cylinders: null,
  weightKg: 1200,
  driveType: null,
  tuningCategories: [],
  descriptionShort: null,
  media: [],
  hero: null,
});

const LOOK_BACK: LookBack = {
  edition: {
    year: 2026,
    name: 'Schlosstreffen 2026',
    startsAt: '2026-06-20T08:00:00.000Z',
    endsAt: '2026-06-20T18:00:00.000Z',
    place: 'Schlosspark, Sachsen',
  },
  vehicles: [
    car('a1', 'Roter Blitz', 'Lancia', 'Delta Integrale'),
    car('a2', 'Weißer Wal', 'Audi', 'Sport Quattro'),
  ],
  checkedIn: 1,
  visitorsAdmitted: null,
  startNumbers: { a1: 7 },
  award: null,
};

describe('/rueckblick/$year', () => {
  it('shows the visitors let in beside the cars checked in', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/look-back': () => ({ body: { ...LOOK_BACK, visitorsAdmitted: 1234 } }),
    });
    await renderAt('/rueckblick/2026');
    const figure = await screen.findByText('Besucher eingelassen');
    expect(figure.nextSibling?.textContent).toBe('1.234');
    expect(screen.getByText('Am Einlass eingecheckt').nextSibling?.textContent).toBe('1');
  });

  it("shows the edition's date, place, figures and the cars that took part", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/look-back': () => ({ body: LOOK_BACK }),
    });
    await renderAt('/rueckblick/2026');

    expect(await screen.findByRole('heading', { level: 1, name: 'Rückblick 2026' })).toBeTruthy();
    expect(await screen.findByText('Schlosstreffen 2026 am 20.06.2026 · Schlosspark, Sachsen')).toBeTruthy();
    const cars = screen.getByRole('list', { name: 'Fahrzeuge 2026' });
    expect(
      within(cars)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['Roter Blitz', 'Weißer Wal']);
    expect(screen.getByText('Am Einlass eingecheckt').nextSibling?.textContent).toBe('1');
    // No visitors counted: no figure for them.
    expect(screen.queryByText('Besucher eingelassen')).toBeNull();
    // A car whose number is known links to its page.
    expect(screen.getByRole('link', { name: 'Roter Blitz' }).getAttribute('href')).toBe('/fahrzeuge/2026/7');
    expect(screen.queryByRole('link', { name: 'Weißer Wal' })).toBeNull();
  });

  it("shows the visitors' award's first three with their votes, each linking to its page", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2026/look-back': () => ({
        body: {
          ...LOOK_BACK,
          award: {
            title: 'Publikumsliebling 2026',
            winners: [
              {
                rank: 1,
                startNumber: 7,
                name: 'Roter Blitz',
                brand: 'Lancia',
                model: 'Delta',
                votes: 12,
                image: null,
              },
              {
                rank: 2,
                startNumber: 3,
                name: 'Audi Sport Quattro',
                brand: 'Audi',
                model: 'Sport Quattro',
                votes: 1,
                image: null,
              },
            ],
            corrections: [{ at: '2026-07-02T09:00:00Z', startNumber: 3, from: 2, to: 1 }],
          },
        } satisfies LookBack,
      }),
    });
    await renderAt('/rueckblick/2026');
    const block = await screen.findByRole('region', { name: 'Publikumsliebling 2026' });
    const places = within(block)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(places[0]).toContain('1. Platz');
    expect(places[0]).toContain('Startnummer 7 · 12 Stimmen');
    expect(places[1]).toContain('1 Stimme');
    expect(within(block).getByRole('link', { name: 'Audi Sport Quattro' }).getAttribute('href')).toBe(
      '/fahrzeuge/2026/3',
    );
    // An admin's correction of the totals is named.
    expect(
      within(block).getByText(
        'Am 2. Juli 2026 nachträglich korrigiert: Startnummer 3 hat 1 Stimme statt 2 Stimmen.',
      ),
    ).toBeTruthy();
  });

  it('says so in German when there is no look back yet', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: null }),
      'GET /api/editions/2027/look-back': () => ({
        status: 404,
        body: { message: 'Einen Rückblick auf 2027 gibt es noch nicht.' },
      }),
    });
    await renderAt('/rueckblick/2027');
    expect(await screen.findByText(/Einen Rückblick auf 2027 gibt es noch nicht\./)).toBeTruthy();
  });
});
