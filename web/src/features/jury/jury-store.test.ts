// @vitest-environment node
// IndexedDB from fake-indexeddb.
import 'fake-indexeddb/auto';
import { JURY_LIMITS, JurySyncSchema } from '@schlosstreffen/shared';
import type { JurySyncResult } from '@schlosstreffen/shared/api';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLASS_A, CLASS_B, juryView, syncAnswer } from './jury-fixtures';
import { juryModel, mergeScores, type QueuedEntry } from './jury-model';
import {
  clearJury,
  dismissRefused,
  expireJury,
  juryJudge,
  juryQueue,
  queueJuryEntry,
  queueJuryRecusal,
  rememberJuryJudge,
  storedJuryView,
  storeJuryView,
} from './jury-store';
import { syncJury } from './jury-sync';

/** A stand-in for the server: answers each sync with `answer(body)` and records the bodies. */
function server(answer: (body: unknown) => JurySyncResult | 'unreachable') {
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
    const body: unknown = JSON.parse(String(init?.body));
    const reply = answer(body);
    if (reply === 'unreachable') throw new TypeError('Failed to fetch');
    bodies.push(body);
    return new Response(JSON.stringify(reply), { status: 200 });
  });
  return bodies;
}

const entry = (overrides: Partial<QueuedEntry>): QueuedEntry => ({
  id: crypto.randomUUID(),
  classId: CLASS_A,
  startNumber: 12,
  criterion: 'sauberkeit',
  value: 5,
  enteredAt: '2026-06-20T10:00:00.000Z',
  state: 'pending',
  message: null,
  ...overrides,
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await clearJury();
});

describe('merging the server’s values with the device’s queue', () => {
  it('takes the value entered last, whichever side holds it', () => {
    const server = [
      {
        classId: CLASS_A,
        startNumber: 12,
        criterion: 'sauberkeit',
        value: 3,
        enteredAt: '2026-06-20T10:05:00.000Z',
      },
      {
        classId: CLASS_A,
        startNumber: 12,
        criterion: 'umbau',
        value: 4,
        enteredAt: '2026-06-20T10:05:00.000Z',
      },
    ];
    const merged = mergeScores(server, [
      // Older than the server's (entered on another device later): the server's stays.
      entry({ criterion: 'sauberkeit', value: 9, enteredAt: '2026-06-20T10:01:00.000Z' }),
      // Newer: the device's counts until the server has it.
      entry({ criterion: 'umbau', value: 8, enteredAt: '2026-06-20T10:09:00.000Z' }),
      // Refused ones never count.
      entry({ startNumber: 7, value: 1, state: 'refused', message: 'Nein.' }),
    ]);
    expect(merged.get(`${CLASS_A}|12|sauberkeit`)).toMatchObject({ value: 3, pending: false });
    expect(merged.get(`${CLASS_A}|12|umbau`)).toMatchObject({ value: 8, pending: true });
    expect(merged.has(`${CLASS_A}|7|sauberkeit`)).toBe(false);
  });

  it('marks own and biased cars, and counts complete cards per class', () => {
    const view = juryView({
      scores: [
        {
          classId: CLASS_A,
          startNumber: 12,
          criterion: 'sauberkeit',
          value: 3,
          enteredAt: '2026-06-20T10:05:00.000Z',
        },
      ],
    });
    const model = juryModel(
      view,
      [entry({ criterion: 'umbau', value: 6 })],
      [{ id: 'r', startNumber: 7, enteredAt: '2026-06-20T10:06:00.000Z', state: 'pending', message: null }],
    );
    expect(model.exclusionOf(31)).toBe('own');
    expect(model.exclusionOf(40)).toBe('biased');
    expect(model.exclusionOf(7)).toBe('biased');
    expect(model.exclusionOf(12)).toBeNull();
    expect(model.valuesOf(CLASS_A, 12)).toEqual({ sauberkeit: 3, umbau: 6 });
    expect(model.summaryOf(CLASS_A)).toEqual({ done: 1, scorable: 1, excluded: 3 });
    expect(model.summaryOf(CLASS_B)).toEqual({ done: 0, scorable: 0, excluded: 1 });
  });
});

