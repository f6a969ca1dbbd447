import type { S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { closeQueues, createQueues, type EventConfig, type Queues } from '@schlosstreffen/api/db';
import { QUEUE_NAMES, type JobName, type QueueName } from '@schlosstreffen/shared';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Mailer } from './adapters/mailer.js';
import { createStorage } from './adapters/storage.js';
import { eventFacts } from './emails/event-facts.js';
import { createEmailProcessor } from './processors/email.js';
import { createInvitationProcessor } from './processors/invitation.js';
import { createQuartettExportProcessor } from './processors/quartett-export.js';
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
  /** Base of links in mails. */
  publicUrl: string;
  event: EventConfig;
  concurrency: number;
  /** BullMQ key prefix (tests isolate by it). */
  prefix?: string;
  log?: (message: string, error?: unknown) => void;
}

/** Jobs a processor queues itself (e.g. the invitation mail), with a deterministic job id. */
export type FollowUps = Pick<Queues, 'email'>;

/** Exports render one PDF at a time whatever the worker's concurrency: they are CPU and memory heavy. */
const QUEUE_CONCURRENCY: Partial<Record<QueueName, number>> = { export: 1 };

export function createProcessors(deps: WorkerDeps, followUps: FollowUps): Record<JobName, Processor> {
  const storage = createStorage(deps.s3, deps.bucket);
  return {
    'email.send': createEmailProcessor({
      em: deps.em,
      mailer: deps.mailer,
      secret: deps.secret,
      event: eventFacts(deps.event),
    }),
    'media.thumbnail': createThumbnailProcessor({ em: deps.em, storage }),
    'storage.delete': createStorageDeleteProcessor({ storage }),
    'quartett.export': createQuartettExportProcessor({
      em: deps.em,
      storage,
      s3: deps.s3,
      bucket: deps.bucket,
      eventName: deps.event.name,
    }),
    'invitation.issue': createInvitationProcessor({
      em: deps.em,
      event: deps.event,
      publicUrl: deps.publicUrl,
      secret: deps.secret,
      followUps,
    }),
  };
}

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for running ones to finish. */
  close(): Promise<void>;
}

/** One BullMQ worker per queue; each job is dispatched by name to its processor. */
export function startWorkers(deps: WorkerDeps): RunningWorkers {
  const queueConnection = new Redis(deps.redisUrl, { maxRetriesPerRequest: null });
  const queues = createQueues(queueConnection, deps.prefix ?? 'bull');
  const processors = createProcessors(deps, queues);
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const connections: Redis[] = [queueConnection];
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
      {
        connection,
        prefix: deps.prefix ?? 'bull',
        concurrency: QUEUE_CONCURRENCY[queue] ?? deps.concurrency,
      },
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
      await closeQueues(queues);
      for (const connection of connections) connection.disconnect();
    },
  };
}
