import {
  ConfigError,
  connectRedis,
  createS3Client,
  EditionEvents,
  initOrm,
  warnAboutRedis,
} from '@schlosstreffen/api/core';
import { createMailer } from './adapters/mailer.js';
import { loadWorkerConfig } from './config.js';
import { serveMetrics, WorkerMetrics } from './metrics.js';
import { startWorkers } from './worker.js';

/** How long a stopping worker lets running jobs finish before it leaves them to the queue. */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_SECONDS ?? 20) * 1000;

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const orm = await initOrm(config.databaseUrl);
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  const s3 = createS3Client(config.s3);
  if (config.isProduction) {
    const redis = connectRedis(config.redisUrl, 'requests');
    void warnAboutRedis(redis, 'worker').finally(() => redis.disconnect());
  }
  const metrics = config.metricsToken ? new WorkerMetrics() : undefined;
  const running = startWorkers({
    em: orm.em,
    redisUrl: config.redisUrl,
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
  });
  // Metrics on a port of their own; a port in use leaves the worker running without them.
  const metricsServer =
    metrics && config.metricsToken
      ? await serveMetrics(metrics.registry, config.metricsToken, config.metricsPort).catch(
          (error: unknown) => {
            console.error(`worker: metrics not served on port ${config.metricsPort}:`, error);
            return undefined;
          },
        )
      : undefined;
  console.log(
    `worker started (pid ${process.pid}, Redis prefix ${config.redisPrefix}): ${running.workers.map((w) => w.name).join(', ')}`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`worker: ${signal} received: no new jobs, finishing running ones`);
    metricsServer?.close();
    await running.close(SHUTDOWN_GRACE_MS);
    mailer.close();
    s3.destroy();
    await orm.close();
    console.log('worker: stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

// Exit code 78 (EX_CONFIG): restarting will not help, the configuration must change.
main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 78 : 1);
});
