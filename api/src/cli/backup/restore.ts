/**
 * backup:restore: a verified backup into the database and bucket the environment names. Then the
 * installation starts as it was, sessions excepted; the outbox rows of the day before the snapshot
 * are queued again (jobs are safe to run twice), and every erasure of the journal that the snapshot
 * did not see is made again, in order.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { JobName, RetentionPeriods } from '@schlosstreffen/shared';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { ErasureEntry, ErasureKind } from '../../core/model/erasure-journal.entity.js';
import { replayingErasure } from '../../core/outbox/erasure-journal.js';
import { journaledIdsSince } from '../../core/outbox/outbox.queries.js';
import {
  byMoment,
  readLegacyJournal,
  type ErasureJournalStore,
} from '../../core/storage/erasure-journal-store.js';
import { initOrm } from '../../core/db/orm.js';
import { closeQueues, createQueues, queueFor } from '../../core/outbox/queues.js';
import { ensureBucket } from '../../core/storage/s3.js';
import { WEB_ASSETS_PREFIX } from '../../core/storage/objects.js';
import { connectionCount, countRows, endSessions, requeueOutbox } from './backup.queries.js';
import { DUMP_FILE, formatBytes, readManifest, throttled, verifyBackup } from './manifest.js';
import { findTool, runTool, serverMajor, toolConnection } from './postgres-tools.js';

/** Outbox rows this long before the snapshot are queued again on the first start after a restore. */
export const REQUEUE_HOURS = 24;

export interface RestoreOptions {
  dir: string;
  databaseUrl: string;
  redis: Redis;
  redisPrefix: string;
  s3: S3Client;
  bucket: string;
  /**
   * Replaces a database that holds rows beyond what migrating an empty one writes, or that someone
   * is connected to, and writes into a non-empty bucket.
   */
  force?: boolean;
  /** The erasure journal in shared storage to replay; none when unset. */
  journal?: ErasureJournalStore;
  /** A journal file of earlier versions (`erasures.jsonl`), replayed too when it exists. */
  legacyJournal?: string;
  /** Retention's periods, for replaying retention runs. */
  retention: RetentionPeriods;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  concurrency?: number;
}

export interface RestoreReport {
  createdDatabase: boolean;
  /** Rows per table right after pg_restore (equal to the manifest, or the restore fails). */
  tables: Record<string, number>;
  objects: number;
  bytes: number;
  sessionsEnded: number;
  requeued: number;
  /** The erasures made again, in order. */
  replayed: ErasureEntry[];
}

function adminUrl(databaseUrl: string): { admin: string; name: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  return { admin: url.toString(), name };
}

/** Connections to a database other than the asking one's (the app's, a psql session's). */
async function connectionsTo(databaseUrl: string): Promise<number> {
  const { admin, name } = adminUrl(databaseUrl);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await connectionCount(client, name);
  } finally {
    await client.end();
  }
}

/** Whether the target database exists. */
async function databaseExists(databaseUrl: string): Promise<boolean> {
  const { admin, name } = adminUrl(databaseUrl);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return Boolean((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  } finally {
    await client.end();
  }
}

/** Rows per table of a database. */
async function rowsOf(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await countRows(client);
  } finally {
    await client.end();
  }
}

/**
 * The tables of the target holding more rows than migrating an empty database writes (a scratch
 * database beside it is migrated to compare): what a restore would destroy.
 */
