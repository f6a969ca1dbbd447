import { Redis } from 'ioredis';
import { logger } from './logger.js';

/**
 * Redis connections by what waits on them. Requests must never wait for Redis to come back: their
 * commands fail at once while it is away (no offline queue) and after a few seconds when it hangs.
 * BullMQ workers block on Redis by design and wait for it instead.
 */
export type RedisUse = 'requests' | 'producer' | 'worker';

const FAIL_FAST = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 3000,
  commandTimeout: 3000,
} as const;

/** Reconnect every 0.2 s at first, then every 2 s, for as long as it takes. */
const retryStrategy = (times: number) => Math.min(times * 200, 2000);

/** Where Redis is: a URL, or the Sentinels that know the current primary of a group. */
export type RedisTarget = string | RedisSentinels;

export interface RedisSentinels {
  sentinels: Array<{ host: string; port: number }>;
  /** The group the Sentinels monitor (REDIS_SENTINEL_NAME). */
  name: string;
  /** Of the primary and replicas (REDIS_PASSWORD). */
  password?: string;
  /** Of the Sentinels themselves (REDIS_SENTINEL_PASSWORD). */
  sentinelPassword?: string;
}

/**
 * Through Sentinels a connection asks them for the primary, and again after every failover: the
 * Sentinels announce a new primary, and a write refused by a primary that became a replica
 * (READONLY) reconnects and is sent again.
 */
const sentinelOptions = (target: RedisSentinels) => ({
  ...target,
  failoverDetector: true,
  reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false) as 2 | false,
});

/** The one way every process connects to Redis, BullMQ's queues and workers included. */
export function connectRedis(target: RedisTarget, use: RedisUse): Redis {
  const options =
    use === 'worker' ? { maxRetriesPerRequest: null, retryStrategy } : { ...FAIL_FAST, retryStrategy };
  const redis =
    typeof target === 'string'
      ? new Redis(target, options)
      : new Redis({ ...options, ...sentinelOptions(target) });
  // ioredis reports a lost connection as an 'error' event; without a listener it would be fatal.
  redis.on('error', () => undefined);
  return redis;
}

/** Resolves once the connection is ready, or after `ms` whatever its state. */
export function whenReady(redis: Redis, ms = 10_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * What a production Redis needs for the queues to keep their jobs: no eviction, and persistence
 * (append-only file). Returns the problems in words; undefined when the settings cannot be read
 * (managed services often forbid CONFIG).
 */
export async function redisDurabilityProblems(redis: Redis): Promise<string[] | undefined> {
  await whenReady(redis, 10_000);
  try {
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const [, appendonly] = (await redis.config('GET', 'appendonly')) as string[];
    const problems: string[] = [];
    if (policy !== 'noeviction') {
      problems.push(`maxmemory-policy is ${policy}: Redis may evict queued jobs (set noeviction)`);
    }
    if (appendonly !== 'yes') {
      problems.push('appendonly is off: a Redis restart loses queued jobs (set appendonly yes)');
    }
    return problems;
  } catch {
    return undefined;
  }
}

/** Says at start, in the process's log, when Redis would lose or evict jobs. */
export async function warnAboutRedis(redis: Redis, who: string): Promise<void> {
  const problems = await redisDurabilityProblems(redis);
  if (problems === undefined) {
    logger.warn(
      `${who}: could not read the Redis settings (CONFIG GET); make sure of noeviction and appendonly yes`,
    );
    return;
  }
  for (const problem of problems) logger.error(`${who}: Redis is not safe for the job queues: ${problem}`);
}
