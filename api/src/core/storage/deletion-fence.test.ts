import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import '../../testing/services.js';
import { backupLockKey, DeletionsHeldError, deletionFence, holdDeletions } from './deletion-fence.js';

let redis: Redis;
const prefix = `t${randomBytes(5).toString('hex')}`;

beforeAll(() => {
  redis = new Redis(inject('services').redisUrl, { maxRetriesPerRequest: null });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('object deletions and a running backup', () => {
  it('a deletion waits while a backup holds them, and gives up with a retry when it holds them on', async () => {
    const fence = deletionFence(redis, prefix, { waitMs: 300, pollMs: 50, retryInMs: 5000 });
    const held = await holdDeletions(redis, prefix);
    const deleted: string[] = [];
    const refused = await fence.deleting(async () => deleted.push('during')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeletionsHeldError);
    expect((refused as DeletionsHeldError).retryInMs).toBe(5000);
    expect(deleted).toEqual([]);

    // Another backup cannot take the lock meanwhile.
    await expect(holdDeletions(redis, prefix)).rejects.toThrow(/another backup is running/);

    // A deletion that starts waiting goes ahead once the backup releases.
    const waiting = deletionFence(redis, prefix, { waitMs: 30_000, pollMs: 50 }).deleting(async () =>
      deleted.push('after'),
    );
    await held.release();
    await waiting;
    expect(deleted).toEqual(['after']);
    expect(await redis.exists(backupLockKey(prefix))).toBe(0);
  });

  it('a backup waits for the deletions already running before it takes its snapshot', async () => {
    const fence = deletionFence(redis, prefix);
    const order: string[] = [];
    let finish!: () => void;
    const running = fence.deleting(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            order.push('deletion ended');
            resolve();
          };
        }),
    );
    // The deletion has entered (its lease is registered) before the backup asks.
    await expect.poll(() => typeof finish).toBe('function');
    const backup = holdDeletions(redis, prefix, { pollMs: 20 }).then((held) => {
      order.push('backup holds');
      return held;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual([]);
    finish();
    await running;
    const held = await backup;
    expect(order).toEqual(['deletion ended', 'backup holds']);
    await held.release();
  });

  it('a crashed backup holds deletions only until its lock expires', async () => {
    // The lock as a backup left it when its process died: nobody renews or releases it.
    await redis.set(backupLockKey(prefix), 'a backup that died', 'PX', 400);
    const fence = deletionFence(redis, prefix, { waitMs: 20_000, pollMs: 50 });
    await expect(fence.deleting(async () => 'deleted')).resolves.toBe('deleted');
  });
});