async function rowsBeyondMigrations(databaseUrl: string): Promise<string[]> {
  const rows = await rowsOf(databaseUrl);
  if (Object.values(rows).every((n) => n === 0)) return [];
  const scratch = new URL(databaseUrl);
  scratch.pathname = `${scratch.pathname}_baseline_${randomBytes(4).toString('hex')}`;
  let baseline: Record<string, number>;
  try {
    // Quiet: the migrator's steps of a scratch database are nobody's concern.
    await (await initOrm(scratch.toString(), { pool: { min: 0, max: 2 }, logger: () => undefined })).close();
    baseline = await rowsOf(scratch.toString());
  } finally {
    const { admin, name } = adminUrl(scratch.toString());
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client
      .query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`)
      .finally(() => client.end());
  }
  // Accounts first (what an operator recognises), then the tables holding the most rows.
  const rank = (table: string) => (table === 'users' ? 0 : 1);
  return Object.entries(rows)
    .filter(([table, n]) => table !== 'mikro_orm_migrations' && n > (baseline[table] ?? 0))
    .sort(([a, m], [b, n]) => rank(a) - rank(b) || n - m || a.localeCompare(b))
    .map(([table, n]) => `${table}: ${n}`);
}

async function recreateDatabase(databaseUrl: string, drop: boolean): Promise<void> {
  const { admin, name } = adminUrl(databaseUrl);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const ident = client.escapeIdentifier(name);
    if (drop) await client.query(`drop database if exists ${ident} with (force)`);
    await client.query(`create database ${ident}`);
  } finally {
    await client.end();
  }
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const { log } = options;
  const dir = path.resolve(options.dir);
  log(`verifying ${dir}`);
  const progress = throttled(2000, log);
  const verified = await verifyBackup(dir, (done, total, bytes) =>
    progress(`verified ${done}/${total} files (${formatBytes(bytes)})`, done === total),
  );
  if (verified.problems.length) {
    throw new Error(
      `the backup does not verify, nothing was restored:\n  ${verified.problems.slice(0, 20).join('\n  ')}`,
    );
  }
  const manifest = await readManifest(dir);

  // Refuse before anything is changed.
  const exists = await databaseExists(options.databaseUrl);
  const { name } = adminUrl(options.databaseUrl);
  if (exists && !options.force) {
    const connections = await connectionsTo(options.databaseUrl);
    if (connections > 0) {
      throw new Error(
        `the database ${name} has ${connections} open ${connections === 1 ? 'connection' : 'connections'}: ` +
          'stop everything that uses it (api, worker, backup service) first, or add --force to replace it anyway',
      );
    }
    const beyond = await rowsBeyondMigrations(options.databaseUrl);
    if (beyond.length) {
      throw new Error(
        `the database ${name} holds rows beyond what migrating an empty database writes (${beyond.slice(0, 6).join(', ')}` +
          `${beyond.length > 6 ? ', …' : ''}); restore into a new database, or add --force to replace it`,
      );
    }
  }
  await ensureBucket(options.s3, options.bucket);
  // One page of the listing as the server gives it: the embedded S3 of development cannot cut a
  // listing short (its continuation tokens need DES, which Node's OpenSSL no longer offers). The web
  // assets an api stored at its start are no data; their prefix sorts after every other.
  const listed = await options.s3.send(new ListObjectsV2Command({ Bucket: options.bucket }));
  const held = (listed.Contents ?? []).filter((object) => !object.Key?.startsWith(WEB_ASSETS_PREFIX));
  if (held.length > 0 && !options.force) {
    throw new Error(
      `the bucket ${options.bucket} is not empty; restore into an empty bucket, or add --force to write over it`,
    );
  }

  // The database: new, with the backup's schema and rows.
  await recreateDatabase(options.databaseUrl, exists);
  log(exists ? `database ${name} replaced` : `database ${name} created`);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let tables: Record<string, number>;
  try {
    const pgRestore = await findTool('pg_restore', await serverMajor(client), options.env);
    const tool = toolConnection(options.databaseUrl);
    log(`restoring the database with ${pgRestore}`);
    await runTool(
      pgRestore,
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${tool.url}`, path.join(dir, DUMP_FILE)],
      tool.env,
    );
    tables = await countRows(client);
    const differs = Object.keys({ ...tables, ...manifest.tables }).filter(
      (table) => tables[table] !== manifest.tables[table],
    );
    if (differs.length) {
      throw new Error(
        `the restored database differs from the manifest: ${differs
          .map(
            (table) =>
              `${table} has ${tables[table] ?? 'no table'}, manifest ${manifest.tables[table] ?? 'none'}`,
          )
          .join('; ')}`,
      );
    }
    log(`database restored: ${Object.keys(tables).length} tables, row counts as in the manifest`);
  } finally {
    await client.end();
  }

  // The objects.
  let bytes = 0;
  let done = 0;
  const queue = [...manifest.objects];
  const put = async () => {
    for (let object = queue.shift(); object; object = queue.shift()) {
      await options.s3.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: object.key,
          Body: createReadStream(path.join(dir, ...object.path.split('/'))),
          ContentLength: object.size,
          ContentType: object.contentType,
          CacheControl: object.cacheControl,
          Metadata: object.metadata,
        }),
      );
      done += 1;
      bytes += object.size;
      progress(
        `objects ${done}/${manifest.objects.length} restored (${formatBytes(bytes)})`,
        done === manifest.objects.length,
      );
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, put));

  // Sessions end; the day's jobs before the snapshot go out again on the first start.
  const since = new Date(Date.parse(manifest.createdAt) - REQUEUE_HOURS * 3600_000);
  const orm = await initOrm(options.databaseUrl, { pool: { min: 0, max: 2 } });
  try {
    const after = new pg.Client({ connectionString: options.databaseUrl });
    await after.connect();
    let sessionsEnded: number;
    let requeued: Array<{ id: string; job: string }>;
    try {
      sessionsEnded = await endSessions(after);
      requeued = await requeueOutbox(after, since);
    } finally {
      await after.end();
    }
    // Jobs of the same ids that the queues still remember would keep the relay's copies out.
    const queues = createQueues(options.redis, options.redisPrefix);
    try {
      for (const row of requeued)
        await queueFor(queues, row.job as JobName)
          .remove(row.id)
          .catch(() => 0);
    } finally {
      await closeQueues(queues);
    }
    log(
      `${sessionsEnded} sessions ended (everyone signs in again); ${requeued.length} outbox rows since ` +
        `${since.toISOString()} queued again for the first start`,
    );
    const replayed = await replayErasures(orm, options, manifest.createdAt);
    return {
      createdDatabase: !exists,
      tables,
      objects: manifest.objects.length,
      bytes,
      sessionsEnded,
      requeued: requeued.length,
      replayed,
    };
  } finally {
    await orm.close();
  }
}

