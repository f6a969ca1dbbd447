import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, insertListedVehicle, type TestContext } from '../../testing/index.js';
import { PublicInputs } from './public-inputs.js';
import { refreshPublicVehicles } from './public-vehicle.projection.js';
import { createPublicListReader } from './public-vehicle.read.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

const execute = (sql: string, params: unknown[] = []) => t.orm.em.getConnection().execute(sql, params, 'run');

const brands = (body: Buffer) => (JSON.parse(body.toString()) as { brand: string }[]).map((v) => v.brand);

async function until(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** The edition the reader takes as current. */
let currentId = '';
const current = async () => currentId;

describe('public list reader', () => {
  beforeEach(() => {
    currentId = t.event.edition.id;
  });

  it("lists the current edition's cars only, and another edition's once that one is current", async () => {
    const listed = await insertListedVehicle(t, 'Lancia');
    const changes = { version: 1, listening: true };
    const read = createPublicListReader(t.orm.em, current, changes);
    expect(brands((await read()).body)).toContain('Lancia');

    const next = randomUUID();
    await execute(
      `insert into edition (id, year, name, starts_at, ends_at, gate_opens_at, place, application_deadline,
                            parking_zones, confirm_days, cutoff_days, reminder_days)
       values (?, 2091, 'Schlosstreffen 2091', '2091-06-19T08:00:00Z', '2091-06-19T18:00:00Z',
               '2091-06-18T22:00:00Z', 'Schlosspark', '2091-03-31', '[]', 14, 14, 3)`,
      [next],
    );
    // Nothing announced: the switch of the current edition is seen all the same.
    currentId = next;
    expect(brands((await read()).body)).toEqual([]);
    currentId = t.event.edition.id;
    expect(brands((await read()).body)).toContain('Lancia');
    await execute(`delete from public_vehicle where vehicle_id = ?`, [listed]);
    await execute(`delete from edition where id = ?`, [next]);
  });

  it('serves the kept bytes while no change is announced, and the new ones after', async () => {
    const first = await insertListedVehicle(t, 'BMW');
    const changes = { version: 1, listening: true };
    const read = createPublicListReader(t.orm.em, current, changes);
    const before = await read();
    expect(brands(before.body)).toEqual(['BMW']);
    expect(await read()).toBe(before);

    await execute(`update public_vehicle set data = ? where vehicle_id = ?`, [
      JSON.stringify({ id: first, brand: 'Audi' }),
      first,
    ]);
    // Nothing announced: the kept list is still served without asking the database.
    expect(await read()).toBe(before);
    changes.version += 1;
    const after = await read();
    expect(brands(after.body)).toEqual(['Audi']);
    expect(after.etag).not.toBe(before.etag);

    // A change announced for something else: the fingerprint shows the list is the same.
    changes.version += 1;
    expect(await read()).toBe(after);
  });

  it('checks the database on every request without notifications, also under concurrent requests', async () => {
    const read = createPublicListReader(t.orm.em, current, { version: 0, listening: false });
    const kept = await read();
    expect(await read()).toBe(kept);
    const added = await insertListedVehicle(t, 'Porsche');
    const answers = await Promise.all(Array.from({ length: 20 }, () => read()));
    for (const answer of answers) expect(brands(answer.body)).toContain('Porsche');
    await execute(`delete from public_vehicle where vehicle_id = ?`, [added]);
    expect(brands((await read()).body)).not.toContain('Porsche');
  });
});

describe('public list changes', () => {
  it('hears commits of other connections and of its own process, not rolled back ones', async () => {
    const changes = new PublicInputs(t.env.DATABASE_URL!, () => undefined);
    await changes.start(t.orm.em);
    try {
      expect(changes.listening).toBe(true);
      let version = changes.version;

      // Another connection (psql, the worker, another api) changes the read model.
      const vehicleId = await insertListedVehicle(t, 'Opel');
      await until(() => changes.version > version);

      // A commit of this process that wrote nothing of the list does not count.
      await sleep(200);
      version = changes.version;
      await t.orm.em
        .fork()
        .transactional((em) => em.getConnection().execute('select 1', [], 'all', em.getTransactionContext()));
      expect(changes.version).toBe(version);
      // One that refreshed the list counts at once, before any notification could arrive.
      await t.orm.em.fork().transactional((em) => refreshPublicVehicles(em, [vehicleId]));
      expect(changes.version).toBeGreaterThan(version);

      await sleep(200);
      version = changes.version;
      const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
      await client.connect();
      await client.query('begin');
      await client.query('delete from public_vehicle where vehicle_id = $1', [vehicleId]);
      await client.query('rollback');
      await client.end();
      await sleep(200);
      expect(changes.version).toBe(version);
    } finally {
      await changes.close();
    }
    expect(changes.listening).toBe(false);
  });
});
