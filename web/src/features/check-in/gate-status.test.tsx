import { CHECK_IN_MESSAGES } from '@schlosstreffen/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueuedScan } from './gate-store';
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

function gate(scans: QueuedScan[]): ReturnType<typeof useGate> {
  return {
    ready: true,
    online: true,
    meta: null,
    device: null,
    scans,
    listError: null,
    pending: scans.filter((entry) => entry.state === 'pending').length,
    checkIn: () => Promise.reject(new Error('not in this test')),
    payCash: () => Promise.reject(new Error('not in this test')),
    rename: () => Promise.resolve(),
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
});
