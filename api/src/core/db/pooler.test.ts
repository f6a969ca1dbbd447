/**
 * PostgreSQL behind PgBouncer in transaction mode: queries go through the pooler (DATABASE_URL),
 * what needs a session of its own through DATABASE_DIRECT_URL: the listener of the public inputs,
 * creating the database, the migrations and their lock. Without DATABASE_DIRECT_URL the start is
 * refused, since the pooler swallows the notifications and the public pages would go stale.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getFreePort } from '@schlosstreffen/infra/dev-services';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ConfigError } from '../config.js';
import { listenForPublicInputs, type PublicInputs } from '../public-list/public-inputs.js';
import { createPublicListReader } from '../public-list/public-vehicle.read.js';
import { createTestContext, insertListedVehicle, type TestContext } from '../../testing/index.js';
import { startDaemon, type Daemon } from '../../testing/daemons.js';
import { adminQuery, databaseUrlFor } from '../../testing/database.js';
import { currentEditionId } from '../../testing/editions.js';
import { migrationsList } from './migrations/index.js';
import { initOrm } from './orm.js';

const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((file) => existsSync(file));

let dir: string;
let pgbouncer: Daemon;
let t: TestContext;
/** A URL of the local PostgreSQL rewritten to go through the pooler. */
let pooled: (url: string) => string;

/** PgBouncer in transaction mode in front of the tests' PostgreSQL, every database passed through. */
async function startPgBouncer(): Promise<Daemon> {
  const target = new URL(inject('services').databaseUrl);
  const port = await getFreePort();
  dir = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
  const user = decodeURIComponent(target.username) || 'postgres';
  await writeFile(path.join(dir, 'users.txt'), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  await writeFile(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      'default_pool_size = 10',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root.
  const asNobody =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })),
        }
      : {};
  await chmod(dir, 0o755);
  pooled = (url) => {
    const through = new URL(url);
    through.host = `127.0.0.1:${port}`;
    return through.toString();
  };
  return startDaemon(PGBOUNCER!, [path.join(dir, 'pgbouncer.ini')], port, asNobody);
}

/** The queries PgBouncer passed on to PostgreSQL for `database`, from its console. */
async function pooledQueries(database: string): Promise<number> {
  const admin = new pg.Client({
    connectionString: databaseUrlFor(pooled(t.services.databaseUrl), 'pgbouncer'),
  });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ database: string; total_query_count: string }>('show stats');
    return Number(rows.find((row) => row.database === database)?.total_query_count ?? 0);
  } finally {
    await admin.end();
  }
}

describe.skipIf(!PGBOUNCER)('behind PgBouncer in transaction mode (needs the pgbouncer package)', () => {
  beforeAll(async () => {
    pgbouncer = await startPgBouncer();
    t = await createTestContext({ through: { database: (url) => pooled(url) }, directDatabase: true });
  }, 30_000);

  afterAll(async () => {
    await t?.close();
    await pgbouncer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves requests through the pooler and hears every change on the direct connection', async () => {
    const database = new URL(t.config.databaseUrl).pathname.slice(1);
    expect(new URL(t.config.databaseUrl).port).toBe(String(pgbouncer.port));
    const before = await pooledQueries(database);
    const owner = await t.signIn();
    const me = await owner.client.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(await pooledQueries(database)).toBeGreaterThan(before);

    let inputs: PublicInputs | undefined;
    try {
      inputs = await listenForPublicInputs(t.config, t.orm.em);
      expect(inputs.listening).toBe(true);
      const em = t.orm.em;
      const read = createPublicListReader(em, () => currentEditionId(em), inputs);
      const brands = async () =>
        (JSON.parse((await read()).body.toString()) as Array<{ brand: string }>).map((car) => car.brand);
      expect(await brands()).not.toContain('Opel');
      // Written through the pooler; the notification reaches the listener and the list is read anew.
      await insertListedVehicle(t, 'Opel');
      await vi.waitFor(async () => expect(await brands()).toContain('Opel'), { timeout: 2000, interval: 50 });
    } finally {
      await inputs?.close();
    }
  });

  it('refuses to start without DATABASE_DIRECT_URL, naming it, and starts so without a pooler', async () => {
    const withoutDirect = { databaseUrl: t.config.databaseUrl, databaseDirectUrl: undefined };
    const refused = listenForPublicInputs(withoutDirect, t.orm.em);
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/DATABASE_URL: notifications .* DATABASE_DIRECT_URL/s);

    const direct = await listenForPublicInputs(
      { databaseUrl: t.env.DATABASE_DIRECT_URL!, databaseDirectUrl: undefined },
      t.orm.em,
    );
    expect(direct.listening).toBe(true);
    await direct.close();
  });

  it('creates and migrates a new database on the direct connection while two processes start at once, and queries it through the pooler', async () => {
    const name = `${t.services.templateDb.replace('template', 'test')}_pooled_${randomBytes(4).toString('hex')}`;
    const direct = databaseUrlFor(t.services.databaseUrl, name);
    try {
      const starts = await Promise.all(
        [1, 2].map(() =>
          initOrm(pooled(direct), { directUrl: direct, pool: { min: 0, max: 2 }, logger: () => undefined }),
        ),
      );
      // The pooler passed none of it on: the database was created and migrated the direct way.
      expect(await pooledQueries(name)).toBe(0);
      for (const orm of starts) {
        const [row] = await orm.em
          .getConnection()
          .execute<{ n: string }[]>('select count(*) as n from mikro_orm_migrations');
        expect(Number(row!.n)).toBe(migrationsList.length);
        await orm.close();
      }
      expect(await pooledQueries(name)).toBe(2);
      // Nobody holds the migration lock afterwards.
      const [held] = await t.orm.em.getConnection().execute<{ n: string }[]>(
        `select count(*) as n from pg_locks
            where locktype = 'advisory' and database = (select oid from pg_database where datname = ?)`,
        [name],
      );
      expect(Number(held!.n)).toBe(0);
    } finally {
      await adminQuery(t.services.databaseUrl, `drop database if exists "${name}" with (force)`);
    }
  }, 60_000);
});
