/**
 * R13: the jury under the landing spike. 30 judges (accounts of the role 'user', each with a
 * session of their own) judge one class of the current edition's 70 confirmed cars with four
 * criteria; all 30 send 40 scorecards at once (POST /api/jury/sync, 160 values each, as a phone
 * does after a round of the rows offline), round after round, while R9's spike (50 connections of
 * anonymous GET /, from a process of its own) runs. p99 of a sync at most 300 ms (reference units).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JurySyncResult } from '@schlosstreffen/shared/api';
import { BROWSER_HEADERS } from '../browser.js';
import type { SpikeResult } from '../children/spike.js';
import { Client } from '../http.js';
import { withDatabase } from '../seed.js';
import { API_URL, DATA } from '../settings.js';
import { firstMessage, spawnScript, type NodeChild } from '../stack.js';
import { inReferenceUnits, percentile, type Figure, type Speed } from '../stats.js';
import { SPIKE } from './landing-spike.js';

const JUDGES = 30;
const CARDS_PER_SYNC = 40;
const CRITERIA = ['k-sauber', 'k-umbau', 'k-idee', 'k-gesamt'];
/** Rounds of all judges at once: the first warms up, the others are measured. */
const ROUNDS = 6;
const SPIKE_MAX_S = 120;

interface Judge {
  client: Client;
  deviceId: string;
}

function nextMessage<T>(child: NodeChild): Promise<T> {
  const message = firstMessage<T>(child);
  message.catch(() => undefined);
  return message;
}

/** The class and its judges, written straight into the database; the judges sign in through the API. */
async function setUp(): Promise<{ judges: Judge[]; classId: string; startNumbers: number[] }> {
  const users = Array.from({ length: JUDGES }, (_, index) => ({
    email: `judge-${index + 1}@bench.test`,
    password: 'bench-judge-password',
    firstName: 'Jury',
    lastName: String(index + 1),
  }));
  const ids: string[] = [];
  for (const user of users) ids.push((await new Client().register(user)).id);
  const classId = randomUUID();
  const startNumbers = await withDatabase(async (db) => {
    const edition = await db.query<{ id: string }>(
      `select id from edition order by current_from desc nulls last, year desc limit 1`,
    );
    const editionId = edition.rows[0]!.id;
    await db.query(
      `insert into jury_class (id, edition_id, name, position, scope, criteria, places, created_at, updated_at)
       values ($1, $2, 'Best of Show', 1, '{"zones":[],"categories":[],"yearFrom":null,"yearTo":null}', $3, 3, now(), now())`,
      [
        classId,
        editionId,
        JSON.stringify(CRITERIA.map((id, i) => ({ id, name: `Kriterium ${i + 1}`, weight: i + 1, max: 10 }))),
      ],
    );
    for (const id of ids) {
      await db.query(
        `insert into jury_judge (id, edition_id, user_id, created_at) values (gen_random_uuid(), $1, $2, now())`,
        [editionId, id],
      );
      await db.query(`insert into jury_class_judge (jury_class_id, user_id) values ($1, $2)`, [classId, id]);
    }
    const cars = await db.query<{ start_number: number }>(
      `select i.start_number from invitation i join vehicle v on v.id = i.vehicle_id
        where i.edition_id = $1 and v.status = 'confirmed' and i.released_at is null order by i.start_number`,
      [editionId],
    );
    return cars.rows.map((row) => row.start_number);
  });
  if (startNumbers.length !== DATA.confirmed) {
    throw new Error(`the class holds ${startNumbers.length} confirmed cars, expected ${DATA.confirmed}`);
  }
  const judges: Judge[] = [];
  for (const user of users) {
    judges.push({ client: await new Client().login(user.email, user.password), deviceId: randomUUID() });
  }
  return { judges, classId, startNumbers };
}

/** One sync of 40 cards (160 values) of cars in walking order from `offset`; its time in ms. */
async function sync(judge: Judge, classId: string, cars: number[], round: number): Promise<number> {
  const enteredAt = new Date().toISOString();
  const entries = cars.flatMap((startNumber) =>
    CRITERIA.map((criterion, i) => ({
      id: randomUUID(),
      classId,
      startNumber,
      criterion,
      value: (startNumber + i + round) % 11,
      enteredAt,
    })),
  );
  const started = performance.now();
  const response = await judge.client.request('POST', '/api/jury/sync', {
    deviceId: judge.deviceId,
    entries,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`jury sync answered ${response.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as JurySyncResult;
  const refused = answer.entries.filter((entry) => entry.result !== 'taken');
  if (refused.length) throw new Error(`jury sync refused ${refused.length} values: ${refused[0]!.message}`);
  return ms;
}

export async function jurySpike(speed: Speed): Promise<Figure[]> {
  const { judges, classId, startNumbers } = await setUp();
  const carsOf = (index: number, round: number) =>
    Array.from(
      { length: CARDS_PER_SYNC },
      (_, k) => startNumbers[(index * 7 + round * 11 + k) % startNumbers.length]!,
    );

  const spike = spawnScript('spike', 'children/spike.js');
  const latencies: number[] = [];
  let landing: SpikeResult;
  let seconds: number;
  try {
    const started = nextMessage(spike);
    spike.child.send({
      url: `${API_URL}/`,
      connections: SPIKE.connections,
      maxDurationS: SPIKE_MAX_S,
      headers: BROWSER_HEADERS,
    });
    await started;
    const done = nextMessage<SpikeResult>(spike);
    await sleep(SPIKE.warmupS * 1000);
    const start = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const times = await Promise.all(
        judges.map((judge, index) => sync(judge, classId, carsOf(index, round), round)),
      );
      if (round > 0) latencies.push(...times);
    }
    seconds = (performance.now() - start) / 1000;
    spike.child.send('stop');
    landing = await done;
    if (landing.ranOut)
      throw new Error(`the spike ran out (${SPIKE_MAX_S} s) before the judges' rounds ended`);
  } finally {
    await spike.stop();
  }
  if (landing.errors || landing.timeouts || landing.non2xx) {
    throw new Error(
      `GET / during the spike: ${landing.errors} errors, ${landing.timeouts} timeouts, ${landing.non2xx} non-2xx answers`,
    );
  }
  const p99 = percentile(latencies, 99);
  return [
    inReferenceUnits(
      {
        name: 'r13.jury_spike.p99',
        value: p99,
        unit: 'ms',
        budget: { op: '<=', limit: 300 },
        reference: `p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(0)} ms; ${latencies.length} syncs (${JUDGES} judges at once, ${CARDS_PER_SYNC} cards of ${CRITERIA.length} values each, ${ROUNDS - 1} measured rounds after one of warm-up, ${seconds.toFixed(1)} s) beside ${SPIKE.connections} conn of anonymous GET / at ${landing.rps.toFixed(0)} req/s`,
      },
      speed,
    ),
    {
      name: 'r13.jury_spike.landing_rps',
      value: landing.rps,
      unit: 'req/s',
      reference: `GET / during the judges' rounds: p99 ${landing.p99Ms} ms, p50 ${landing.p50Ms} ms, ${landing.requests} requests`,
    },
  ];
}
