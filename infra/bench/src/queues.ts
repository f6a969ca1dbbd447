import { closeQueues, createQueues, defaultRedisPrefix, type Queues } from '@schlosstreffen/api/core';
import { Redis } from 'ioredis';
import { databaseUrl, REDIS_URL } from './settings.js';

/**
 * The bench deployment's queues (keyed by its database, as every deployment's are) for the time
 * `use` runs, on a connection of their own.
 */
export async function withQueues<T>(use: (queues: Queues) => Promise<T>): Promise<T> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queues = createQueues(redis, defaultRedisPrefix(databaseUrl));
  try {
    return await use(queues);
  } finally {
    await closeQueues(queues);
    redis.disconnect();
  }
}
