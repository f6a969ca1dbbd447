import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, registerUser, type TestClient, type TestContext } from '../../testing/index.js';
import { User } from '../../core/accounts/user.entity.js';

/**
 * The staff lists load every row with its relations. Their number of SQL statements must not grow with
 * the number of rows (no N+1): it is measured per request through MikroORM's query log, once with a
 * handful of rows and once with 1000 vehicles and 5000 media.
 */

const OWNERS = 200;
const VEHICLES = 1000;
const MEDIA_PER_VEHICLE = 5;
const SMALL_VEHICLES = 3;
/** Seeded owners carry this as password hash: it must never reach a response. */
const SEEDED_HASH = '$argon2id$v=19$m=65536,t=3,p=4$seeded-secret-hash';

let t: TestContext;
let reviewer: TestClient;
let counting = false;
const queries: string[] = [];

// eslint-disable-next-line no-control-regex
const ANSI = /\x1B\[[0-9;]*m/g;
/** The log lines of executed SQL statements (namespace `query`), colours stripped. */
const sqlLines = () =>
  queries.map((line) => line.replace(ANSI, '')).filter((line) => line.startsWith('[query] '));

/** A log line short enough to read: long parameter lists and column lists collapsed. */
function brief(line: string) {
  const collapsed = line.replace(/\((?:\?, )+\?\)/g, (list) => `(${list.length / 3} params)`);
  return collapsed.length <= 240 ? collapsed : `${collapsed.slice(0, 120)} … ${collapsed.slice(-110)}`;
}

async function measure(path: string) {
  queries.length = 0;
  counting = true;
  const started = performance.now();
  const res = await reviewer.get(path);
  const ms = performance.now() - started;
  counting = false;
  return { res, ms: Math.round(ms), sql: sqlLines() };
}

const execute = (sql: string) => t.orm.em.getConnection().execute(sql, [], 'run');

/** Owners `from`..`to` (emails owner-<n>@seed.test). */
const seedOwners = (from: number, to: number) =>
  execute(`
    insert into users (id, email, password_hash, first_name, last_name, role, created_at, updated_at)
    select gen_random_uuid(), 'owner-' || g || '@seed.test', '${SEEDED_HASH}', 'Owner', 'Nr' || g, 'user',
           now() - g * interval '1 hour', now()
    from generate_series(${from}, ${to}) g`);

/** Vehicles `from`..`to`, vehicle n belonging to owner ((n - 1) % OWNERS) + 1. */
const seedVehicles = (from: number, to: number) =>
  execute(`
    insert into vehicle (id, user_id, title, brand, model, year, status, ps, weight_kg, top_speed_kmh,
                         zero_to_hundred_s, created_at, updated_at)
    select gen_random_uuid(), u.id, b.brand || ' Modell ' || g, b.brand, 'Modell ' || g, 1970 + g % 50,
           (array['draft', 'submitted', 'in_review', 'waitlist', 'invited', 'confirmed', 'rejected'])[g % 7 + 1],
           100 + g % 500, 900 + g % 1500, 150 + g % 200, 3.5 + (g % 80) / 10.0,
           now() - g * interval '1 minute', now()
    from generate_series(${from}, ${to}) g
    cross join lateral (select (array['BMW', 'Audi', 'Porsche', 'VW', 'Opel'])[g % 5 + 1] as brand) b
    join users u on u.email = 'owner-' || ((g - 1) % ${OWNERS} + 1) || '@seed.test'`);

/** Five images for every vehicle that has none yet; the first is the hero. */
const seedMedia = () =>
  execute(`
    insert into media (id, vehicle_id, type, url, is_hero, priority, crop_x, crop_y, scale, approval_status,
                       created_at)
    select gen_random_uuid(), v.id, 'image', '/objects/uploads/' || v.user_id || '/' || gen_random_uuid() || '.jpg',
           p = 0, p, 50, 50, 100, 'auto', v.created_at + p * interval '1 second'
    from vehicle v
    cross join generate_series(0, ${MEDIA_PER_VEHICLE - 1}) p
    where not exists (select 1 from media m where m.vehicle_id = v.id)`);

async function counts() {
  const [row] = await t.orm.em
    .getConnection()
    .execute<{ vehicles: number; media: number }[]>(
      'select (select count(*)::int from vehicle) as vehicles, (select count(*)::int from media) as media',
    );
  return row!;
}

interface Sizes {
  vehicles: { queries: number; ms: number };
  media: { queries: number; ms: number };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;

async function measureBoth(expected: number): Promise<Sizes> {
  const vehicles = await measure('/api/admin/vehicles');
  expect(vehicles.res.status, vehicles.res.text).toBe(200);
  const vehicleList = vehicles.res.data as unknown as Item[];
  expect(vehicleList).toHaveLength(expected);
  console.log(
    `admin vehicles: ${vehicles.sql.length} queries for ${expected} vehicles, ${vehicles.ms} ms\n  ` +
      vehicles.sql.map(brief).join('\n  '),
  );

  const media = await measure('/api/admin/media');
  expect(media.res.status, media.res.text).toBe(200);
  const mediaList = media.res.data as unknown as Item[];
  expect(mediaList).toHaveLength(expected * MEDIA_PER_VEHICLE);
  console.log(
    `admin media: ${media.sql.length} queries for ${expected * MEDIA_PER_VEHICLE} media, ${media.ms} ms\n  ` +
      media.sql.map(brief).join('\n  '),
  );

  checkVehicles(vehicleList, vehicles.res.text);
  checkMedia(mediaList, media.res.text);
  return {
    vehicles: { queries: vehicles.sql.length, ms: vehicles.ms },
    media: { queries: media.sql.length, ms: media.ms },
  };
}

const ownerEmail = /^owner-\d+@seed\.test$/;

function checkVehicles(list: Item[], text: string) {
  expect(text).not.toContain('seeded-secret');
  expect(text).not.toMatch(/password/i);
  expect(new Set(list.map((v) => v.id)).size).toBe(list.length);
  for (const vehicle of list) {
    expect(vehicle.user).toBeTruthy();
    expect(vehicle.user.id).toBe(vehicle.userId);
    expect(vehicle.user.email).toMatch(ownerEmail);
    expect(vehicle.user).not.toHaveProperty('passwordHash');
    expect(vehicle.media).toHaveLength(MEDIA_PER_VEHICLE);
    expect(vehicle.media.map((m: Item) => m.priority)).toEqual([0, 1, 2, 3, 4]);
    expect(vehicle.media.map((m: Item) => m.isHero)).toEqual([true, false, false, false, false]);
    for (const media of vehicle.media) {
      expect(media.vehicleId).toBe(vehicle.id);
      expect(media.url.startsWith(`/objects/uploads/${vehicle.userId}/`)).toBe(true);
    }
  }
}

function checkMedia(list: Item[], text: string) {
  expect(text).not.toContain('seeded-secret');
  expect(text).not.toMatch(/password/i);
  expect(new Set(list.map((m) => m.id)).size).toBe(list.length);
  const perVehicle = new Map<string, number>();
  for (const media of list) {
    expect(media.type).toBe('image');
    expect(media.vehicle).toMatchObject({
      id: media.vehicleId,
      brand: expect.any(String),
      model: expect.stringMatching(/^Modell \d+$/),
      year: expect.any(Number),
    });
    expect(media.user).toBeTruthy();
    expect(media.user.email).toMatch(ownerEmail);
    expect(media.user).not.toHaveProperty('passwordHash');
    expect(media.url.startsWith(`/objects/uploads/${media.user.id}/`)).toBe(true);
    perVehicle.set(media.vehicleId, (perVehicle.get(media.vehicleId) ?? 0) + 1);
  }
  expect([...perVehicle.values()].every((n) => n === MEDIA_PER_VEHICLE)).toBe(true);
}

beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    ormOptions: {
      debug: ['query'],
      logger: (message: string) => {
        if (counting) queries.push(message);
      },
    },
  });
  reviewer = t.client();
  const { user } = await registerUser(reviewer, { firstName: 'Rita', lastName: 'Review' });
  await t.orm.em.fork().nativeUpdate(User, { id: (user as { id: string }).id }, { role: 'reviewer' });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