/** Before its snapshot, entries whose rows a restored database lacks were committed after it. */
const SNAPSHOT_MARGIN_MS = 24 * 3600 * 1000;

/**
 * Makes again, in order, every erasure of the journal that the snapshot did not see: those from the
 * day before it whose rows the restored database lacks (committed after the snapshot was taken),
 * and every later one. Each is recorded in the restored database under its entry's id. Returns them.
 */
async function replayErasures(
  orm: Awaited<ReturnType<typeof initOrm>>,
  options: RestoreOptions,
  snapshotAt: string,
): Promise<ErasureEntry[]> {
  if (!options.journal && !options.legacyJournal) {
    options.log('no erasure journal (no BACKUP_S3_*, no BACKUP_DIR, no --journal): nothing to replay');
    return [];
  }
  const since = new Date(Date.parse(snapshotAt) - SNAPSHOT_MARGIN_MS);
  const seen = await journaledIdsSince(orm.em.fork(), since);
  const shared = options.journal
    ? (await options.journal.list()).filter((entry) => entry.at >= since.toISOString() && !seen.has(entry.id))
    : [];
  const legacy = options.legacyJournal
    ? (await readLegacyJournal(options.legacyJournal)).filter((entry) => entry.at > snapshotAt)
    : [];
  const entries = [...shared, ...legacy].sort(byMoment);

  const { deleteAccount } = await import('../../core/accounts/account-deletion.js');
  const { replayConsentWithdrawal } = await import('../../core/accounts/consents.js');
  const { deleteVisitorRegistration } = await import('../../core/visitors/visitor.service.js');
  const { runRetention } = await import('../../core/privacy/retention.js');
  const { deleteVoter } = await import('../../core/award/award.js');
  const { replayApplicationDeletion } = await import('../../core/vehicles/vehicle.service.js');
  const { replayPhotoDeletion } = await import('../../core/media/media.service.js');
  const replay = (entry: ErasureEntry): Promise<unknown> => {
    const em = orm.em.fork();
    if (entry.kind === 'retention')
      return runRetention(em, { asOf: new Date(entry.asOf), periods: options.retention });
    const subject = entry.subject;
    switch (entry.kind) {
      case 'account':
        return deleteAccount(em, subject);
      case 'visitor':
        return deleteVisitorRegistration(em, subject);
      case 'award-voter':
        return deleteVoter(em, subject);
      case 'consent':
        return replayConsentWithdrawal(em, subject);
      case 'application':
        return replayApplicationDeletion(em, subject);
      case 'photo':
        return replayPhotoDeletion(em, subject);
    }
  };
  const counts = new Map<ErasureKind, number>();
  for (const entry of entries) {
    // An entry of the journal file of earlier versions has no row id: its replay is journaled anew.
    if (entry.id.includes(':')) await replay(entry);
    else await replayingErasure(entry, () => replay(entry));
    counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
    options.log(
      `replayed ${entry.kind} erasure of ${entry.at}: ${entry.kind === 'retention' ? `retention as of ${entry.asOf}` : entry.subject}`,
    );
  }
  const byKind = [...counts].map(([kind, n]) => `${kind} ${n}`).join(', ');
  options.log(
    `erasure journal (${[options.journal?.description, options.legacyJournal].filter(Boolean).join(', ')}): ` +
      `${entries.length} ${entries.length === 1 ? 'erasure' : 'erasures'} after the snapshot replayed${byKind ? ` (${byKind})` : ''}`,
  );
  return entries;
}
