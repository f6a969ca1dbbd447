import type { JuryCarView, JuryJudgeView, JurySyncResult } from '@schlosstreffen/shared/api';

/** Test data of the jury's screens: a judge with two classes of the 2026 edition. */

export const CLASS_A = '11111111-1111-4111-8111-111111111111';
export const CLASS_B = '22222222-2222-4222-8222-222222222222';
export const JUDGE_ID = 'u-1';

const car = (startNumber: number, overrides: Partial<JuryCarView> = {}): JuryCarView => ({
  vehicleId: `v-${startNumber}`,
  startNumber,
  title: '',
  brand: 'Volkswagen',
  model: `Golf ${startNumber}`,
  year: 1985,
  parkingZone: 'A',
  imageUrl: null,
  classIds: [CLASS_A],
  excluded: null,
  ...overrides,
});

export function juryView(overrides: Partial<JuryJudgeView> = {}): JuryJudgeView {
  return {
    year: 2026,
    editionName: 'Schlosstreffen 2026',
    judge: { id: JUDGE_ID, firstName: 'Lena', lastName: 'Weber' },
    closesBy: '2099-06-21T22:00:00.000Z',
    classes: [
      {
        id: CLASS_A,
        name: 'Bester Umbau',
        criteria: [
          { id: 'sauberkeit', name: 'Sauberkeit', weight: 1, max: 10 },
          { id: 'umbau', name: 'Qualität des Umbaus', weight: 2, max: 10 },
        ],
        places: 3,
        state: 'open',
        isHead: false,
        cars: [12, 7, 31, 40],
        result: null,
      },
      {
        id: CLASS_B,
        name: 'Beste Lackierung',
        criteria: [{ id: 'glanz', name: 'Glanz', weight: 1, max: 20 }],
        places: 1,
        state: 'open',
        isHead: true,
        cars: [7],
        result: null,
      },
    ],
    cars: [
      car(12, { title: 'Rotkäppchen', parkingZone: 'A' }),
      car(7, { parkingZone: 'B', classIds: [CLASS_A, CLASS_B] }),
      car(31, { parkingZone: 'B', excluded: 'own' }),
      car(40, { parkingZone: 'C', excluded: 'biased' }),
    ],
    scores: [],
    recusals: [40],
    ...overrides,
  };
}

/** The server's answer to a sync: everything sent taken, `scores` as it then holds them. */
export function syncAnswer(
  body: unknown,
  scores: JurySyncResult['scores'] = [],
  recusedStartNumbers: number[] = [40],
): JurySyncResult {
  const sent = body as { entries: { id: string }[]; recusals: { id: string }[] };
  return {
    entries: sent.entries.map((entry) => ({ id: entry.id, result: 'taken', message: null })),
    recusals: sent.recusals.map((recusal) => ({ id: recusal.id, result: 'taken', message: null })),
    scores,
    recusedStartNumbers,
    syncedAt: '2026-06-20T10:15:00.000Z',
  };
}
