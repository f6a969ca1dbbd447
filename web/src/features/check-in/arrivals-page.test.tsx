import type { ArrivalsBoard } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../test/screen-helpers';

setupScreenTests();

const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer', firstName: 'Rita' } as const;

function board(overrides: Partial<ArrivalsBoard> = {}): ArrivalsBoard {
  return {
    expected: 0,
    arrived: 0,
    zones: [
      { name: 'A', expected: 0, arrived: 0 },
      { name: 'B', expected: 0, arrived: 0 },
    ],
    timeline: [],
    recent: [],
    updatedAt: '2026-06-20T08:00:00.000Z',
    ...overrides,
  };
}

describe('/admin/einlass', () => {
  it('says so while nobody has arrived', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: REVIEWER }),
      'GET /api/admin/arrivals': () => ({ body: board({ expected: 12 }) }),
    });
    await renderAt('/admin/einlass');
    expect(await screen.findByRole('heading', { level: 1, name: 'Einlass' })).toBeTruthy();
    expect(await screen.findByText('Noch keine Ankünfte.')).toBeTruthy();
    expect(screen.getByText('Noch keine Scans.')).toBeTruthy();
    expect(screen.getByTestId('arrivals-total').textContent).toBe('0 / 12');
  });

  it('shows arrivals per zone, per quarter hour and the last scans with their gate', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: REVIEWER }),
      'GET /api/admin/arrivals': () => ({
        body: board({
          expected: 5,
          arrived: 3,
          zones: [
            { name: 'A', expected: 3, arrived: 2 },
            { name: 'B', expected: 2, arrived: 1 },
          ],
          timeline: [
            { at: '2026-06-20T07:00:00.000Z', arrived: 2, total: 2 },
            { at: '2026-06-20T07:15:00.000Z', arrived: 0, total: 2 },
            { at: '2026-06-20T07:30:00.000Z', arrived: 1, total: 3 },
          ],
          recent: [
            {
              startNumber: 7,
              name: 'Rote Zora',
              zone: 'B',
              gate: 'Tor B',
              scannedAt: '2026-06-20T07:31:00.000Z',
              result: 'duplicate',
            },
            {
              startNumber: 7,
              name: 'Rote Zora',
              zone: 'B',
              gate: 'Tor A',
              scannedAt: '2026-06-20T07:30:00.000Z',
              result: 'admitted',
            },
          ],
        }),
      }),
    });
    await renderAt('/admin/einlass');
    const zoneA = await screen.findByRole('progressbar', { name: 'Parkzone A: 2 von 3 angekommen' });
    expect(zoneA.getAttribute('aria-valuenow')).toBe('2');
    expect(screen.getByRole('img', { name: 'Ankünfte je Viertelstunde, zusammen 3' })).toBeTruthy();
    expect(
      screen.getAllByTestId('arrivals-bucket').map((bucket) => bucket.getAttribute('data-arrived')),
    ).toEqual(['2', '0', '1']);
    const scans = within(screen.getByRole('list', { name: 'Letzte Scans' })).getAllByRole('listitem');
    expect(scans.map((item) => item.textContent)).toEqual([
      '09:31Startnummer 7Rote ZoraParkzone B · Tor BDoppelt',
      '09:30Startnummer 7Rote ZoraParkzone B · Tor A',
    ]);
  });
});
