/** The SQL of settings. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from '../db/db.queries.js';

/** Writes a setting (JSON), in the caller's transaction. */
export async function upsertSetting(em: EntityManager, key: string, value: unknown): Promise<void> {
  await runStatement(
    em,
    `insert into setting (key, value, updated_at) values (?, ?::jsonb, now())
         on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
