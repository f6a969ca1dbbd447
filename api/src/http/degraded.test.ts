/**
 * The api while PostgreSQL, Redis or S3 is away: each reaches the app through a proxy that the test
 * switches off (connections refused, open ones cut) or makes hang. Requests that need the missing
 * service answer 503 with a German message within seconds, /readyz names it, the readiness of load
 * balancers (/healthz/ready) fails for the database only, and everything recovers once it is back,
 * without a restart.
 */
import { startChaosProxy, type ChaosProxy } from '@schlosstreffen/infra/chaos-proxy';
import { MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Outbox } from '../core/model/outbox.entity.js';
import {
  createTestContext,
  createVehicle,
  PASSWORD,
  type SignedIn,
  type TestContext,
} from '../testing/index.js';

let t: TestContext;
let db: ChaosProxy;
let redis: ChaosProxy;
let s3: ChaosProxy;
let owner: SignedIn;
let admin: SignedIn;

const hostPort = (url: string) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
};

beforeAll(async () => {
  const services = inject('services');
  db = await startChaosProxy(hostPort(services.databaseUrl));
  redis = await startChaosProxy(hostPort(services.redisUrl));
  s3 = await startChaosProxy(hostPort(services.s3.endpoint));
  t = await createTestContext({
    relay: false,
    through: { database: db.url, redis: redis.url, s3: s3.url },
  });
  owner = await t.signIn();
  admin = await t.signIn('admin');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([db, redis, s3].map((proxy) => proxy?.close()));
});
beforeEach(async () => {
  await Promise.all([db.up(), redis.up(), s3.up()]);
  // Connections come back on their own, after a moment.
  await eventually(async () => expect((await t.client().get('/readyz')).status).toBe(200));
});

/** A request with its duration; fails the test when it takes longer than `limitMs`. */
async function timed(send: () => Promise<{ status: number; data: Record<string, unknown> }>, limitMs = 6000) {
  const started = Date.now();
  const res = await send();
  const ms = Date.now() - started;
  expect(ms, `answered after ${ms} ms`).toBeLessThan(limitMs);
  return res;
}

/** Waits until `check` passes, for at most `ms`. */
async function eventually(check: () => Promise<void>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe('PostgreSQL away', () => {
  it('answers 503 with a German message at once, /readyz names the database, the readiness fails, and all recovers', async () => {
    await db.down();
    const res = await timed(() => owner.client.get('/api/vehicles'));
    expect(res.status).toBe(503);
    expect(res.data.message).toBe(MESSAGES.databaseUnavailable);
    const ready = await timed(() => t.client().get('/readyz'));
    expect(ready.status).toBe(503);
    expect(ready.data.checks).toEqual({ database: 'down', redis: 'ok', storage: 'ok' });
    // This api cannot serve: the load balancer's readiness takes it out; liveness keeps it running.
    const serving = await timed(() => t.client().get('/healthz/ready'));
    expect(serving.status).toBe(503);
    expect(serving.data).toEqual({ status: 'unavailable', checks: { database: 'down' } });
    expect((await t.client().get('/healthz')).status).toBe(200);

    await db.up();
    await eventually(async () => expect((await owner.client.get('/api/vehicles')).status).toBe(200));
    expect((await t.client().get('/readyz')).status).toBe(200);
    expect((await t.client().get('/healthz/ready')).status).toBe(200);
  });

  it('answers 503 within seconds when the database hangs', async () => {
    await db.hang();
    const res = await timed(() => owner.client.get('/api/vehicles'), 10_000);
    expect(res.status).toBe(503);
    await db.up();
    await eventually(async () => expect((await owner.client.get('/api/vehicles')).status).toBe(200));
  });

  it('relays what was committed before it went away once it is back', async () => {
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });
    await db.down();
    // The relay runs while the database is away: it fails, and tries again.
    t.relay.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await db.up();
    await eventually(async () => {
      const rows = await t.orm.em.fork().find(Outbox, { publishedAt: null });
      expect(rows).toEqual([]);
    });
    const jobs = await t.queues.email.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs.some((job) => JSON.stringify(job.data).includes(vehicle.model))).toBe(true);
    await t.relay.stop();
    // A transaction that could not begin on a dead connection gave it back (none is held).
    await eventually(async () => {
      const pool = t.poolStats();
      expect(pool.total - pool.idle).toBe(0);
    });
  });
});

describe('Redis away', () => {
  it('keeps logins working with limits held in memory, stays ready, and /readyz names Redis', async () => {
    await redis.down();
    const login = await timed(
      () => t.client().post('/api/auth/login', { email: owner.email, password: PASSWORD }),
      3000,
    );
    expect(login.status).toBe(200);
    const wrong = await timed(
      () => t.client().post('/api/auth/login', { email: owner.email, password: 'falsch-1234' }),
      3000,
    );
    expect(wrong.status).toBe(401);
    const ready = await timed(() => t.client().get('/readyz'));
    expect(ready.status).toBe(503);
    expect(ready.data.checks).toEqual({ database: 'ok', redis: 'down', storage: 'ok' });
    // Pages and sign-ins go on, so the load balancer keeps sending.
    const serving = await timed(() => t.client().get('/healthz/ready'));
    expect(serving.status).toBe(200);
    expect(serving.data).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('still refuses guessing while Redis is away (per process)', async () => {
    await redis.down();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await timed(
        () => t.client().post('/api/auth/login', { email: admin.email, password: `falsch-${i}` }),
        3000,
      );
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
  });

  it('accepts a status change, whose jobs leave once Redis is back', async () => {
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });
    await redis.down();
    t.relay.start();
    const res = await timed(() =>
      admin.client.patch(`/api/admin/vehicles/${vehicle.id}/status`, {
        status: 'in_review',
        oldStatus: 'submitted',
      }),
    );
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await t.orm.em.fork().count(Outbox, { publishedAt: null })).toBeGreaterThan(0);
    await redis.up();
    await eventually(
      async () => expect(await t.orm.em.fork().count(Outbox, { publishedAt: null })).toBe(0),
      15_000,
    );
    await t.relay.stop();
  });

  it('answers the queue dashboard with 503 instead of hanging', async () => {
    await redis.down();
    const res = await timed(() => admin.client.get('/admin/queues/api/queues'));
    expect(res.status).toBe(503);
    expect(res.data.message).toBe(MESSAGES.queuesUnavailable);
  });
});

describe('S3 away', () => {
  it('refuses attaching and serving images with a clear 503, and recovers', async () => {
    const vehicle = await createVehicle(owner.client);
    const signed = await owner.client.post('/api/objects/upload', {
      filename: 'a.jpg',
      type: 'image/jpeg',
      size: 1,
    });
    expect(signed.status).toBe(200);
    await s3.down();
    const attach = await timed(() =>
      owner.client.post(`/api/vehicles/${vehicle.id}/media`, { url: signed.data.objectPath }),
    );
    expect(attach.status).toBe(503);
    expect(attach.data.message).toBe(MESSAGES.storageUnavailable);
    const ready = await timed(() => t.client().get('/readyz'));
    expect(ready.data.checks).toEqual({ database: 'ok', redis: 'ok', storage: 'down' });
    expect((await timed(() => t.client().get('/healthz/ready'))).status).toBe(200);

    await s3.up();
    await eventually(async () => expect((await t.client().get('/readyz')).status).toBe(200));
  });
});
