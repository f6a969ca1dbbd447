/** The backup's SQL: what a snapshot holds, and what a restore changes afterwards. */
import type { ClientBase } from 'pg';
import { keyOf, mediaObjectKeys } from '../../core/storage/objects.js';

/** Every object key the database names, read in the snapshot's transaction. */
export async function namedKeys(client: ClientBase): Promise<string[]> {
  const keys = new Set<string>();
  const media = await client.query<{ id: string; url: string; upload_key: string | null }>(
    'select id, url, upload_key from media',
  );
  for (const row of media.rows) {
    for (const key of mediaObjectKeys({ id: row.id, url: row.url, uploadKey: row.upload_key })) keys.add(key);
  }
  const sets = await client.query<{ url: string }>(
    'select export_file_url as url from quartett_set where export_file_url is not null',
  );
  for (const row of sets.rows) {
    const key = keyOf(row.url);
    if (key) keys.add(key);
  }
  const exports = await client.query<{ key: string }>(
    'select object_key as key from data_export where object_key is not null',
  );
  for (const row of exports.rows) keys.add(row.key);
  const uploads = await client.query<{ key: string }>('select key from upload');
  for (const row of uploads.rows) keys.add(row.key);
  // What the site links beside the photos: the cars' link previews, the award's and the jury's
  // certificates and the windshield sign PDFs.
  const shares = await client.query<{ key: string }>(
    'select share_image as key from public_vehicle where share_image is not null',
  );
  for (const row of shares.rows) keys.add(row.key);
  const certificates = await client.query<{ key: string }>(
    `select value as key from award, jsonb_each_text(award.certificates) where award.certificates is not null`,
  );
  for (const row of certificates.rows) keys.add(row.key);
  const juryCertificates = await client.query<{ key: string }>(
    'select certificates_key as key from jury where certificates_key is not null',
  );
  for (const row of juryCertificates.rows) keys.add(row.key);
  const signs = await client.query<{ key: string }>(
    'select file_key as key from sign_export where file_key is not null',
  );
  for (const row of signs.rows) keys.add(row.key);
  return [...keys].sort();
}

/** Rows per table of the public schema. */
export async function countRows(client: ClientBase): Promise<Record<string, number>> {
  const tables = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from public."${name.replaceAll('"', '""')}"`,
    );
    counts[name] = Number(rows[0]!.n);
  }
  return counts;
}

export async function appliedMigrations(client: ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ t: string | null }>(
    `select to_regclass('public.mikro_orm_migrations')::text as t`,
  );
  if (!rows[0]?.t) return [];
  const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id');
  return applied.rows.map((row) => row.name);
}

/** Ends every session: after a restore everyone signs in again. Returns how many there were. */
export async function endSessions(client: ClientBase): Promise<number> {
  return (await client.query('delete from session')).rowCount ?? 0;
}

/** Marks the outbox rows created since `since` unpublished, so the relay queues them again. */
export async function requeueOutbox(
  client: ClientBase,
  since: Date,
): Promise<Array<{ id: string; job: string }>> {
  const { rows } = await client.query<{ id: string; job: string }>(
    'update outbox set published_at = null where created_at >= $1 returning id, job',
    [since],
  );
  return rows;
}

/** Connections to a database besides the asking one (which is connected elsewhere). */
export async function connectionCount(client: ClientBase, database: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    'select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  );
  return Number(rows[0]!.n);
}
