import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, databaseUrlFor } from '../../testing/database.js';
import '../../testing/services.js';
import { migrationsList } from './migrations/index.js';
import { initOrm } from './orm.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const services = inject('services');
const name = `${services.templateDb.replace('template', 'test')}_start_${randomBytes(4).toString('hex')}`;
const url = databaseUrlFor(services.databaseUrl, name);

/** One process that starts like the API or the worker: connect, create if missing, migrate. */
const START = `
  import(${JSON.stringify(path.join(root, 'api/src/core/db/orm.ts'))})
    .then(({ initOrm }) => initOrm(process.argv.at(-1), { pool: { min: 0, max: 2 } }))
    .then(async (orm) => {
      // The database the process ended up on (a lost creation race must not leave it elsewhere).
      const [row] = await orm.em.getConnection().execute('select current_database() as name');
      console.log(row.name);
      await orm.close();
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
`;

afterAll(async () => {
  await adminQuery(services.databaseUrl, `drop database if exists "${name}" with (force)`);
});

describe('starting several processes on a new database', () => {
  it('creates and migrates it once while API and workers start at the same time', async () => {
    const tsx = path.join(root, 'node_modules/.bin/tsx');
    const started = await Promise.allSettled(
      [1, 2, 3].map(() =>
        run(tsx, ['--conditions=source', '--eval', START, '--', url], { cwd: root, timeout: 60_000 }),
      ),
    );
    expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect(
      started.map((result) =>
        result.status === 'fulfilled' ? result.value.stdout.trim().split('\n').at(-1) : '',
      ),
    ).toEqual([name, name, name]);

    const orm = await initOrm(url, { pool: { min: 0, max: 1 } });
    try {
      const rows = await orm.em
        .getConnection()
        .execute<{ n: string }[]>('select count(*) as n from mikro_orm_migrations');
      expect(Number(rows[0]!.n)).toBe(migrationsList.length);
    } finally {
      await orm.close();
    }
  }, 90_000);
});
