import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { ConfigError, loadApiConfig } from './config.js';
import { initOrm } from './db/orm.js';
import { pruneExpiredSessions } from './http/session-store.js';
import { createS3Client, ensureBucket } from './lib/s3.js';
import { PublicListChanges } from './modules/public-vehicles/public-list-changes.js';
import { closeQueues, createQueues } from './outbox/queues.js';
import { OutboxRelay } from './outbox/relay.js';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const orm = await initOrm(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const s3 = createS3Client(config.s3);
  if (!config.isProduction) await ensureBucket(s3, config.s3.bucket);

  const queues = createQueues(redis);
  const relay = new OutboxRelay(orm.em, queues);
  relay.start();
  const presigner = createS3Client(config.s3, config.s3.publicEndpoint);
  const publicListChanges = new PublicListChanges(config.databaseUrl);
  await publicListChanges.start(orm.em);
  const app = createApp({
    config,
    em: orm.em,
    redis,
    s3,
    presigner,
    queues,
    onOutbox: () => relay.wake(),
    publicListChanges,
  });
  const server = app.listen(config.port, () => console.log(`api listening on ${config.publicUrl}`));
  const prune = setInterval(() => void pruneExpiredSessions(orm.em.fork()).catch(console.error), 3600_000);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`api: ${signal} received, shutting down`);
    clearInterval(prune);
    server.close();
    server.closeIdleConnections();
    await relay.stop();
    await publicListChanges.close();
    await closeQueues(queues);
    redis.disconnect();
    await orm.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
