/** The backup commands of the CLI: create, verify, restore, and the scheduled runs. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { recordBackupOutcome } from '../../core/metrics/backup-status.js';
import { connectRedis, whenReady } from '../../core/redis.js';
import { loadBackupStorage, type BackupStorage } from '../../core/storage/backup-storage.js';
import {
  directoryJournal,
  journalStoreOf,
  type ErasureJournalStore,
} from '../../core/storage/erasure-journal-store.js';
import { momentArgument, optionValue } from '../arguments.js';
import { openStorage } from '../seed/storage.js';
import { createBackup } from './create.js';
import { formatBytes, throttled, verifyBackup } from './manifest.js';
import { restoreBackup } from './restore.js';
import { loadBackupSchedule, runScheduledBackup, startBackupService } from './schedule.js';
import { openBackup, type BackupSource } from './source.js';
import { loadClock } from '../../core/config.js';
import { configureLogger, logger } from '../../core/logger.js';
import type { BackupLog } from './schedule.js';

/** The one-off commands print for the person at the terminal. */
const log = (line: string) => console.log(line);
/** The nightly service runs for months: its lines go through the one logger, as JSON. */
const serviceLog: BackupLog = (line, level = 'info') => logger[level]({ component: 'backup' }, line);

/** The file of earlier versions' erasure journal, beside the backups. */
const LEGACY_JOURNAL = 'erasures.jsonl';

/** A backup named on the command line: a directory, or `--offsite <name|latest>` in the second bucket. */
function sourceOf(
  dir: string | undefined,
  offsite: string | undefined,
  storage: BackupStorage,
): BackupSource | string {
  if (offsite !== undefined) {
    if (!offsite) return '--offsite needs a backup name (e.g. 2026-11-27T02-30-00Z) or latest';
    if (!storage.offsite) return '--offsite reads the second bucket: set BACKUP_S3_*';
    return { offsite: storage.offsite, name: offsite };
  }
  return dir ? { dir } : 'name a backup directory, or --offsite <name|latest>';
}

/**
 * The journal a restore replays: `--journal` (a directory holding `erasures/`, or a journal file of
 * earlier versions), else the second bucket, else BACKUP_DIR, else the directory beside the backup's.
 */
async function journalsOf(
  args: string[],
  storage: BackupStorage,
  dir: string | undefined,
): Promise<{ journal?: ErasureJournalStore; legacyJournal?: string }> {
  const given = optionValue(args, '--journal');
  if (given) {
    const isFile = (await stat(given).catch(() => undefined))?.isFile();
    return isFile ? { legacyJournal: path.resolve(given) } : { journal: directoryJournal(given) };
  }
  const home = storage.dir ?? (dir ? path.dirname(path.resolve(dir)) : undefined);
  return {
    journal: journalStoreOf(storage) ?? (home ? directoryJournal(home) : undefined),
    ...(home ? { legacyJournal: path.join(home, LEGACY_JOURNAL) } : {}),
  };
}

