import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createApp, SESSION_COOKIE } from './app.js';
import { ConfigError, loadApiConfig } from './core/config.js';
import { configureLogger, logger, ORM_LOGGING } from './core/logger.js';
import { initOrm } from './core/db/orm.js';
import { pruneExpiredSessions } from './core/accounts/sessions.js';
import { createS3Client, ensureBucket } from './core/storage/s3.js';
import { listenForPublicInputs } from './core/public-list/public-inputs.js';
import { PageCache } from './http/page-cache.js';
import { withStaticFastPath } from './http/fast-path.js';
import { GateFirst } from './http/gate-first.js';
import { keepConnectionsAlive } from './http/keep-alive.js';
import { publicListReader } from './core/public-list/public-vehicle.read.js';
import { EditionEvents } from './core/editions/edition-events.js';
import { withPublicListFastPath } from './routes/vehicles/public-list.js';
import { closeQueues, createQueues } from './core/outbox/queues.js';
import { OutboxRelay } from './core/outbox/relay.js';
import { connectRedis, warnAboutRedis } from './core/redis.js';
import { HttpMetrics } from './http/metrics.js';
import { publishWebAssetsInBackground } from './http/web-assets.js';

/** How long a stopping api lets requests in flight finish before it cuts them. */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_SECONDS ?? 20) * 1000;

async function main(): Promise<void> {
  const config = loadApiConfig();
  configureLogger(config.log, { process: 'api' });
  const orm = await initOrm(config.databaseUrl, {
    ...ORM_LOGGING,
    migrate: config.migrateOnStart,
    directUrl: config.databaseDirectUrl,
  });
  // Requests (rate limits, readiness) and the outbox relay fail fast while Redis is away.
  const redis = connectRedis(config.redis, 'requests');
  const producer = connectRedis(config.redis, 'producer');
  const s3 = createS3Client(config.s3);
  if (!config.isProduction) await ensureBucket(s3, config.s3.bucket);
  if (config.isProduction) void warnAboutRedis(redis, 'api');
  // This build's hashed assets go to the bucket, where an api of another release finds them when a
  // page of this one asks it for its chunks during and after a rolling deploy.
  const stopPublishing = publishWebAssetsInBackground(
    s3,
    config.s3.bucket,
    path.join(config.webDist, 'assets'),
  );

  const queues = createQueues(producer, config.redisPrefix);
  const relay = new OutboxRelay(orm.em, queues);
  relay.start();
  const presigner = createS3Client(config.s3, config.s3.publicEndpoint);
  // Changes of what the public pages show, announced by every process's commits.
  const publicInputs = await listenForPublicInputs(config, orm.em);
  const pages = new PageCache({
    listening: () => publicInputs.listening,
    clock: () => config.now().getTime(),
    log: (error) => logger.error({ err: error }, 'rendering a kept page failed'),
  });
  // One view of the editions for the app and the public list in front of it.
  const events = new EditionEvents(orm.em);
  const currentEditionId = async () => (await events.at(config.now())).edition.id;
  // One registry for the app and the public list in front of it (METRICS_TOKEN).
  const metrics = config.metricsToken ? new HttpMetrics() : undefined;
  // Set by SIGTERM: the readiness fails from then on, while the server still serves for a moment.
  let stopping = false;
  const app = createApp({
    config,
    now: config.now,
    events,
    em: orm.em,
    redis,
    s3,
    presigner,
    queues,
    onOutbox: () => relay.wake(),
    publicListChanges: publicInputs,
    pages: { cache: pages, inputs: publicInputs },
    redisPrefix: config.redisPrefix,
    metrics,
    stopping: () => stopping,
  });
  const secureSite = new URL(config.publicUrl).protocol === 'https:';
  // The gate's requests are counted first, so answers from memory yield to them while they run.
  const gateFirst = new GateFirst(SESSION_COOKIE);
  const server = keepConnectionsAlive(
    createServer(
      gateFirst.listener(
        withStaticFastPath(
          app,
          withPublicListFastPath(
            app,
            publicListReader(orm.em, currentEditionId, publicInputs),
            secureSite,
            metrics,
          ),
          {
            pages,
            // Hashed assets never change under their name; the other files only in production, where
            // the build does not change under a running process (elsewhere a rebuild shows at once).
            files: { root: path.resolve(config.webDist), all: config.isProduction },
            sessionCookie: SESSION_COOKIE,
            requireHttps: secureSite,
            metrics,
            gateFirst,
          },
        ),
      ),
    ),
  ).listen(config.port, () =>
    logger.info({ port: config.port, publicUrl: config.publicUrl }, `api listening on port ${config.port}`),
  );
  const prune = setInterval(
    () =>
      void pruneExpiredSessions(orm.em.fork()).catch((error: unknown) =>
        logger.error({ err: error }, 'pruning expired sessions failed'),
      ),
    3600_000,
  );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (config.shutdownDelaySeconds > 0) {
      // Load balancers learn from the failing readiness (or the orchestrator) to send no more
      // requests here; until they have, this api serves as before.
      logger.info(
        { signal, delaySeconds: config.shutdownDelaySeconds },
        'api stopping: readiness fails, still serving until the load balancer has taken it out',
      );
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelaySeconds * 1000));
    }
    logger.info({ signal }, 'api stopping: no new connections, finishing requests in flight');
    clearInterval(prune);
    stopPublishing();
    await drain(server, SHUTDOWN_GRACE_MS);
    await relay.stop();
    pages.clear();
    await publicInputs.close();
    await closeQueues(queues);
    redis.disconnect();
    producer.disconnect();
    await orm.close();
    logger.info('api stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Stops accepting connections and lets the requests in flight finish: idle keep-alive connections
 * close at once, busy ones once their answer is out; whatever still runs after the grace period is
 * cut.
 */
async function drain(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  const timer = setTimeout(() => {
    logger.warn(`api: requests still running after ${graceMs / 1000} s, cutting them`);
    server.closeAllConnections();
  }, graceMs);
  await closed;
  clearInterval(idle);
  clearTimeout(timer);
}

// Exit code 78 (EX_CONFIG): restarting will not help, the configuration must change.
main().catch((error: unknown) => {
  if (error instanceof ConfigError) logger.fatal(error.message);
  else logger.fatal({ err: error }, 'api failed to start');
  process.exit(error instanceof ConfigError ? 78 : 1);
});