describe('query log', () => {
  it('writes exactly one line per executed statement, transaction control included', async () => {
    queries.length = 0;
    counting = true;
    const connection = t.orm.em.getConnection();
    await connection.execute('select 1');
    await connection.execute('select 2');
    await t.orm.em
      .fork()
      .transactional((em) => em.getConnection().execute('select 3', [], 'all', em.getTransactionContext()));
    counting = false;
    expect(sqlLines().map((line) => line.replace(/ \[took .*$/, ''))).toEqual([
      '[query] select 1',
      '[query] select 2',
      '[query] begin',
      '[query] select 3',
      '[query] commit',
    ]);
  });
});

describe('staff lists use a constant number of queries', () => {
  it(`stays the same from ${SMALL_VEHICLES} to ${VEHICLES} vehicles and from ${SMALL_VEHICLES * MEDIA_PER_VEHICLE} to ${VEHICLES * MEDIA_PER_VEHICLE} media`, async () => {
    await seedOwners(1, SMALL_VEHICLES);
    await seedVehicles(1, SMALL_VEHICLES);
    await seedMedia();
    expect(await counts()).toEqual({ vehicles: SMALL_VEHICLES, media: SMALL_VEHICLES * MEDIA_PER_VEHICLE });
    const small = await measureBoth(SMALL_VEHICLES);

    await seedOwners(SMALL_VEHICLES + 1, OWNERS);
    await seedVehicles(SMALL_VEHICLES + 1, VEHICLES);
    await seedMedia();
    await execute('analyze users; analyze vehicle; analyze media');
    expect(await counts()).toEqual({ vehicles: VEHICLES, media: VEHICLES * MEDIA_PER_VEHICLE });
    const large = await measureBoth(VEHICLES);

    console.log(
      [
        `admin vehicles: ${small.vehicles.queries} queries for ${SMALL_VEHICLES} vehicles (${small.vehicles.ms} ms), ` +
          `${large.vehicles.queries} queries for ${VEHICLES} vehicles (${large.vehicles.ms} ms)`,
        `admin media: ${small.media.queries} queries for ${SMALL_VEHICLES * MEDIA_PER_VEHICLE} media (${small.media.ms} ms), ` +
          `${large.media.queries} queries for ${VEHICLES * MEDIA_PER_VEHICLE} media (${large.media.ms} ms)`,
      ].join('\n'),
    );
    expect(large.vehicles.queries).toBe(small.vehicles.queries);
    expect(large.media.queries).toBe(small.media.queries);
    // Session, user and the list itself: a handful, nowhere near one per row.
    expect(large.vehicles.queries).toBeGreaterThan(0);
    expect(large.vehicles.queries).toBeLessThanOrEqual(5);
    expect(large.media.queries).toBeGreaterThan(0);
    expect(large.media.queries).toBeLessThanOrEqual(5);
  });
});
