/**
 * Backups on a schedule (the compose `backup` service runs `backup:run`): BullMQ's job scheduler
 * holds one nightly entry (BACKUP_AT, venue time) on a queue of its own that only backup processes
 * work on, so however many run, one backup is made a night. Each run writes BACKUP_DIR/<moment>
 * (0700, files 0600), copies it encrypted to a second bucket when BACKUP_S3_* is set, records its
 * outcome for the metric and rotates, all at the run's moment (`backup:run --once --as-of <moment>`
 * does one run at a given one).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { ConfigError } from '../../core/config.js';
import { recordBackupOutcome } from '../../core/metrics/backup-status.js';
import { connectRedis, type RedisTarget } from '../../core/redis.js';
import {
  loadBackupStorage,
  privateDirectory,
  type OffsiteConfig,
} from '../../core/storage/backup-storage.js';
import { journalStoreOf, type ErasureJournalStore } from '../../core/storage/erasure-journal-store.js';
import { deleteKeys, listKeys } from '../../core/storage/s3.js';
import { createBackup } from './create.js';
import { encryptedSize, encrypting } from './encryption.js';
import { MANIFEST_FILE, readManifest, throttled } from './manifest.js';
import { backupMoment, backupName, rotate, type RotationPolicy } from './rotation.js';
import { offsiteBackupNames } from './source.js';

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
});

/** The second bucket of the offsite copies, with the key that encrypts them. */
export interface OffsiteCopies extends OffsiteConfig {
  key: Buffer;
}

export interface BackupSchedule {
  dir: string;
  at: { hour: number; minute: number };
  rotation: RotationPolicy;
  offsite?: OffsiteCopies;
  /** The erasure journal in shared storage: its entries older than every kept backup are removed. */
  journal?: ErasureJournalStore;
}

/**
 * The schedule from the environment. With BACKUP_S3_* set and no BACKUP_ENCRYPTION_KEY the service
 * refuses to start: no copy of everyone's data leaves the host unencrypted.
 */
export function loadBackupSchedule(env: NodeJS.ProcessEnv = process.env): BackupSchedule {
  // Compose passes unset options as empty strings.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(BackupEnvSchema, set);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.output;
  const storage = loadBackupStorage(env);
  if (storage.offsite && !storage.encryptionKey) {
    throw new ConfigError(
      'BACKUP_S3_* is set but BACKUP_ENCRYPTION_KEY is not: offsite copies are encrypted with it ' +
        '(32 random bytes in base64: openssl rand -base64 32; keep it apart from the copies)',
    );
  }
  const [hour, minute] = e.BACKUP_AT.split(':').map(Number);
  return {
    dir: path.resolve(e.BACKUP_DIR),
    at: { hour: hour!, minute: minute! },
    rotation: { daily: e.BACKUP_KEEP_DAILY, weekly: e.BACKUP_KEEP_WEEKLY },
    offsite: storage.offsite ? { ...storage.offsite, key: storage.encryptionKey! } : undefined,
    journal: journalStoreOf(storage),
  };
}

/** Uploads one file of a backup to the second bucket, encrypted (its path in the backup bound to it). */
async function putEncrypted(offsite: OffsiteCopies, name: string, file: string, size: number, root: string) {
  await offsite.s3.send(
    new PutObjectCommand({
      Bucket: offsite.bucket,
      Key: `${offsite.prefix}${name}/${file}`,
      Body: encrypting(offsite.key, file, createReadStream(path.join(root, name, ...file.split('/')))),
      ContentLength: encryptedSize(size),
    }),
  );
}

/** Copies a backup's files to the second bucket, each encrypted; the manifest last. */
async function copyOffsite(offsite: OffsiteCopies, root: string, name: string, log: BackupLog) {
  const manifest = await readManifest(path.join(root, name));
  const { size: manifestSize } = await stat(path.join(root, name, MANIFEST_FILE));
  const files = [manifest.database.dump, ...manifest.objects, { path: MANIFEST_FILE, size: manifestSize }];
  const progress = throttled(2000, log);
  let done = 0;
  for (const file of files) {
    await putEncrypted(offsite, name, file.path, file.size, root);
    done += 1;
    progress(`offsite copy: ${done}/${files.length} files`, done === files.length);
  }
  log(`offsite copy: ${done} files to ${offsite.description}, encrypted (AES-256-GCM)`);
}

/** Rotates the copies in the second bucket as on disk; returns the names kept. */
async function rotateOffsite(
  offsite: OffsiteConfig,
  at: Date,
  policy: RotationPolicy,
  log: BackupLog,
): Promise<string[]> {
  const names = await offsiteBackupNames(offsite);
  const { keep, remove } = rotate(names, at, policy);
  for (const name of remove) {
    await deleteKeys(
      offsite.s3,
      offsite.bucket,
      await listKeys(offsite.s3, offsite.bucket, `${offsite.prefix}${name}/`),
    );
  }
  if (remove.length) log(`offsite rotation: removed ${remove.join(', ')}`);
  return keep;
}

/** A day before the oldest kept backup: journal entries older than that no restore replays. */
const JOURNAL_MARGIN_MS = 24 * 3600 * 1000;

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
    await privateDirectory(schedule.dir);
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
    const { keep, remove } = rotate(names, at, schedule.rotation);
    for (const old of remove) await rm(path.join(schedule.dir, old), { recursive: true, force: true });
    if (remove.length) log(`rotation: removed ${remove.join(', ')}`);
    if (schedule.offsite) keep.push(...(await rotateOffsite(schedule.offsite, at, schedule.rotation, log)));
    // The journal keeps what a restore of the oldest kept backup replays.
    const oldest = Math.min(...keep.map((kept) => backupMoment(kept)!.getTime()));
    if (schedule.journal && Number.isFinite(oldest)) {
      const pruned = await schedule.journal.prune(new Date(oldest - JOURNAL_MARGIN_MS));
      if (pruned) log(`erasure journal: ${pruned} entries older than every kept backup removed`);
    }
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
  deps: BackupRunDeps & { redisTarget: RedisTarget; now?: () => Date },
): Promise<() => Promise<void>> {
  const { schedule, log } = deps;
  const prefix = deps.source.redisPrefix;
  const producer: Redis = connectRedis(deps.redisTarget, 'producer');
  const queue = new Queue(BACKUP_QUEUE, { connection: producer, prefix });
  const pattern = `${schedule.at.minute} ${schedule.at.hour} * * *`;
  await queue.upsertJobScheduler(
    NIGHTLY_ID,
    { pattern, tz: EVENT_TIMEZONE },
    { name: 'backup.create', data: {}, opts: { attempts: 1, removeOnComplete: 30, removeOnFail: 30 } },
  );
  const workerConnection = connectRedis(deps.redisTarget, 'worker');
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
