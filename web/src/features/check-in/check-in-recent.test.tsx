import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentCheckIns, scanKey } from './check-in-recent';

afterEach(cleanup);

const item = (startNumber: number, at: string) => ({
  startNumber,
  parkingZone: 'A',
  title: `Auto ${startNumber}`,
  at,
});

describe('Zuletzt eingecheckt', () => {
  it('marks a check-in the server refused afterwards instead of showing it as let in', () => {
    const refusedAt = '2025-06-20T08:00:00.000Z';
    render(
      <RecentCheckIns
        items={[item(6, refusedAt), item(7, '2026-06-20T08:05:00.000Z')]}
        refused={new Set([scanKey(6, refusedAt)])}
      />,
    );
    const [refused, admitted] = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(refused!.textContent).toContain('Abgelehnt');
    expect(refused!.querySelector('.bg-emerald-900\\/60')).toBeNull();
    expect(admitted!.textContent).not.toContain('Abgelehnt');
    expect(admitted!.querySelector('.bg-emerald-900\\/60')).not.toBeNull();
  });
});
