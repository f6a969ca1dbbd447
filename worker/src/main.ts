import { ConfigError, createS3Client, initOrm } from '@schlosstreffen/api/db';
import { createMailer } from './adapters/mailer.js';
import { loadWorkerConfig } from './config.js';
import { startWorkers } from './worker.js';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const orm = await initOrm(config.databaseUrl);
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  const s3 = createS3Client(config.s3);
  const running = startWorkers({
    em: orm.em,
    redisUrl: config.redisUrl,
    mailer,
    s3,
    bucket: config.s3.bucket,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    event: config.event,
    concurrency: config.concurrency,
  });
  console.log(`worker started: ${running.workers.map((w) => w.name).join(', ')}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`worker: ${signal} received, finishing running jobs`);
    await running.close();
    mailer.close();
    s3.destroy();
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