describe('the queue on the device', () => {
  it('keeps the last value per criterion, sends it, and removes what the answer acknowledges', async () => {
    await storeJuryView(juryView());
    await queueJuryEntry(
      { classId: CLASS_A, startNumber: 12, criterion: 'sauberkeit', value: 4 },
      new Date('2026-06-20T10:00:00Z'),
    );
    const last = await queueJuryEntry(
      { classId: CLASS_A, startNumber: 12, criterion: 'sauberkeit', value: 6 },
      new Date('2026-06-20T10:01:00Z'),
    );
    const refusedOne = await queueJuryEntry(
      { classId: CLASS_A, startNumber: 31, criterion: 'sauberkeit', value: 9 },
      new Date('2026-06-20T10:02:00Z'),
    );
    expect((await juryQueue()).entries.map((e) => e.value)).toEqual([6, 9]);

    const scores = [
      { classId: CLASS_A, startNumber: 12, criterion: 'sauberkeit', value: 6, enteredAt: last.enteredAt },
    ];
    const bodies = server((body) => {
      const answer = syncAnswer(body, scores);
      answer.entries = answer.entries.map((state) =>
        state.id === refusedOne.id
          ? { ...state, result: 'refused', message: 'Ihr eigenes Auto bewerten Sie nicht.' }
          : state,
      );
      return answer;
    });
    expect(await syncJury()).toBe(true);
    expect(bodies).toHaveLength(1);
    const sent = v.parse(JurySyncSchema, bodies[0]);
    expect(sent.entries.map((e) => [e.startNumber, e.value, e.enteredAt])).toEqual([
      [12, 6, '2026-06-20T10:01:00.000Z'],
      [31, 9, '2026-06-20T10:02:00.000Z'],
    ]);

    const queue = await juryQueue();
    expect(queue.entries).toHaveLength(1);
    expect(queue.entries[0]).toMatchObject({
      id: refusedOne.id,
      state: 'refused',
      message: 'Ihr eigenes Auto bewerten Sie nicht.',
    });
    const stored = await storedJuryView();
    expect(stored?.view.scores).toEqual(scores);
    expect(stored?.syncedAt).toBe('2026-06-20T10:15:00.000Z');

    // Nothing waits: no request; refused ones go once read.
    expect(await syncJury()).toBe(false);
    expect(bodies).toHaveLength(1);
    await dismissRefused();
    expect((await juryQueue()).entries).toEqual([]);
  });

  it('keeps everything queued while the server is unreachable and sends it once when it is back', async () => {
    await storeJuryView(juryView());
    await queueJuryEntry({ classId: CLASS_A, startNumber: 12, criterion: 'umbau', value: 7 });
    const recusal = await queueJuryRecusal(7);
    server(() => 'unreachable');
    await expect(syncJury()).rejects.toThrow();
    expect((await juryQueue()).entries).toHaveLength(1);
    expect((await juryQueue()).recusals).toHaveLength(1);

    const bodies = server((body) => syncAnswer(body, [], [7, 40]));
    await syncJury();
    await syncJury();
    expect(bodies).toHaveLength(1);
    expect((bodies[0] as { recusals: unknown[] }).recusals).toEqual([
      { id: recusal.id, startNumber: 7, enteredAt: recusal.enteredAt },
    ]);
    expect(await juryQueue()).toEqual({ entries: [], recusals: [] });
    const stored = await storedJuryView();
    expect(stored?.view.recusals).toEqual([7, 40]);
    expect(stored?.view.cars.find((car) => car.startNumber === 7)?.excluded).toBe('biased');
  });

  it('sends a long queue in chunks the server accepts', async () => {
    await storeJuryView(juryView());
    for (let i = 0; i < JURY_LIMITS.syncEntries + 1; i += 1) {
      await queueJuryEntry({ classId: CLASS_A, startNumber: 1000 + i, criterion: 'umbau', value: 5 });
    }
    const bodies = server((body) => syncAnswer(body));
    await syncJury();
    expect(bodies.map((body) => (body as { entries: unknown[] }).entries.length)).toEqual([
      JURY_LIMITS.syncEntries,
      1,
    ]);
    expect((await juryQueue()).entries).toEqual([]);
  });

  it('forgets another judge’s queue, and opens offline for the judge until the deadline', async () => {
    await storeJuryView(juryView());
    await rememberJuryJudge({ id: 'u-1', firstName: 'Lena', lastName: 'Weber', role: 'user' });
    await queueJuryEntry({ classId: CLASS_A, startNumber: 12, criterion: 'umbau', value: 7 });
    expect(await juryJudge(new Date('2026-06-20T10:00:00Z'))).toMatchObject({ id: 'u-1' });
    expect(await juryJudge(new Date('2100-01-01T00:00:00Z'))).toBeNull();

    await storeJuryView(juryView({ judge: { id: 'u-2', firstName: 'Max', lastName: null } }));
    expect((await juryQueue()).entries).toEqual([]);
    expect(await juryJudge()).toBeNull();

    expect(await expireJury(new Date('2026-06-20T10:00:00Z'))).toBe(false);
    expect(await expireJury(new Date('2100-01-01T00:00:00Z'))).toBe(true);
    expect(await storedJuryView()).toBeNull();
  });
});
