import 'fake-indexeddb/auto';
import { JURY_MESSAGES, type JuryRankRow } from '@schlosstreffen/shared';
import type { JuryClassProgress, JuryCloseRefusal } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type RecordedCall,
} from '../../test/screen-helpers';
import { installDomShims } from '../vehicle-form/test-helpers';
import { CLASS_B, juryView } from './jury-fixtures';
import { clearJury } from './jury-store';

setupScreenTests();

const HEAD = { ...SIGNED_IN_USER, judge: true };
const ADMIN = { ...HEAD, role: 'admin' };

// Ark's checkbox handles presses with PointerEvent, which jsdom lacks.
beforeEach(() => installDomShims());

afterEach(async () => {
  await clearJury();
});

const MISSING = [
  { judgeId: 'u-2', judgeName: 'Max Berger', startNumber: 7, car: 'Volkswagen Golf 7' },
  { judgeId: 'u-3', judgeName: 'Ute Kranz', startNumber: 9, car: 'Opel Manta' },
];

const progress = (overrides: Partial<JuryClassProgress> = {}): JuryClassProgress => ({
  id: CLASS_B,
  name: 'Beste Lackierung',
  state: 'open',
  cardsExpected: 8,
  cardsDone: 6,
  missing: MISSING,
  result: null,
  ...overrides,
});

const row = (
  place: number,
  startNumber: number,
  name: string,
  mean: number,
  tieBreak: string | null = null,
): JuryRankRow => ({
  vehicleId: `v-${startNumber}`,
  startNumber,
  name,
  judges: 2,
  mean,
  heaviestMean: mean,
  rank: place,
  place,
  tieBreak,
});

const TIE: JuryCloseRefusal = {
  message: JURY_MESSAGES.tieNeedsChoice(1, [4, 9]),
  ties: [
    {
      place: 1,
      startNumbers: [4, 9],
      cars: [
        { startNumber: 4, name: 'BMW 2002' },
        { startNumber: 9, name: 'Opel Manta' },
      ],
    },
  ],
};

/** The close answers in turn: `replies`, then the class closed with `rows`. */
function api(user: object, replies: { status: number; body: unknown }[], rows: JuryRankRow[]) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: user }),
    'GET /api/jury': () => ({ body: juryView() }),
    [`GET /api/jury/classes/${CLASS_B}`]: () => ({ body: progress() }),
    [`POST /api/jury/classes/${CLASS_B}/close`]: () =>
      replies.shift() ?? {
        body: progress({
          state: 'closed',
          cardsDone: 8,
          missing: [],
          result: {
            rows,
            closedAt: '2026-06-20T16:00:00.000Z',
            closedBy: 'u-1',
            forceReason: null,
            tieBreaks: [],
          },
        }),
      },
  });
}

const closes = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.path.endsWith('/close'));

