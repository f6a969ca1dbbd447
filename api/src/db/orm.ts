import type { MigrationInfo } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

export function createOrmConfig(databaseUrl: string, overrides: Options = {}): Options {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    ensureDatabase: true,
    migrations: {
      migrationsList,
      // Only `migration:create` writes files; running migrations never does.
      path: 'api/src/db/migrations',
      emit: 'ts',
      snapshot: false,
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: 10 },
    debug: false,
    ...overrides,
  });
}

/** Key of the advisory lock that serialises migrations across processes ('STMG'). */
const MIGRATION_LOCK_KEY = 0x5354_4d47;

/** PostgreSQL's answer when two processes create the same database at once. */
const isCreateDatabaseRace = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/**
 * Creates the database when missing and applies pending migrations. API, worker and the CLI may run
 * it together (npm start, several replicas): migrations run under an advisory lock, so one process
 * applies them and the others wait and then find nothing pending.
 */
export async function migrate(orm: Orm): Promise<MigrationInfo[]> {
  await orm.schema.ensureDatabase().catch((error: unknown) => {
    // Another process created it a moment earlier: it exists now.
    if (!isCreateDatabaseRace(error)) throw error;
  });
  // A connection of its own holds the lock, so a small pool can never starve the migrator.
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await orm.migrator.up();
  } finally {
    // Ending the session releases the lock.
    await lock.end();
  }
}

/** Connects and, unless told otherwise, creates the database when missing and migrates it. */
export async function initOrm(
  databaseUrl: string,
  { migrate: shouldMigrate = true, ...overrides }: Options & { migrate?: boolean } = {},
): Promise<Orm> {
  const orm = await MikroORM.init(createOrmConfig(databaseUrl, overrides));
  if (shouldMigrate) await migrate(orm);
  return orm;
}
