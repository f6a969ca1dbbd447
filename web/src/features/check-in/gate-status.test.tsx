import { CHECK_IN_MESSAGES } from '@schlosstreffen/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GateMeta, QueuedScan, QueuedVisitorScan } from './gate-store';
import { GateStatus } from './gate-status';
import type { useGate } from './use-gate';

afterEach(cleanup);

const OUTSIDE = CHECK_IN_MESSAGES.scanOutsideWindow(
  '01.01.2000, 01:00 Uhr',
  '20.06.2026, 00:00 Uhr',
  '20.06.2026, 20:00 Uhr',
);

function scan(startNumber: number, patch: Partial<QueuedScan>): QueuedScan {
  return {
    id: `scan-${startNumber}`,
    invitationId: `inv-${startNumber}`,
    scannedAt: '2026-06-20T08:00:00.000Z',
    startNumber,
    name: `Auto ${startNumber}`,
    zone: 'A',
    state: 'admitted',
    message: null,
    firstGate: null,
    firstAt: null,
    ...patch,
  };
}

function gate(
  scans: QueuedScan[],
  { meta = null, visitorScans = [] }: { meta?: GateMeta | null; visitorScans?: QueuedVisitorScan[] } = {},
): ReturnType<typeof useGate> {
  return {
    ready: true,
    online: true,
    meta,
    device: null,
    scans,
    visitorScans,
    listError: null,
    pending: scans.filter((entry) => entry.state === 'pending').length,
    pendingVisitors: visitorScans.filter((entry) => entry.state === 'pending').length,
    checkIn: () => Promise.reject(new Error('not in this test')),
    payCash: () => Promise.reject(new Error('not in this test')),
    rename: () => Promise.resolve(),
    walkIn: () => Promise.resolve(),
  };
}

function visitorScan(n: number, patch: Partial<QueuedVisitorScan>): QueuedVisitorScan {
  return {
    id: `visitor-${n}`,
    ticketId: `ticket-${n}`,
    kind: 'in',
    scannedAt: '2026-06-20T08:00:00.000Z',
    state: 'pending',
    message: null,
    reason: null,
    firstIn: null,
    firstGate: null,
    ...patch,
  };
}

describe('the gate status', () => {
  it('shows a scan the server refused as refused, with its reason, apart from duplicates and not as waiting', () => {
    render(
      <GateStatus
        gate={gate([
          scan(1, { state: 'admitted' }),
          scan(2, {
            state: 'refused',
            reason: 'outside_window',
            message: OUTSIDE,
            scannedAt: '2000-01-01T00:00:00.000Z',
          }),
          scan(3, {
            state: 'duplicate',
            message: CHECK_IN_MESSAGES.duplicate('Tor A', '10:02'),
            firstGate: 'Tor A',
          }),
        ])}
      />,
    );
    const refused = screen.getByTestId('gate-refused');
    expect(screen.getByRole('heading', { name: 'Abgelehnte Scans' })).toBeTruthy();
    expect(within(refused).getAllByRole('listitem')).toHaveLength(1);
    expect(refused.textContent).toContain('Startnummer 2');
    expect(refused.textContent).toContain(OUTSIDE);
    const duplicates = screen.getByTestId('gate-conflicts');
    expect(within(duplicates).getAllByRole('listitem')).toHaveLength(1);
    expect(duplicates.textContent).toContain('Doppelt: schon um 10:02 Uhr an „Tor A“ eingecheckt');
    expect(screen.getByTestId('gate-pending').textContent).toBe('0 Scans');
  });

  it('shows the tickets on the device, the visitor scans waiting, and those the server refused', () => {
    const outside = 'Außerhalb der Einlasszeit: Scan nicht übernommen.';
    render(
      <GateStatus
        gate={gate([], {
          meta: {
            publicKey: 'k',
            cursor: 'c',
            fetchedAt: '2026-06-20T08:00:00.000Z',
            expiresAt: '2026-06-21T00:00:00.000Z',
            count: 3,
            tickets: { editionId: 'e', exitScanning: true, capacity: 500, count: 412, validUntil: 'v' },
          },
          visitorScans: [
            visitorScan(1, {}),
            visitorScan(2, { kind: 'walk_in', ticketId: null }),
            visitorScan(3, { state: 'admitted' }),
            visitorScan(4, { state: 'refused', reason: 'outside_window', message: outside }),
          ],
        })}
      />,
    );
    expect(screen.getByTestId('gate-list').textContent).toBe('3 Fahrzeuge, Stand 10:00 Uhr');
    expect(screen.getByTestId('gate-tickets').textContent).toBe(
      '412 Besuchertickets · Ausgang wird gescannt',
    );
    expect(screen.getByTestId('gate-pending').textContent).toBe('0 Scans');
    expect(screen.getByTestId('gate-pending-visitors').textContent).toBe('2 warten');
    const refused = screen.getByTestId('gate-refused-visitors');
    expect(within(refused).getAllByRole('listitem')).toHaveLength(1);
    expect(refused.textContent).toContain('Besucherticket, Eingang');
    expect(refused.textContent).toContain(outside);
  });

  it('says nothing of visitors where the edition has no tickets', () => {
    render(<GateStatus gate={gate([])} />);
    expect(screen.queryByTestId('gate-tickets')).toBeNull();
    expect(screen.queryByTestId('gate-pending-visitors')).toBeNull();
  });
});
