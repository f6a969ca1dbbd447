import type { JobName, QueueName } from '@schlosstreffen/shared';
import { JOBS, QUEUE_NAMES } from '@schlosstreffen/shared';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * A failing job (S3 or the mail server away, a deadlock) is retried after 1 s, 2 s, 4 s, … and then
 * every 5 minutes: 20 attempts span about an hour. Then it shows as failed in /admin/queues, where
 * an admin can retry it. Workers know the 'capped' strategy (see `cappedBackoff`).
 */
export const JOB_ATTEMPTS = 20;
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: JOB_ATTEMPTS,
  backoff: { type: 'capped' },
  removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** Delay before the next attempt: doubling from 1 s, at most 5 minutes. */
export function cappedBackoff(attemptsMade: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attemptsMade - 1), 5 * 60_000);
}

export type Queues = Record<QueueName, Queue>;

/** The queues under the deployment's key prefix (REDIS_PREFIX). */
export function createQueues(connection: Redis, prefix: string): Queues {
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
