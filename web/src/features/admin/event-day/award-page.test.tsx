import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminEdition, AwardAdminView } from '@schlosstreffen/shared/api';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';
import { installDomShims } from '../../vehicle-form/test-helpers';

setupScreenTests();

// What jsdom lacks and the select uses: pointer events, a size watch, scrolling its list.
beforeEach(() => {
  installDomShims();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const AWARD = '/api/admin/award/2026';

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
  phase: 'over',
  current: true,
  applications: 12,
  fee: null,
  visitorTickets: null,
};

/** The award of a meeting that is over, its final totals written. */
const PAST: AwardAdminView = {
  year: 2026,
  editionName: 'Schlosstreffen 2026',
  state: 'closed',
  opensAt: '2026-06-20T08:00:00.000Z',
  closesAt: null,
  openedAt: '2026-06-20T08:00:00.000Z',
  closedAt: '2026-06-20T18:00:00.000Z',
  ranking: [
    {
      rank: 1,
      vehicleId: 'a1000000-0000-4000-8000-000000000001',
      startNumber: 7,
      name: 'Roter Blitz',
      votes: 12,
      pending: 0,
      certificateUrl: null,
    },
    {
      rank: 2,
      vehicleId: 'a1000000-0000-4000-8000-000000000002',
      startNumber: 3,
      name: 'Blauer Wal',
      votes: 4,
      pending: 0,
      certificateUrl: null,
    },
  ],
  totalVotes: 16,
  pendingVotes: 0,
  confirmedVoters: 9,
  confirmedOnMeetingDayShare: 0.5,
  networks: [],
  final: true,
  over: true,
  corrections: [
    { at: '2026-06-22T09:00:00.000Z', startNumber: 7, from: 13, to: 12, reason: 'Doppelt gezählt' },
  ],
};

describe('/admin/publikumsliebling after the meeting', () => {
  it('offers no opening, closing or schedule, and corrects the final totals with a reason', async () => {
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/editions': () => ({ body: { editions: [EDITION] } }),
      [`GET ${AWARD}`]: () => ({ body: PAST }),
      [`POST ${AWARD}/correction`]: () => ({
        body: { message: 'Das Endergebnis ist korrigiert; die Urkunden werden neu erstellt.' },
      }),
    });
    const { user } = await renderAt('/admin/publikumsliebling');

    const card = await screen.findByRole('article', { name: 'Endergebnis korrigieren' });
    expect(screen.getByText(/Das Treffen ist vorbei: Zeitplan, Öffnen und Beenden bleiben/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Abstimmung jetzt/ })).toBeNull();
    expect((screen.getByRole('button', { name: 'Zeitplan speichern' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(within(card).getByText(/13 Stimmen → 12 Stimmen\. Grund: Doppelt gezählt/)).toBeTruthy();

    // Opened from the keyboard, as the other selects' tests do.
    within(card).getByRole('combobox', { name: /Auto/ }).focus();
    await user.keyboard('{ArrowDown}');
    await user.click(await screen.findByRole('option', { name: 'Nr. 3 · Blauer Wal (4 Stimmen)' }));
    await user.type(within(card).getByRole('textbox', { name: /Stimmen richtig/ }), '5');
    await user.type(within(card).getByRole('textbox', { name: /Grund/ }), 'zu kurz');
    await user.click(within(card).getByRole('button', { name: 'Korrigieren' }));
    expect(await within(card).findByText(/mindestens 10 Zeichen/)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.type(within(card).getByRole('textbox', { name: /Grund/ }), ': eine Stimme auf Papier');
    await user.click(within(card).getByRole('button', { name: 'Korrigieren' }));
    await screen.findAllByText('Das Endergebnis ist korrigiert; die Urkunden werden neu erstellt.');
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: `${AWARD}/correction`,
        body: { startNumber: 3, votes: 5, reason: 'zu kurz: eine Stimme auf Papier' },
      },
    ]);
  });
});
