/**
 * Backups on a schedule (the compose `backup` service runs `backup:run`): BullMQ's job scheduler
 * holds one nightly entry (BACKUP_AT, venue time) on a queue of its own that only backup processes
 * work on, so however many run, one backup is made a night. Each run writes BACKUP_DIR/<moment>,
 * copies it to a second bucket when BACKUP_S3_* is set, records its outcome for the metric and
 * rotates, all at the run's moment (`backup:run --once --as-of <moment>` does one run at a given one).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { ERASURE_JOURNAL_FILE } from '../../core/erasure-journal.js';
import { recordBackupOutcome } from '../../core/metrics/backup-status.js';
import { connectRedis } from '../../core/redis.js';
import { createS3Client, deleteKeys, listKeys } from '../../core/storage/s3.js';
import { createBackup } from './create.js';
import { MANIFEST_FILE, readManifest, throttled } from './manifest.js';
import { backupName, rotate, type RotationPolicy } from './rotation.js';

/** A line of the backup runs: progress as info, a failure as error. */
export type BackupLog = (line: string, level?: 'info' | 'error') => void;

const count = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.integer(), v.minValue(1));

const BackupEnvSchema = v.object({
  BACKUP_DIR: v.pipe(v.string('BACKUP_DIR: the directory of the backups'), v.minLength(1)),
  /** The nightly moment, venue time (HH:MM). */
  BACKUP_AT: v.optional(
    v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, e.g. 03:30')),
    '03:30',
  ),
  BACKUP_KEEP_DAILY: count(7),
  BACKUP_KEEP_WEEKLY: count(4),
  BACKUP_S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  BACKUP_S3_REGION: v.optional(v.string(), 'us-east-1'),
  BACKUP_S3_BUCKET: v.optional(v.string()),
  BACKUP_S3_ACCESS_KEY_ID: v.optional(v.string()),
  BACKUP_S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  BACKUP_S3_FORCE_PATH_STYLE: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
  /** Key prefix of the backups in the second bucket. */
  BACKUP_S3_PREFIX: v.optional(v.string(), 'schlosstreffen-backups/'),
});

export interface OffsiteConfig {
  s3: S3Client;
  bucket: string;
  prefix: string;
  description: string;
}

export interface BackupSchedule {
  dir: string;
  at: { hour: number; minute: number };
  rotation: RotationPolicy;
  offsite?: OffsiteConfig;
}

