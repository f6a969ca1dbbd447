/**
 * backup:restore: a verified backup into the database and bucket the environment names. Then the
 * installation starts as it was, sessions excepted; the outbox rows of the day before the snapshot
 * are queued again (jobs are safe to run twice), and erasures journaled after the snapshot are made
 * again.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { JobName, RetentionPeriods } from '@schlosstreffen/shared';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { readErasureJournal, type ErasureEntry } from '../../core/erasure-journal.js';
import { initOrm } from '../../core/db/orm.js';
import { closeQueues, createQueues, queueFor } from '../../core/outbox/queues.js';
import { ensureBucket } from '../../core/storage/s3.js';
import { accountsAndApplications, countRows, endSessions, requeueOutbox } from './backup.queries.js';
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
  /** Replaces a database that holds accounts or applications, and writes into a non-empty bucket. */
  force?: boolean;
  /** The erasure journal to replay; none when unset or missing. */
  journal?: string;
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
  replayed: ErasureEntry[];
}

function adminUrl(databaseUrl: string): { admin: string; name: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  return { admin: url.toString(), name };
}

/** What the target database holds: nothing (missing), or its accounts and applications. */
async function targetState(
  databaseUrl: string,
): Promise<'missing' | { accounts: number; applications: number }> {
  const { admin, name } = adminUrl(databaseUrl);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!found.rowCount) return 'missing';
  } finally {
    await client.end();
  }
  const target = new pg.Client({ connectionString: databaseUrl });
  await target.connect();
  try {
    return await accountsAndApplications(target);
  } finally {
    await target.end();
  }
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
  const state = await targetState(options.databaseUrl);
  const { name } = adminUrl(options.databaseUrl);
  if (state !== 'missing' && (state.accounts > 0 || state.applications > 0) && !options.force) {
    throw new Error(
      `the database ${name} holds ${state.accounts} accounts and ${state.applications} applications; ` +
        'restore into a new database, or add --force to replace it',
    );
  }
  await ensureBucket(options.s3, options.bucket);
  const listed = await options.s3.send(new ListObjectsV2Command({ Bucket: options.bucket, MaxKeys: 1 }));
  if ((listed.Contents?.length ?? 0) > 0 && !options.force) {
    throw new Error(
      `the bucket ${options.bucket} is not empty; restore into an empty bucket, or add --force to write over it`,
    );
  }

  // The database: new, with the backup's schema and rows.
  await recreateDatabase(options.databaseUrl, state !== 'missing');
  log(state === 'missing' ? `database ${name} created` : `database ${name} replaced`);
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
      createdDatabase: state === 'missing',
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

/** Makes again every erasure the journal holds from after the snapshot; returns them. */
async function replayErasures(
  orm: Awaited<ReturnType<typeof initOrm>>,
  options: RestoreOptions,
  snapshotAt: string,
): Promise<ErasureEntry[]> {
  if (!options.journal) {
    options.log('no erasure journal (BACKUP_DIR unset, no --journal): nothing to replay');
    return [];
  }
  const entries = (await readErasureJournal(options.journal)).filter((entry) => entry.at > snapshotAt);
  const { deleteAccount } = await import('../../core/accounts/account-deletion.js');
  const { deleteVisitorRegistration } = await import('../../core/visitors/visitor.service.js');
  const { runRetention } = await import('../../core/privacy/retention.js');
  const { deleteVoter } = await import('../../core/award/award.js');
  for (const entry of entries) {
    const em = orm.em.fork();
    if (entry.kind === 'account') await deleteAccount(em, entry.id);
    else if (entry.kind === 'visitor') await deleteVisitorRegistration(em, entry.id);
    else if (entry.kind === 'award-voter') await deleteVoter(em, entry.id);
    else await runRetention(em, { asOf: new Date(entry.asOf), periods: options.retention });
    options.log(
      `replayed ${entry.kind} erasure of ${entry.at}: ${entry.kind === 'retention' ? `retention as of ${entry.asOf}` : entry.id}`,
    );
  }
  options.log(`erasure journal ${options.journal}: ${entries.length} entries after the backup replayed`);
  return entries;
}
