/** The backup commands of the CLI: create, verify, restore, and the scheduled runs. */
import path from 'node:path';
import { erasureJournalPath, ERASURE_JOURNAL_FILE } from '../../core/erasure-journal.js';
import { recordBackupOutcome } from '../../core/metrics/backup-status.js';
import { connectRedis, whenReady } from '../../core/redis.js';
import { momentArgument, optionValue } from '../arguments.js';
import { openStorage } from '../seed/storage.js';
import { createBackup } from './create.js';
import { formatBytes, throttled, verifyBackup } from './manifest.js';
import { restoreBackup } from './restore.js';
import { loadBackupSchedule, runScheduledBackup, startBackupService } from './schedule.js';
import { loadClock } from '../../core/config.js';
import { configureLogger, logger } from '../../core/logger.js';
import type { BackupLog } from './schedule.js';

/** The one-off commands print for the person at the terminal. */
const log = (line: string) => console.log(line);
/** The nightly service runs for months: its lines go through the one logger, as JSON. */
const serviceLog: BackupLog = (line, level = 'info') => logger[level]({ component: 'backup' }, line);

export async function backupCommand(command: string, args: string[], usage: string): Promise<number> {
  const dir = args.find(
    (arg, index) => !arg.startsWith('--') && args[index - 1] !== '--journal' && args[index - 1] !== '--as-of',
  );
  if (command === 'backup:verify') {
    if (!dir) {
      console.error(usage);
      return 2;
    }
    const progress = throttled(2000, log);
    const report = await verifyBackup(path.resolve(dir), (done, total, bytes) =>
      progress(`verified ${done}/${total} files (${formatBytes(bytes)})`, done === total),
    );
    for (const problem of report.problems) console.error(`  ${problem}`);
    console.log(
      report.problems.length
        ? `${dir}: ${report.problems.length} ${report.problems.length === 1 ? 'difference' : 'differences'}; this backup does not verify`
        : `${dir}: ${report.files} files, ${formatBytes(report.bytes)}, every checksum as in the manifest`,
    );
    return report.problems.length ? 1 : 0;
  }

  if ((command === 'backup:create' || command === 'backup:restore') && !dir) {
    console.error(usage);
    return 2;
  }
  if (command !== 'backup:create' && command !== 'backup:restore' && command !== 'backup:run') {
    console.error(usage);
    return 2;
  }
  const storage = await openStorage();
  const { config } = storage;
  const redis = connectRedis(config.redisUrl, 'producer');
  await whenReady(redis);
  const source = {
    databaseUrl: config.databaseUrl,
    redis,
    redisPrefix: config.redisPrefix,
    s3: storage.s3,
    bucket: storage.bucket,
  };
  try {
    if (command === 'backup:create') {
      console.log(`backup of ${new URL(config.databaseUrl).pathname.slice(1)} and ${storage.description}`);
      try {
        const created = await createBackup({ ...source, dir: dir!, log });
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
      const journal =
        optionValue(args, '--journal') ??
        erasureJournalPath() ??
        path.join(path.dirname(path.resolve(dir!)), ERASURE_JOURNAL_FILE);
      console.log(`restore into ${new URL(config.databaseUrl).pathname.slice(1)} and ${storage.description}`);
      const report = await restoreBackup({
        ...source,
        dir: dir!,
        force: args.includes('--force'),
        journal,
        retention: config.retention,
        log,
      });
      console.log(
        `restored: ${Object.keys(report.tables).length} tables, ${report.objects} objects (${formatBytes(report.bytes)}); ` +
          `${report.sessionsEnded} sessions ended, ${report.requeued} jobs queued again, ` +
          `${report.replayed.length} erasures replayed. Start the app as usual (npm start).`,
      );
      return 0;
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
      return (await runScheduledBackup({ schedule, source, log: serviceLog }, at)) ? 0 : 1;
    }
    const stop = await startBackupService({
      schedule,
      source,
      log: serviceLog,
      redisUrl: config.redisUrl,
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
