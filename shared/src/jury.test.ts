import { describe, expect, it } from 'vitest';
import { inJuryScope, JuryClassSchema, rankJuryClass, weightedTotal, type JuryCriterion } from './jury.js';
import * as v from 'valibot';

const CRITERIA: JuryCriterion[] = [
  { id: 'sauber', name: 'Sauberkeit', weight: 1, max: 10 },
  { id: 'umbau', name: 'Qualität des Umbaus', weight: 3, max: 10 },
  { id: 'idee', name: 'Originalität', weight: 2, max: 10 },
];
const card = (judgeId: string, sauber: number, umbau: number, idee: number) => ({
  judgeId,
  values: { sauber, umbau, idee },
});
const car = (startNumber: number, ...cards: { judgeId: string; values: Record<string, number> }[]) => ({
  vehicleId: `v${startNumber}`,
  startNumber,
  name: `Auto ${startNumber}`,
  cards,
});

describe('the jury ranking', () => {
  it('weighs each criterion and ranks by the mean of the judges’ weighted totals', () => {
    expect(weightedTotal(CRITERIA, { sauber: 10, umbau: 5, idee: 0 })).toBe(25);
    const { rows, ties } = rankJuryClass(CRITERIA, 2, [
      // 10 + 15 + 10 = 35 and 5 + 30 + 20 = 55: mean 45
      car(1, card('a', 10, 5, 5), card('b', 5, 10, 10)),
      // 48 and 48: mean 48, although its plain sum of values is lower than car 1's
      car(2, card('a', 0, 10, 9), card('b', 0, 10, 9)),
      // a single judge's card counts alone (the other card is incomplete)
      car(3, card('a', 10, 10, 10), { judgeId: 'b', values: { sauber: 0 } }),
      car(4),
    ]);
    expect(ties).toEqual([]);
    expect(rows.map((r) => [r.startNumber, r.mean, r.place, r.rank, r.judges])).toEqual([
      [3, 60, 1, 1, 1],
      [2, 48, 2, 2, 2],
      [1, 45, null, 3, 2],
      [4, null, null, null, 0],
    ]);
  });

  it('breaks an equal mean by the higher mean in the heaviest criterion', () => {
    // Both 40: car 5 by 10 + 3·6 + 2·6, car 6 by 0 + 3·8 + 2·8; the heaviest (umbau) decides for 6.
    const { rows, ties } = rankJuryClass(CRITERIA, 1, [
      car(5, card('a', 10, 6, 6)),
      car(6, card('a', 0, 8, 8)),
    ]);
    expect(ties).toEqual([]);
    expect(rows.map((r) => [r.startNumber, r.place])).toEqual([
      [6, 1],
      [5, null],
    ]);
  });

  it('compares means exactly, not as rounded figures', () => {
    // 100/3 against 33: a float rounded to two places would call them equal.
    const { rows } = rankJuryClass([{ id: 'x', name: 'X', weight: 1, max: 100 }], 1, [
      { vehicleId: 'a', startNumber: 1, name: 'A', cards: [{ judgeId: 'j1', values: { x: 33 } }] },
      {
        vehicleId: 'b',
        startNumber: 2,
        name: 'B',
        cards: [
          { judgeId: 'j1', values: { x: 33 } },
          { judgeId: 'j2', values: { x: 33 } },
          { judgeId: 'j3', values: { x: 34 } },
        ],
      },
    ]);
    expect(rows[0]!.startNumber).toBe(2);
  });

  it('leaves a tie the heaviest criterion cannot decide to the head judge, with a reason', () => {
    const cars = [car(7, card('a', 5, 5, 5)), car(8, card('a', 5, 5, 5)), car(9, card('a', 1, 1, 1))];
    const open = rankJuryClass(CRITERIA, 2, cars);
    expect(open.ties).toEqual([{ place: 1, startNumbers: [7, 8] }]);
    // Undecided cars take no place meanwhile; the car below them keeps its own.
    expect(open.rows.map((r) => r.place)).toEqual([null, null, null]);
    const decided = rankJuryClass(CRITERIA, 2, cars, [
      { startNumbers: [8, 7], reason: 'Der bessere Gesamteindruck' },
    ]);
    expect(decided.ties).toEqual([]);
    expect(decided.rows.map((r) => [r.startNumber, r.place, r.tieBreak])).toEqual([
      [8, 1, 'Der bessere Gesamteindruck'],
      [7, 2, 'Der bessere Gesamteindruck'],
      [9, null, null],
    ]);
    // A tie below the awarded places needs nobody's choice.
    expect(rankJuryClass(CRITERIA, 1, [car(1, card('a', 9, 9, 9)), ...cars]).ties).toEqual([]);
  });
});

describe('a class', () => {
  it('takes cars by zone, category and construction year, every given filter at once', () => {
    const scope = { zones: ['Nord'], categories: ['Klassiker'], yearFrom: 1970, yearTo: 1990 };
    expect(
      inJuryScope(scope, { parkingZone: 'Nord', tuningCategories: ['Klassiker', 'Tiefer'], year: 1985 }),
    ).toBe(true);
    expect(inJuryScope(scope, { parkingZone: 'Süd', tuningCategories: ['Klassiker'], year: 1985 })).toBe(
      false,
    );
    expect(inJuryScope(scope, { parkingZone: 'Nord', tuningCategories: ['Tiefer'], year: 1985 })).toBe(false);
    expect(inJuryScope(scope, { parkingZone: 'Nord', tuningCategories: ['Klassiker'], year: 1991 })).toBe(
      false,
    );
    expect(
      inJuryScope(
        { zones: [], categories: [], yearFrom: null, yearTo: null },
        { parkingZone: 'X', tuningCategories: [], year: 2020 },
      ),
    ).toBe(true);
  });

  it('is refused in German when its scorecard is unusable', () => {
    const result = v.safeParse(JuryClassSchema, {
      name: ' ',
      criteria: [
        { name: 'Lack', weight: 0 },
        { name: 'lack', weight: 2, max: 500 },
      ],
      places: 4,
    });
    expect(result.success).toBe(false);
    const messages = result.issues!.map((issue) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Bitte einen Namen angeben.',
        'Gewichte liegen zwischen 1 und 10.',
        'Die Skala reicht von 0 bis höchstens 100.',
        'Vergeben werden 1 bis 3 Plätze.',
      ]),
    );
    const ok = v.parse(JuryClassSchema, {
      name: 'Bester Umbau',
      criteria: [{ name: 'Lack', weight: 2 }],
      places: 3,
    });
    expect(ok.criteria[0]!.max).toBe(10);
    expect(ok.scope).toEqual({ zones: [], categories: [], yearFrom: null, yearTo: null });
  });
});
