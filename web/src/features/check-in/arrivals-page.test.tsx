import { VISITOR_GATE_MESSAGES } from '@schlosstreffen/shared';
import type { ArrivalsBoard } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
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
    visitors: null,
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
    // An edition without visitor tickets has no visitors' part.
    expect(screen.queryByRole('heading', { name: 'Besucher' })).toBeNull();
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

  it('shows the visitors let in and on the grounds against the capacity, and warns from 90 %', async () => {
    const visitors = {
      capacity: 1000,
      admitted: 640,
      walkIns: 40,
      onGrounds: 812,
      warning: false,
      exitScanning: true,
    };
    let current = visitors;
    mockApi({
      'GET /api/auth/user': () => ({ body: REVIEWER }),
      'GET /api/admin/arrivals': () => ({ body: board({ visitors: current }) }),
    });
    const { queryClient } = await renderAt('/admin/einlass');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Besucher' })).closest('section')!;
    const panel = within(section);
    expect(panel.getByText('Besucher eingelassen').nextSibling?.textContent).toBe('640');
    expect(panel.getByTestId('visitors-walk-ins').textContent).toBe('40 davon Tageskasse');
    expect(panel.getByTestId('visitors-on-grounds').textContent).toBe('812 von 1.000');
    const bar = panel.getByRole('progressbar', { name: 'Besucher auf dem Gelände: 812 von 1.000' });
    expect(bar.getAttribute('aria-valuenow')).toBe('812');
    expect(panel.queryByRole('alert')).toBeNull();

    current = { ...visitors, onGrounds: 905, warning: true };
    await queryClient.refetchQueries({ queryKey: ['admin', 'arrivals'] });
    const warning = await panel.findByRole('alert');
    expect(warning.textContent).toBe(VISITOR_GATE_MESSAGES.capacityWarning(90));
    expect(warning.textContent).toBe('Achtung: 90 % der Besucherplätze sind belegt.');
    expect(warning.className).toContain('bg-amber-400');
    expect(panel.getByTestId('visitors-on-grounds').textContent).toBe('905 von 1.000');

    // Full: the warning turns red.
    current = { ...visitors, onGrounds: 1000, warning: true };
    await queryClient.refetchQueries({ queryKey: ['admin', 'arrivals'] });
    await waitFor(() =>
      expect(panel.getByRole('alert').textContent).toBe(VISITOR_GATE_MESSAGES.capacityWarning(100)),
    );
    expect(panel.getByRole('alert').className).toContain('bg-red-700');
  });
});