export async function backupCommand(command: string, args: string[], usage: string): Promise<number> {
  const dir = args.find(
    (arg, index) =>
      !arg.startsWith('--') && !['--journal', '--as-of', '--offsite'].includes(args[index - 1] ?? ''),
  );
  if (!['backup:create', 'backup:verify', 'backup:restore', 'backup:run'].includes(command)) {
    console.error(usage);
    return 2;
  }
  if (command === 'backup:create' && !dir) {
    console.error(usage);
    return 2;
  }
  const backupStorage = loadBackupStorage();
  let source: BackupSource | undefined;
  if (command === 'backup:verify' || command === 'backup:restore') {
    const named = sourceOf(dir, optionValue(args, '--offsite'), backupStorage);
    if (typeof named === 'string') {
      console.error(`${named}\n\n${usage}`);
      return 2;
    }
    source = named;
  }

  if (command === 'backup:verify') {
    const opened = await openBackup(source!, backupStorage.encryptionKey, log);
    try {
      const progress = throttled(2000, log);
      const report = await verifyBackup(opened.dir, (done, total, bytes) =>
        progress(`verified ${done}/${total} files (${formatBytes(bytes)})`, done === total),
      );
      for (const problem of report.problems) console.error(`  ${problem}`);
      console.log(
        report.problems.length
          ? `${opened.description}: ${report.problems.length} ${report.problems.length === 1 ? 'difference' : 'differences'}; this backup does not verify`
          : `${opened.description}: ${report.files} files, ${formatBytes(report.bytes)}, every checksum as in the manifest` +
              (opened.dir !== opened.description ? ', every tag checked' : ''),
      );
      return report.problems.length ? 1 : 0;
    } finally {
      await opened.close();
    }
  }

  const storage = await openStorage();
  const { config } = storage;
  const redis = connectRedis(config.redis, 'producer');
  await whenReady(redis);
  const target = {
    // The snapshot and pg_dump's session, the restore's new database: past the pooler.
    databaseUrl: config.databaseDirectUrl ?? config.databaseUrl,
    redis,
    redisPrefix: config.redisPrefix,
    s3: storage.s3,
    bucket: storage.bucket,
  };
  try {
    if (command === 'backup:create') {
      console.log(`backup of ${new URL(config.databaseUrl).pathname.slice(1)} and ${storage.description}`);
      try {
        const created = await createBackup({ ...target, dir: dir!, log });
        await recordBackupOutcome(redis, config.redisPrefix, 'success').catch((error: unknown) =>
          console.error(`warning: backup outcome not recorded in Redis: ${(error as Error).message}`),
        );
        console.log(
          `backup written to ${created.dir}: snapshot ${created.manifest.createdAt}, ` +
            `${Object.values(created.manifest.tables).reduce((a, b) => a + b, 0)} rows in ` +
            `${Object.keys(created.manifest.tables).length} tables, ${created.manifest.objects.length} objects, ` +
            `${formatBytes(created.bytes)}`,
        );
        return 0;
      } catch (error) {
        await recordBackupOutcome(redis, config.redisPrefix, 'failure').catch(() => undefined);
        throw error;
      }
    }
    if (command === 'backup:restore') {
      const journals = await journalsOf(args, backupStorage, 'dir' in source! ? source.dir : undefined);
      const opened = await openBackup(source!, backupStorage.encryptionKey, log);
      try {
        console.log(
          `restore of ${opened.description} into ${new URL(config.databaseUrl).pathname.slice(1)} and ${storage.description}`,
        );
        const report = await restoreBackup({
          ...target,
          dir: opened.dir,
          force: args.includes('--force'),
          ...journals,
          retention: config.retention,
          log,
        });
        console.log(
          `restored: ${Object.keys(report.tables).length} tables, ${report.objects} objects (${formatBytes(report.bytes)}); ` +
            `${report.sessionsEnded} sessions ended, ${report.requeued} jobs queued again, ` +
            `${report.replayed.length} erasures replayed. Start the app as usual (npm start).`,
        );
        return 0;
      } finally {
        await opened.close();
      }
    }
    // backup:run
    configureLogger(config.log, { process: 'backup' });
    const schedule = loadBackupSchedule();
    if (args.includes('--once')) {
      const at = momentArgument(args, '--as-of');
      if (!at) {
        console.error('--as-of needs a date, e.g. 2026-08-01T03:30:00+02:00');
        return 2;
      }
      return (await runScheduledBackup({ schedule, source: target, log: serviceLog }, at)) ? 0 : 1;
    }
    const stop = await startBackupService({
      schedule,
      source: target,
      log: serviceLog,
      redisTarget: config.redis,
      now: loadClock(),
    });
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await stop();
    return 0;
  } finally {
    redis.disconnect();
    await storage.stop();
  }
}