describe('/jury/klasse/{id}', () => {
  it('shows the progress and whose scores are missing', async () => {
    api(HEAD, [], []);
    await renderAt(`/jury/klasse/${CLASS_B}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Beste Lackierung' })).toBeTruthy();
    expect(screen.getByText('6 von 8')).toBeTruthy();
    const missing = screen.getByTestId('jury-missing');
    expect(within(missing).getByText('Es fehlen noch 2 Bewertungen:')).toBeTruthy();
    expect(
      within(missing)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Max Berger – Startnummer 7 (Volkswagen Golf 7)', 'Ute Kranz – Startnummer 9 (Opel Manta)']);
  });

  it('lets the head judge order tied cars with a reason, then shows the ranking', async () => {
    const { calls } = api(
      HEAD,
      [{ status: 409, body: TIE }],
      [
        row(1, 9, 'Opel Manta', 42.5, 'Die bessere Lackpflege überzeugt.'),
        row(2, 4, 'BMW 2002', 42.5, 'Die bessere Lackpflege überzeugt.'),
      ],
    );
    const { user } = await renderAt(`/jury/klasse/${CLASS_B}`);
    await user.click(await screen.findByRole('button', { name: 'Klasse abschließen' }));

    const tie = await screen.findByRole('group', { name: 'Gleichstand um Platz 1' });
    const order = () =>
      within(tie)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/[↑↓]/g, ''));
    expect(order()).toEqual(['1. PlatzNr. 4 · BMW 2002', '2. PlatzNr. 9 · Opel Manta']);
    await user.click(within(tie).getByRole('button', { name: 'Nr. 9 nach oben' }));
    expect(order()).toEqual(['1. PlatzNr. 9 · Opel Manta', '2. PlatzNr. 4 · BMW 2002']);

    // A reason is required (at least ten characters).
    const reason = within(tie).getByLabelText('Begründung der Reihenfolge um Platz 1');
    await user.type(reason, 'Lack');
    await user.click(screen.getByRole('button', { name: 'Klasse abschließen' }));
    expect(within(tie).getByText(JURY_MESSAGES.reason)).toBeTruthy();
    expect(closes(calls)).toHaveLength(1);

    await user.clear(reason);
    await user.type(reason, 'Die bessere Lackpflege überzeugt.');
    await user.click(screen.getByRole('button', { name: 'Klasse abschließen' }));
    await waitFor(() => expect(closes(calls)).toHaveLength(2));
    expect(closes(calls)[1]!.body).toEqual({
      tieBreaks: [{ startNumbers: [9, 4], reason: 'Die bessere Lackpflege überzeugt.' }],
    });

    const ranking = await screen.findByRole('table', { name: 'Ergebnis: Beste Lackierung' });
    const rows = within(ranking).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['1.', '9', 'Opel MantaReihenfolge der Jury-Leitung: Die bessere Lackpflege überzeugt.', '42,5'],
      ['2.', '4', 'BMW 2002Reihenfolge der Jury-Leitung: Die bessere Lackpflege überzeugt.', '42,5'],
    ]);
    expect(screen.queryByRole('button', { name: 'Klasse abschließen' })).toBeNull();
  });

  it('names the missing scores; a head judge cannot close anyway', async () => {
    const refusal: JuryCloseRefusal = { message: JURY_MESSAGES.missingScores(2), missing: MISSING };
    api(HEAD, [{ status: 409, body: refusal }], []);
    const { user } = await renderAt(`/jury/klasse/${CLASS_B}`);
    await user.click(await screen.findByRole('button', { name: 'Klasse abschließen' }));
    expect(await screen.findByText(JURY_MESSAGES.forceAdminOnly)).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Trotzdem abschließen' })).toBeNull();
  });

  it('lets an admin close despite missing scores, with a reason', async () => {
    const refusal: JuryCloseRefusal = { message: JURY_MESSAGES.missingScores(2), missing: MISSING };
    const { calls } = api(ADMIN, [{ status: 409, body: refusal }], [row(1, 4, 'BMW 2002', 40)]);
    const { user } = await renderAt(`/jury/klasse/${CLASS_B}`);
    await user.click(await screen.findByRole('button', { name: 'Klasse abschließen' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Trotzdem abschließen' }));
    await user.type(
      screen.getByLabelText('Begründung für den Abschluss trotz fehlender Bewertungen'),
      'Zwei Jurymitglieder sind abgereist.',
    );
    await user.click(screen.getByRole('button', { name: 'Klasse abschließen' }));
    await waitFor(() => expect(closes(calls)).toHaveLength(2));
    expect(closes(calls)[1]!.body).toEqual({
      tieBreaks: [],
      forceReason: 'Zwei Jurymitglieder sind abgereist.',
    });
    expect(await screen.findByRole('table', { name: 'Ergebnis: Beste Lackierung' })).toBeTruthy();
  });

  it('tells a judge who does not lead the class, in the server’s words', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: HEAD }),
      'GET /api/jury': () => ({ body: juryView() }),
      [`GET /api/jury/classes/${CLASS_B}`]: () => ({
        status: 403,
        body: { message: JURY_MESSAGES.closeNotAllowed },
      }),
    });
    await renderAt(`/jury/klasse/${CLASS_B}`);
    expect(await screen.findByText(JURY_MESSAGES.closeNotAllowed)).toBeTruthy();
  });
});
