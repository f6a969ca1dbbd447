import type { EntityManager } from '@mikro-orm/postgresql';
import { QUEUE_NAMES, type JobName } from '@schlosstreffen/shared';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Mailer } from './adapters/mailer.js';
import { createEmailProcessor } from './processors/email.js';

export type Processor = (job: Job) => Promise<unknown>;

export interface WorkerDeps {
  em: EntityManager;
  redisUrl: string;
  mailer: Mailer;
  secret: string;
  concurrency: number;
  /** BullMQ key prefix (tests isolate by it). */
  prefix?: string;
  log?: (message: string, error?: unknown) => void;
}

export function createProcessors(deps: WorkerDeps): Record<JobName, Processor> {
  return {
    'email.send': createEmailProcessor({ em: deps.em, mailer: deps.mailer, secret: deps.secret }),
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
