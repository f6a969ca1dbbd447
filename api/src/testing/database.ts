import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function listDatabases(adminUrl: string, pattern: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [pattern],
    );
    return result.rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** Clones the migrated template; PostgreSQL refuses concurrent copies of one template, so retry. */
export async function cloneDatabase(adminUrl: string, template: string, name: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(adminUrl, `create database "${name}" template "${template}"`);
      return databaseUrlFor(adminUrl, name);
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
      await sleep(50 + Math.random() * 150);
    }
  }
}
