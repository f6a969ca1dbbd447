import type { MigrationInfo } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

/** Options of the pg pool: while PostgreSQL is away, a request learns it within seconds. */
export const DRIVER_OPTIONS = { connectionTimeoutMillis: 3000 };

export function createOrmConfig(databaseUrl: string, overrides: Options = {}): Options {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    // Created by `ensureDatabase` below: MikroORM's own check switches the connection to the
    // management database to create it, and stays there when another process won the race.
    ensureDatabase: false,
    migrations: {
      migrationsList,
      // Only `migration:create` writes files; running migrations never does.
      path: 'api/src/core/db/migrations',
      emit: 'ts',
      snapshot: false,
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: 10 },
    driverOptions: DRIVER_OPTIONS,
    debug: false,
    ...overrides,
  });
}

/** Key of the advisory lock that serialises migrations across processes ('STMG'). */
const MIGRATION_LOCK_KEY = 0x5354_4d47;

/** PostgreSQL's answers when two processes create the same database at once. */
const isCreateDatabaseRace = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  (error.code === '23505' || error.code === '42P04');

/**
 * Creates the database of `databaseUrl` when it is missing, from the management database
 * (`postgres`). API, worker and the CLI may try at once: the losers find it created.
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    await admin.query(`create database ${admin.escapeIdentifier(name)}`).catch((error: unknown) => {
      if (!isCreateDatabaseRace(error)) throw error;
    });
  } finally {
    await admin.end();
  }
}

/**
 * Applies pending migrations. API, worker and the CLI may run it together (npm start, several
 * replicas): migrations run under an advisory lock, so one process applies them and the others wait
 * and then find nothing pending.
 */
export async function migrate(orm: Orm): Promise<MigrationInfo[]> {
  // A connection of its own holds the lock, so a small pool can never starve the migrator. The lock
  // is its transaction's: it ends with the transaction or the connection, also behind a pooler.
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('begin');
    await lock.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    return await orm.migrator.up();
  } finally {
    await lock.query('rollback').catch(() => undefined);
    await lock.end();
  }
}

/**
 * Connects and, unless told otherwise, creates the database when missing and migrates it. With
 * `directUrl` (a connection past the pooler of `databaseUrl`) both happen there.
 */
export async function initOrm(
  databaseUrl: string,
  {
    migrate: shouldMigrate = true,
    directUrl,
    ...overrides
  }: Options & { migrate?: boolean; directUrl?: string | undefined } = {},
): Promise<Orm> {
  if (shouldMigrate) await ensureDatabase(directUrl ?? databaseUrl);
  const orm = await MikroORM.init(createOrmConfig(databaseUrl, overrides));
  if (shouldMigrate && directUrl) {
    const direct = await MikroORM.init(
      createOrmConfig(directUrl, { ...overrides, pool: { min: 0, max: 2 }, driverOptions: DRIVER_OPTIONS }),
    );
    await migrate(direct).finally(() => direct.close());
  } else if (shouldMigrate) await migrate(orm);
  return orm;
}
