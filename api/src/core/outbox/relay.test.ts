import type { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { Outbox } from '../model/outbox.entity.js';
import { enqueue } from './outbox.js';
import { OutboxRelay } from './relay.js';
import type { Queues } from './queues.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.queues.email.obliterate({ force: true });
  await t.orm.em.fork().nativeDelete(Outbox, {});
});

async function writeRows(count: number): Promise<string[]> {
  const em = t.orm.em.fork();
  const rows = Array.from({ length: count }, (_, i) =>
    enqueue(em, 'email.send', {
      template: 'password-reset',
      to: `r${i}@example.de`,
      props: { firstName: 'R' },
    }),
  );
  await em.flush();
  return rows.map((row) => row.id);
}

const jobIds = async () =>
  (await t.queues.email.getJobs(['waiting', 'delayed', 'active'])).map((job) => job.id).sort();
const unpublished = () => t.orm.em.fork().count(Outbox, { publishedAt: null });

describe('OutboxRelay', () => {
  it('publishes each row as a job whose id is the row id, then marks it published', async () => {
    const ids = await writeRows(3);
    const relay = new OutboxRelay(t.orm.em, t.queues);
    expect(await relay.relayOnce()).toBe(3);
    expect(await jobIds()).toEqual([...ids].sort());
    const job = await t.queues.email.getJob(ids[0]!);
    expect(job?.name).toBe('email.send');
    expect(job?.data).toMatchObject({ template: 'password-reset', to: 'r0@example.de' });
    expect(await unpublished()).toBe(0);
    expect(await relay.relayOnce()).toBe(0);
  });

  it('loses and doubles nothing when the API dies between publishing and commit', async () => {
    const ids = await writeRows(5);
    // The first API publishes to Redis, then dies before its transaction commits.
    const crashing = {
      email: new Proxy(t.queues.email, {
        get(target, prop, receiver) {
          if (prop === 'addBulk') {
            return async (jobs: Parameters<Queue['addBulk']>[0]) => {
              await target.addBulk(jobs);
              throw new Error('process killed');
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      }),
    } as Queues;
    await expect(new OutboxRelay(t.orm.em, crashing).relayOnce()).rejects.toThrow('process killed');
    expect(await unpublished()).toBe(5);

    // The restarted API relays the same rows again: same job ids, so still one job per row.
    expect(await new OutboxRelay(t.orm.em, t.queues).relayOnce()).toBe(5);
    expect(await jobIds()).toEqual([...ids].sort());
    expect(await t.queues.email.count()).toBe(5);
    expect(await unpublished()).toBe(0);
  });

  it('lets several relays run side by side without publishing a row twice', async () => {
    const ids = await writeRows(120);
    const relays = [1, 2, 3].map(() => new OutboxRelay(t.orm.em, t.queues, { batchSize: 10 }));
    const drain = async (relay: OutboxRelay) => {
      let total = 0;
      for (let n = await relay.relayOnce(); n > 0; n = await relay.relayOnce()) total += n;
      return total;
    };
    const counts = await Promise.all(relays.map(drain));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
    expect(await jobIds()).toEqual([...ids].sort());
  });

  it('keeps relaying across a stop and a restart of its loop', async () => {
    const first = new OutboxRelay(t.orm.em, t.queues, { intervalMs: 20, batchSize: 7 });
    first.start();
    const ids = await writeRows(30);
    first.wake();
    await first.stop();
    const more = await writeRows(10);
    const second = new OutboxRelay(t.orm.em, t.queues, { intervalMs: 20 });
    second.start();
    await expect.poll(unpublished, { timeout: 5000 }).toBe(0);
    await second.stop();
    expect(await jobIds()).toEqual([...ids, ...more].sort());
  });
});
