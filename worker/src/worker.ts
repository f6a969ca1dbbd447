import type { S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { QUEUE_NAMES, type JobName } from '@schlosstreffen/shared';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Mailer } from './adapters/mailer.js';
import { createStorage } from './adapters/storage.js';
import { createEmailProcessor } from './processors/email.js';
import { createStorageDeleteProcessor } from './processors/storage-delete.js';
import { createThumbnailProcessor } from './processors/thumbnail.js';

export type Processor = (job: Job) => Promise<unknown>;

export interface WorkerDeps {
  em: EntityManager;
  redisUrl: string;
  mailer: Mailer;
  s3: S3Client;
  bucket: string;
  secret: string;
  concurrency: number;
  /** BullMQ key prefix (tests isolate by it). */
  prefix?: string;
  log?: (message: string, error?: unknown) => void;
}

export function createProcessors(deps: WorkerDeps): Record<JobName, Processor> {
  const storage = createStorage(deps.s3, deps.bucket);
  return {
    'email.send': createEmailProcessor({ em: deps.em, mailer: deps.mailer, secret: deps.secret }),
    'media.thumbnail': createThumbnailProcessor({ em: deps.em, storage }),
    'storage.delete': createStorageDeleteProcessor({ storage }),
  };
}

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for running ones to finish. */
  close(): Promise<void>;
}

/** One BullMQ worker per queue; each job is dispatched by name to its processor. */
export function startWorkers(deps: WorkerDeps): RunningWorkers {
  const processors = createProcessors(deps);
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const connections: Redis[] = [];
  const workers = QUEUE_NAMES.map((queue) => {
    const connection = new Redis(deps.redisUrl, { maxRetriesPerRequest: null });
    connections.push(connection);
    const worker = new Worker(
      queue,
      async (job) => {
        const processor = processors[job.name as JobName];
        if (!processor) throw new UnrecoverableError(`unknown job ${job.name}`);
        return processor(job);
      },
      { connection, prefix: deps.prefix ?? 'bull', concurrency: deps.concurrency },
    );
    worker.on('failed', (job, error) =>
      log(`job ${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade}):`, error.message),
    );
    worker.on('error', (error) => log(`worker ${queue} error:`, error));
    return worker;
  });
  return {
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      for (const connection of connections) connection.disconnect();
    },
  };
}
