import {
  ConfigError,
  configureLogger,
  connectRedis,
  createS3Client,
  EditionEvents,
  initOrm,
  logger,
  ORM_LOGGING,
  warnAboutRedis,
} from '@schlosstreffen/api/core';
import { createMailer } from './adapters/mailer.js';
import { loadWorkerConfig } from './config.js';
import { applyGcSettings } from './gc-settings.js';
import { healthOf, serveHealth } from './health.js';
import { serveMetrics, WorkerMetrics } from './metrics.js';
import { startWorkers } from './worker.js';

/** How long a stopping worker lets running jobs finish before it leaves them to the queue. */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_SECONDS ?? 20) * 1000;

async function main(): Promise<void> {
  applyGcSettings();
  const config = loadWorkerConfig();
  configureLogger(config.log, { process: 'worker' });
  const orm = await initOrm(config.databaseUrl, {
    ...ORM_LOGGING,
    migrate: config.migrateOnStart,
    directUrl: config.databaseDirectUrl,
  });
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  const s3 = createS3Client(config.s3);
  if (config.isProduction) {
    const redis = connectRedis(config.redis, 'requests');
    void warnAboutRedis(redis, 'worker').finally(() => redis.disconnect());
  }
  const metrics = config.metricsToken ? new WorkerMetrics() : undefined;
  const running = startWorkers({
    em: orm.em,
    redis: config.redis,
    redisPrefix: config.redisPrefix,
    mailer,
    s3,
    bucket: config.s3.bucket,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    events: new EditionEvents(orm.em),
    retention: config.retention,
    tickEveryMs: config.tickEveryMs,
    visitorUpdateRate: config.visitorUpdateRate,
    concurrency: config.concurrency,
    now: config.now,
    metrics,
    journal: config.journal,
  });
  if (config.journal) logger.info({ journal: config.journal.description }, 'erasure journal');
  else if (config.isProduction)
    logger.warn(
      'no erasure journal (set BACKUP_S3_*): erasures made after a backup would come back with its restore',
    );
  // Metrics on a port of their own; a port in use leaves the worker running without them.
  const metricsServer =
    metrics && config.metricsToken
      ? await serveMetrics(metrics.registry, config.metricsToken, config.metricsPort).catch(
          (error: unknown) => {
            logger.error({ err: error, port: config.metricsPort }, 'worker metrics not served');
            return undefined;
          },
        )
      : undefined;
  let stopping = false;
  // The probes' endpoint on a port of its own, without a token; a port in use is logged, and the
  // worker runs on without it (a second worker on one host).
  const healthServer = await serveHealth(config.healthPort, () => healthOf(running.health(), stopping)).catch(
    (error: unknown) => {
      logger.error({ err: error, port: config.healthPort }, 'worker health not served');
      return undefined;
    },
  );
  logger.info(
    { redisPrefix: config.redisPrefix, queues: running.workers.map((w) => w.name) },
    'worker started',
  );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping: no new jobs, finishing running ones');
    metricsServer?.close();
    await running.close(SHUTDOWN_GRACE_MS);
    healthServer?.close();
    mailer.close();
    s3.destroy();
    await orm.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

// Exit code 78 (EX_CONFIG): restarting will not help, the configuration must change.
main().catch((error: unknown) => {
  if (error instanceof ConfigError) logger.fatal(error.message);
  else logger.fatal({ err: error }, 'worker failed to start');
  process.exit(error instanceof ConfigError ? 78 : 1);
});
