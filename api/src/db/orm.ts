import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
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

/** Connects, creates the database when missing and applies pending migrations. */
export async function initOrm(
  databaseUrl: string,
  { migrate = true, ...overrides }: Options & { migrate?: boolean } = {},
): Promise<Orm> {
  const orm = await MikroORM.init(createOrmConfig(databaseUrl, overrides));
  if (migrate) await orm.migrator.up();
  return orm;
}
