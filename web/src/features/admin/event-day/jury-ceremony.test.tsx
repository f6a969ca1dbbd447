import type { AdminEdition, JuryCeremony } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;

const EDITION: AdminEdition = {
  year: 2026,
  name: 'Schlosstreffen 2026',
  startsAt: '2026-06-20T08:00:00.000Z',
  endsAt: '2026-06-20T18:00:00.000Z',
  place: 'Schloss',
  applicationsOpenAt: '2026-01-01T00:00:00.000Z',
  applicationDeadline: '2026-03-31',
  parkingZones: [{ name: 'A', capacity: 30 }],
  confirmDays: 14,
  cutoffDays: 7,
  reminderDays: 3,
  currentFrom: '2026-01-01T00:00:00.000Z',
  phase: 'meetingDay',
  current: true,
  applications: 12,
  fee: null,
  visitorTickets: null,
};

const place = (placeNumber: number, startNumber: number, name: string) => ({
  place: placeNumber,
  startNumber,
  name,
  imageUrl: null,
  hasPage: true,
});

const CEREMONY: JuryCeremony = {
  year: 2026,
  editionName: 'Schlosstreffen 2026',
  classes: [
    {
      id: 'c3000000-0000-4000-8000-000000000001',
      name: 'Bester Umbau',
      places: [place(1, 7, 'Roter Blitz'), place(2, 3, 'Blauer Wal'), place(3, 9, 'Grüne Gurke')],
    },
  ],
  award: [
    { rank: 1, startNumber: 3, name: 'Blauer Wal', votes: 40 },
    { rank: 2, startNumber: 12, name: 'Silberpfeil', votes: 21 },
  ],
  openClasses: ['Bester Klassiker'],
};

/** The slide's names shown so far (what is still covered reads 'Noch verdeckt'). */
function shownPlaces(): string[] {
  const stage = screen.getByRole('region', { name: 'Siegerehrung' });
  return within(stage)
    .queryAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('/admin/siegerehrung', () => {
  it('reveals each class from the last place to the first on key presses, then the classes still open, the award and the end', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/editions': () => ({ body: { editions: [EDITION] } }),
      'GET /api/admin/jury/2026/ceremony': () => ({ body: CEREMONY }),
    });
    const { user } = await renderAt('/admin/siegerehrung');

    expect(await screen.findByRole('button', { name: 'Vollbild' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Siegerehrung' })).toBeTruthy();
    expect(screen.getByText(/Schritt 1 von 10/)).toBeTruthy();

    // A presenter's clicker sends PageDown.
    await user.keyboard('{PageDown}');
    expect(screen.getByRole('heading', { level: 1, name: 'Bester Umbau' })).toBeTruthy();
    expect(shownPlaces()).toEqual([
      '1. Platz?Noch verdeckt',
      '2. Platz?Noch verdeckt',
      '3. Platz?Noch verdeckt',
    ]);

    await user.keyboard('{ArrowRight}');
    expect(shownPlaces()).toEqual([
      '1. Platz?Noch verdeckt',
      '2. Platz?Noch verdeckt',
      '3. PlatzGrüne GurkeStartnummer 9',
    ]);
    await user.keyboard(' ');
    expect(shownPlaces()[1]).toBe('2. PlatzBlauer WalStartnummer 3');
    expect(shownPlaces()[0]).toBe('1. Platz?Noch verdeckt');
    // Back and on again.
    await user.keyboard('{ArrowLeft}');
    expect(shownPlaces()[1]).toBe('2. Platz?Noch verdeckt');
    await user.keyboard('{PageUp}');
    expect(shownPlaces()[2]).toBe('3. Platz?Noch verdeckt');
    await user.keyboard('{Enter}{Enter}{Enter}');
    expect(shownPlaces()[0]).toBe('1. PlatzRoter BlitzStartnummer 7');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('heading', { level: 1, name: 'Noch nicht abgeschlossen' })).toBeTruthy();
    expect(screen.getByText('Bester Klassiker')).toBeTruthy();

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('heading', { level: 1, name: 'Publikumsliebling 2026' })).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(shownPlaces()).toEqual([
      '1. Platz?Noch verdeckt',
      '2. PlatzSilberpfeilStartnummer 12 · 21 Stimmen',
    ]);
    await user.keyboard('{ArrowRight}');
    expect(shownPlaces()[0]).toBe('1. PlatzBlauer WalStartnummer 3 · 40 Stimmen');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('heading', { level: 1, name: 'Herzlichen Glückwunsch!' })).toBeTruthy();
    // The end stays the end.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText(/Schritt 10 von 10/)).toBeTruthy();
    // The buttons do the same as the keys.
    await user.click(screen.getByRole('button', { name: 'Zurück' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Publikumsliebling 2026' })).toBeTruthy();
  });

  it('is for admins only: reviewers see "Zugriff verweigert" and the API is not asked', async () => {
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, role: 'reviewer' } }),
      'GET /api/admin/editions': () => ({ body: { editions: [EDITION] } }),
    });
    await renderAt('/admin/siegerehrung');
    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith('/api/admin/jury'))).toBe(false);
  });
});
