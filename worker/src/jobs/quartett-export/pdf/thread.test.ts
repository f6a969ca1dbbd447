import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradientJpeg } from '../../../test-photos.js';
import { renderOnThread } from './thread.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'quartett-thread-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const face = (index: number) => ({
  code: `${index + 1}A`,
  name: `Fahrzeug ${index + 1}`,
  subline: 'S2 · 1994 · Rot',
  values: [],
  owner: 'Lena Weber',
});

describe('renderOnThread', () => {
  it('fetches the first photo alone, then starts one fetch per turn of the event loop', async () => {
    const photo = await gradientJpeg(96, 64);
    const cards = 12;
    // Counts the turns of the event loop while the thread renders.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const starts: { index: number; turn: number; inFlight: number }[] = [];
    let inFlight = 0;
    let firstDone = -1;
    const result = await renderOnThread(
      {
        file: path.join(dir, 'set.pdf'),
        title: 'Test',
        version: 1,
        eventName: 'Schlosstreffen',
        cards: Array.from({ length: cards }, (_, index) => ({ face: face(index), photo: true })),
        prefetch: 8,
      },
      {
        loadPhoto: async (index) => {
          starts.push({ index, turn, inFlight });
          inFlight += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight -= 1;
          if (index === 0) firstDone = turn;
          return Buffer.from(photo);
        },
        onProgress: async () => {},
      },
    ).finally(() => {
      ticking = false;
    });

    expect(result).toEqual({ cards, pages: 4 });
    expect((await readFile(path.join(dir, 'set.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    expect(starts.map((start) => start.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: cards }, (_, index) => index),
    );
    // The prefetch asks for nine photos at once; the first was fetched with nothing else in flight
    // and the next started only after it had arrived…
    expect(starts[0]).toMatchObject({ index: 0, inFlight: 0 });
    expect(starts[1]!.turn).toBeGreaterThanOrEqual(firstDone);
    // …and no two fetches started in the same turn.
    for (let k = 1; k < starts.length; k += 1) expect(starts[k]!.turn).toBeGreaterThan(starts[k - 1]!.turn);
  });
});