export function loadBackupSchedule(env: NodeJS.ProcessEnv = process.env): BackupSchedule {
  // Compose passes unset options as empty strings.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(BackupEnvSchema, set);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.output;
  const [hour, minute] = e.BACKUP_AT.split(':').map(Number);
  let offsite: OffsiteConfig | undefined;
  if (e.BACKUP_S3_ENDPOINT || e.BACKUP_S3_BUCKET) {
    const missing = (
      [
        'BACKUP_S3_ENDPOINT',
        'BACKUP_S3_BUCKET',
        'BACKUP_S3_ACCESS_KEY_ID',
        'BACKUP_S3_SECRET_ACCESS_KEY',
      ] as const
    ).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Missing configuration for the offsite copy: ${missing.join(', ')}`);
    offsite = {
      s3: createS3Client({
        endpoint: e.BACKUP_S3_ENDPOINT!,
        publicEndpoint: e.BACKUP_S3_ENDPOINT!,
        region: e.BACKUP_S3_REGION,
        bucket: e.BACKUP_S3_BUCKET!,
        forcePathStyle: e.BACKUP_S3_FORCE_PATH_STYLE === 'true' || e.BACKUP_S3_FORCE_PATH_STYLE === '1',
        accessKeyId: e.BACKUP_S3_ACCESS_KEY_ID!,
        secretAccessKey: e.BACKUP_S3_SECRET_ACCESS_KEY!,
      }),
      bucket: e.BACKUP_S3_BUCKET!,
      prefix: e.BACKUP_S3_PREFIX,
      description: `${e.BACKUP_S3_ENDPOINT} bucket ${e.BACKUP_S3_BUCKET}`,
    };
  }
  return {
    dir: path.resolve(e.BACKUP_DIR),
    at: { hour: hour!, minute: minute! },
    rotation: { daily: e.BACKUP_KEEP_DAILY, weekly: e.BACKUP_KEEP_WEEKLY },
    offsite,
  };
}

/** Uploads one file to the second bucket. */
async function putFile(offsite: OffsiteConfig, key: string, file: string) {
  await offsite.s3.send(
    new PutObjectCommand({
      Bucket: offsite.bucket,
      Key: key,
      Body: createReadStream(file),
      ContentLength: (await stat(file)).size,
    }),
  );
}

/** Copies a backup's files (and the erasure journal) to the second bucket; the manifest last. */
async function copyOffsite(offsite: OffsiteConfig, root: string, name: string, log: BackupLog) {
  const manifest = await readManifest(path.join(root, name));
  const files = [
    manifest.database.dump.path,
    ...manifest.objects.map((object) => object.path),
    MANIFEST_FILE,
  ];
  const progress = throttled(2000, log);
  let done = 0;
  for (const file of files) {
    await putFile(offsite, `${offsite.prefix}${name}/${file}`, path.join(root, name, ...file.split('/')));
    done += 1;
    progress(`offsite copy: ${done}/${files.length} files`, done === files.length);
  }
  const hasJournal = (await readdir(root)).includes(ERASURE_JOURNAL_FILE);
  if (hasJournal) {
    await putFile(offsite, `${offsite.prefix}${ERASURE_JOURNAL_FILE}`, path.join(root, ERASURE_JOURNAL_FILE));
  }
  log(
    `offsite copy: ${done} files to ${offsite.description}${hasJournal ? ', with the erasure journal' : ''}`,
  );
}

async function rotateOffsite(offsite: OffsiteConfig, at: Date, policy: RotationPolicy, log: BackupLog) {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await offsite.s3.send(
      new ListObjectsV2Command({
        Bucket: offsite.bucket,
        Prefix: offsite.prefix,
        Delimiter: '/',
        ContinuationToken: token,
      }),
    );
    for (const entry of page.CommonPrefixes ?? []) {
      if (entry.Prefix) names.push(entry.Prefix.slice(offsite.prefix.length).replace(/\/$/, ''));
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  const { remove } = rotate(names, at, policy);
  for (const name of remove) {
    await deleteKeys(
      offsite.s3,
      offsite.bucket,
      await listKeys(offsite.s3, offsite.bucket, `${offsite.prefix}${name}/`),
    );
  }
  if (remove.length) log(`offsite rotation: removed ${remove.join(', ')}`);
}

export interface BackupRunDeps {
  schedule: BackupSchedule;
  /** What createBackup needs besides the directory. */
  source: Omit<Parameters<typeof createBackup>[0], 'dir' | 'log'>;
  log: BackupLog;
}

/** One scheduled run at a moment: backup, outcome, offsite copy, rotation. Returns whether the backup succeeded. */
export async function runScheduledBackup(deps: BackupRunDeps, at: Date): Promise<boolean> {
  const { schedule, log } = deps;
  const name = backupName(at);
  let ok = false;
  try {
    const created = await createBackup({ ...deps.source, dir: path.join(schedule.dir, name), log });
    ok = true;
    log(`backup ${name} written: ${created.manifest.objects.length} objects, ${created.bytes} bytes`);
    if (schedule.offsite) await copyOffsite(schedule.offsite, schedule.dir, name, log);
  } catch (error) {
    // The failure is visible twice: this line in the log, and the failure moment in the metric.
    log(`backup ${ok ? `${name} offsite copy` : name} FAILED: ${(error as Error).message}`, 'error');
    ok = false;
  }
  await recordBackupOutcome(deps.source.redis, deps.source.redisPrefix, ok ? 'success' : 'failure', at).catch(
    (error: unknown) => log(`backup outcome not recorded in Redis: ${(error as Error).message}`, 'error'),
  );
  try {
    const names = await readdir(schedule.dir);
    const { remove } = rotate(names, at, schedule.rotation);
    for (const old of remove) await rm(path.join(schedule.dir, old), { recursive: true, force: true });
    if (remove.length) log(`rotation: removed ${remove.join(', ')}`);
    if (schedule.offsite) await rotateOffsite(schedule.offsite, at, schedule.rotation, log);
  } catch (error) {
    log(`rotation FAILED: ${(error as Error).message}`, 'error');
  }
  return ok;
}

/** Its keys stand apart from the lock and outcome keys under `<prefix>:backup:`. */
export const BACKUP_QUEUE = 'backups';
const NIGHTLY_ID = 'backup-nightly';

/**
 * Runs until stopped: one scheduler entry (cron in the venue's time zone) on the `backup` queue, and
 * a worker on it. Resolves with a stop function.
 */
export async function startBackupService(
  deps: BackupRunDeps & { redisUrl: string; now?: () => Date },
): Promise<() => Promise<void>> {
  const { schedule, log } = deps;
  const prefix = deps.source.redisPrefix;
  const producer: Redis = connectRedis(deps.redisUrl, 'producer');
  const queue = new Queue(BACKUP_QUEUE, { connection: producer, prefix });
  const pattern = `${schedule.at.minute} ${schedule.at.hour} * * *`;
  await queue.upsertJobScheduler(
    NIGHTLY_ID,
    { pattern, tz: EVENT_TIMEZONE },
    { name: 'backup.create', data: {}, opts: { attempts: 1, removeOnComplete: 30, removeOnFail: 30 } },
  );
  const workerConnection = connectRedis(deps.redisUrl, 'worker');
  const worker = new Worker(
    BACKUP_QUEUE,
    async () => {
      const ok = await runScheduledBackup(deps, (deps.now ?? (() => new Date()))());
      if (!ok) throw new Error('backup failed (see the log line before)');
    },
    { connection: workerConnection, prefix, concurrency: 1, lockDuration: 60_000 },
  );
  worker.on('error', (error) => log(`backup worker: ${error.message}`, 'error'));
  log(
    `backups at ${pattern} (cron, ${EVENT_TIMEZONE}) into ${schedule.dir}; keeping ${schedule.rotation.daily} daily and ${schedule.rotation.weekly} weekly`,
  );
  return async () => {
    await worker.close();
    await queue.close();
    producer.disconnect();
    workerConnection.disconnect();
  };
}
