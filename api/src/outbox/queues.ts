import type { JobName, QueueName } from '@schlosstreffen/shared';
import { JOBS, QUEUE_NAMES } from '@schlosstreffen/shared';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';

/** Retries with backoff; completed jobs stay long enough for job-id de-duplication. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: Redis, prefix = 'bull'): Queues {
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => [
      name,
      new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS }),
    ]),
  ) as Queues;
}

export function queueFor(queues: Queues, job: JobName): Queue {
  return queues[JOBS[job].queue];
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
