/**
 * Object deletions wait while a backup runs: a backup copies every object its database snapshot
 * names, so none of them may vanish between the snapshot and the copy.
 *
 * Two Redis keys under the deployment's prefix: `backup:running` (the backup's lock, with an expiry
 * the backup renews, so a crashed backup holds deletions for two minutes at most) and
 * `backup:deleting` (a sorted set of deletions in flight, each with the moment its lease ends). A
 * deleter registers atomically only while no lock is set; a backup sets the lock, then waits until
 * the deletions registered before it have ended. So every deletion either ends before the snapshot
 * or starts after the copy.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export const backupLockKey = (prefix: string) => `${prefix}:backup:running`;
const deletingKey = (prefix: string) => `${prefix}:backup:deleting`;

/** Deletions are held by a running backup; the job tries again after `retryInMs` (attempts not used up). */
export class DeletionsHeldError extends Error {
  override name = 'DeletionsHeldError';
  constructor(readonly retryInMs: number) {
    super('object deletions wait while a backup runs');
  }
}

/** A deletion's lease: longer than any batch of deletes takes. */
const DELETE_LEASE_MS = 5 * 60_000;

const ENTER = `
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('zremrangebyscore', KEYS[2], '-inf', ARGV[1])
redis.call('zadd', KEYS[2], ARGV[2], ARGV[3])
redis.call('pexpire', KEYS[2], ARGV[4])
return 1`;

const RENEW = `
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DeletionFence {
  /**
   * Runs `remove` unless a backup runs: then waits up to `waitMs` for it to end, and throws
   * DeletionsHeldError if it still runs.
   */
  deleting<T>(remove: () => Promise<T>): Promise<T>;
}

export function deletionFence(
  redis: Redis,
  prefix: string,
  options: { waitMs?: number; pollMs?: number; retryInMs?: number } = {},
): DeletionFence {
  const waitMs = options.waitMs ?? 20_000;
  const pollMs = options.pollMs ?? 1000;
  return {
    async deleting(remove) {
      const id = randomUUID();
      const deadline = Date.now() + waitMs;
      for (;;) {
        const now = Date.now();
        const entered = await redis.eval(
          ENTER,
          2,
          backupLockKey(prefix),
          deletingKey(prefix),
          now,
          now + DELETE_LEASE_MS,
          id,
          DELETE_LEASE_MS,
        );
        if (entered === 1) break;
        if (Date.now() >= deadline) throw new DeletionsHeldError(options.retryInMs ?? 60_000);
        await sleep(pollMs);
      }
      try {
        return await remove();
      } finally {
        await redis.zrem(deletingKey(prefix), id).catch(() => undefined);
      }
    },
  };
}

export interface HeldDeletions {
  release(): Promise<void>;
}

/**
 * Takes the backup lock and waits until the deletions in flight have ended. Throws when another
 * backup holds the lock. The lock is renewed while held and expires `ttlMs` after the last renewal.
 */
export async function holdDeletions(
  redis: Redis,
  prefix: string,
  options: { ttlMs?: number; pollMs?: number } = {},
): Promise<HeldDeletions> {
  const ttlMs = options.ttlMs ?? 120_000;
  const id = randomUUID();
  const taken = await redis.set(backupLockKey(prefix), id, 'PX', ttlMs, 'NX');
  if (taken !== 'OK') throw new Error('another backup is running (its lock ends two minutes after it stops)');
  const renew = setInterval(() => {
    void redis.eval(RENEW, 1, backupLockKey(prefix), id, ttlMs).catch(() => undefined);
  }, ttlMs / 4);
  renew.unref();
  const release = async () => {
    clearInterval(renew);
    await redis.eval(RELEASE, 1, backupLockKey(prefix), id);
  };
  try {
    // Deletions that entered before the lock: wait until they end (or their leases run out).
    while ((await redis.zcount(deletingKey(prefix), Date.now(), '+inf')) > 0) {
      await sleep(options.pollMs ?? 200);
    }
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  return { release };
}
