import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, registerUser, type TestClient, type TestContext } from '../../testing/index.js';
import { User } from '../../core/model/user.entity.js';

/**
 * The staff lists come in keyset pages with their counts. Their number of SQL statements must not
 * grow with the number of rows (no N+1, no per-page growth): it is measured per request through
 * MikroORM's query log, once with a handful of rows and once with 1000 vehicles and 5000 media.
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
    insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg, top_speed_kmh,
                         zero_to_hundred_s, created_at, updated_at)
    select gen_random_uuid(), u.id, (select id from edition order by year limit 1), b.brand || ' Modell ' || g, b.brand, 'Modell ' || g, 1970 + g % 50,
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;

/** The paths measured: first pages, a filtered and searched page, and a following page. */
async function paths() {
  const first = await reviewer.get('/api/admin/vehicles');
  const media = await reviewer.get('/api/admin/media');
  const vehicleCursor = (first.data as Item).nextCursor as string | null;
  const mediaCursor = (media.data as Item).nextCursor as string | null;
  return {
    vehicles: '/api/admin/vehicles',
    vehiclesFiltered: '/api/admin/vehicles?status=submitted&q=modell%201&sort=brand',
    vehiclesNext: vehicleCursor
      ? `/api/admin/vehicles?cursor=${vehicleCursor}`
      : '/api/admin/vehicles?sort=oldest',
    media: '/api/admin/media',
    mediaNext: mediaCursor ? `/api/admin/media?cursor=${mediaCursor}` : '/api/admin/media?limit=1',
  };
}

/** Statements per request for each path. */
async function measureAll(label: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const [name, path] of Object.entries(await paths())) {
    const { res, ms, sql } = await measure(path);
    expect(res.status, res.text).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThan(100 * 1024);
    console.log(`${label} ${name}: ${sql.length} queries, ${ms} ms\n  ${sql.map(brief).join('\n  ')}`);
    result[name] = sql.length;
  }
  return result;
}

/** Every page of a list, following the cursors. */
async function walk(path: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await reviewer.get(cursor ? `${path}${separator}cursor=${cursor}` : path);
    expect(res.status, res.text).toBe(200);
    const page = res.data as Item;
    items.push(...(page.items as Item[]));
    cursor = page.nextCursor as string | null;
  } while (cursor);
  return items;
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
    const small = await measureAll('small');

    await seedOwners(SMALL_VEHICLES + 1, OWNERS);
    await seedVehicles(SMALL_VEHICLES + 1, VEHICLES);
    await seedMedia();
    await execute('analyze users; analyze vehicle; analyze media');
    expect(await counts()).toEqual({ vehicles: VEHICLES, media: VEHICLES * MEDIA_PER_VEHICLE });
    const large = await measureAll('large');

    console.log(`statements per request: small ${JSON.stringify(small)}, large ${JSON.stringify(large)}`);
    expect(large).toEqual(small);
    for (const count of Object.values(large)) {
      // Session, user, the editions (read at every request here; at most every 5 s in a running
      // app), the page with its counts, its rows: a handful, nowhere near one per row.
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(7);
    }
  });

  it('pages through every vehicle once, in order, with the owner and media of each', async () => {
    const all = await walk('/api/admin/vehicles?limit=50');
    expect(all).toHaveLength(VEHICLES);
    checkVehicles(all, JSON.stringify(all));
    const created = all.map((vehicle) => vehicle.createdAt as string);
    expect([...created].sort().reverse()).toEqual(created);

    const oldest = await walk('/api/admin/vehicles?limit=50&sort=oldest');
    expect(oldest.map((vehicle) => vehicle.id)).toEqual(all.map((vehicle) => vehicle.id).reverse());

    const byBrand = await walk('/api/admin/vehicles?limit=50&sort=brand&status=waitlist');
    const [expected] = await t.orm.em
      .getConnection()
      .execute<{ ids: string[] }[]>(
        `select array_agg(id order by brand, model, id) as ids from vehicle where status = 'waitlist'`,
      );
    expect(byBrand.map((vehicle) => vehicle.id)).toEqual(expected!.ids);
  });

  it('counts per status for the search, whatever the tab, and searches brand, model and owner names', async () => {
    const rows = await t.orm.em.getConnection().execute<{ status: string; n: number }[]>(
      `select status, count(*)::int as n from vehicle v
          where v.model ilike '%modell 1%' or v.brand ilike '%modell 1%'
             or v.user_id in (select id from users where first_name ilike '%modell 1%' or last_name ilike '%modell 1%')
          group by status`,
    );
    const expected = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    const res = await reviewer.get('/api/admin/vehicles?status=invited&q=MODELL%201');
    expect(res.status).toBe(200);
    const page = res.data as Item;
    const total = rows.reduce((sum, row) => sum + row.n, 0);
    expect(page.counts).toMatchObject({ ...expected, all: total });
    expect((page.items as Item[]).every((vehicle) => vehicle.status === 'invited')).toBe(true);
    expect((page.items as Item[]).every((vehicle) => /modell 1/i.test(vehicle.model))).toBe(true);

    // Owner names: owner 7 is 'Owner Nr7', whose vehicles are 7, 207, 407, …
    const owner = await walk('/api/admin/vehicles?q=nr7');
    const [ownerRows] = await t.orm.em.getConnection().execute<{ n: number }[]>(
      `select count(*)::int as n from vehicle v join users u on u.id = v.user_id
          where u.last_name ilike '%nr7%' or v.brand ilike '%nr7%' or v.model ilike '%nr7%'`,
    );
    expect(owner.length).toBe(ownerRows!.n);
    expect(owner.length).toBeGreaterThan(0);
    // A wildcard is text, not a pattern.
    const percent = await reviewer.get('/api/admin/vehicles?q=%25');
    expect((percent.data as Item).counts.all).toBe(0);
  });

  it('pages through every image once, newest first, with the total', async () => {
    const all = await walk('/api/admin/media?limit=100');
    expect(all).toHaveLength(VEHICLES * MEDIA_PER_VEHICLE);
    checkMedia(all, JSON.stringify(all));
    const first = await reviewer.get('/api/admin/media');
    expect((first.data as Item).total).toBe(VEHICLES * MEDIA_PER_VEHICLE);
  });

  it('answers bad parameters with 400 and a German message', async () => {
    for (const path of [
      '/api/admin/vehicles?status=unknown',
      '/api/admin/vehicles?sort=price',
      '/api/admin/vehicles?limit=0',
      '/api/admin/vehicles?limit=51',
      '/api/admin/vehicles?limit=abc',
      '/api/admin/vehicles?status=all&status=submitted',
      `/api/admin/vehicles?q=${'x'.repeat(201)}`,
      '/api/admin/vehicles?cursor=not-a-cursor',
      `/api/admin/vehicles?cursor=${Buffer.from('["media","1","x"]').toString('base64url')}`,
      '/api/admin/media?cursor=%21%21',
      '/api/admin/media?limit=101',
      '/api/admin/vehicles.csv?status=unknown',
    ]) {
      const res = await reviewer.get(path);
      expect(res.status, path).toBe(400);
      expect((res.data as Item).message, path).toMatch(/[äöüÄÖÜß]|Seite|Status|Sortierung|Suchbegriff/);
    }
    // A cursor of one sort does not continue another.
    const first = await reviewer.get('/api/admin/vehicles?limit=1');
    const res = await reviewer.get(
      `/api/admin/vehicles?sort=brand&cursor=${(first.data as Item).nextCursor}`,
    );
    expect(res.status).toBe(400);
  });
});
