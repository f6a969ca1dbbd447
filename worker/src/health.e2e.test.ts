import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTestContext, type TestContext } from '@schlosstreffen/api/testing';
import { startChaosProxy, type ChaosProxy } from '@schlosstreffen/infra/chaos-proxy';
import { QUEUE_NAMES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { healthOf, serveHealth, type HealthAnswer } from './health.js';
import { createTestMailer, startTestWorkers } from './testing.js';

/**
 * The worker's health endpoint as probes reach it: the real worker process (from the sources, on
 * the test's database, its Redis behind a proxy the test switches off) answers GET /healthz on
 * WORKER_HEALTH_PORT without a token and without METRICS_TOKEN; a Redis that is away shows in the
 * answer and fails nothing; started with MIGRATE_ON_START=false it did not migrate. In-process, a
 * queue whose BullMQ worker stopped its loop makes the answer 503 'stuck'.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let t: TestContext;
let redis: ChaosProxy;
let worker: ChildProcess | undefined;
let output = '';
let healthUrl: string;
let metricsPort: number;
let inProcess: Server | undefined;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const health = (url = healthUrl) =>
  fetch(`${url}/healthz`).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as HealthAnswer,
  }));

/** Polls until `check` holds; fails after `ms` with what the worker printed. */
async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${output}`);
    await sleep(100);
  }
}

/** The newest migration, marked pending in the test's database: a worker that migrated would apply it. */
const NEWEST_MIGRATION = async () =>
  (
    await t.orm.em
      .getConnection()
      .execute<{ name: string }[]>('select name from mikro_orm_migrations order by id desc limit 1')
  )[0]!.name;

const recorded = async (name: string) =>
  (
    await t.orm.em
      .getConnection()
      .execute<{ n: string }[]>('select count(*) as n from mikro_orm_migrations where name = ?', [name])
  )[0]!.n;

let newest: string;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  const services = inject('services');
  const target = new URL(services.redisUrl);
  redis = await startChaosProxy({ host: target.hostname, port: Number(target.port) });
  newest = await NEWEST_MIGRATION();
  await t.orm.em.getConnection().execute('delete from mikro_orm_migrations where name = ?', [newest]);
  const healthPort = await freePort();
  metricsPort = await freePort();
  healthUrl = `http://127.0.0.1:${healthPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...t.env,
    REDIS_URL: redis.url(services.redisUrl),
    WORKER_HEALTH_PORT: String(healthPort),
    WORKER_METRICS_PORT: String(metricsPort),
    MIGRATE_ON_START: 'false',
    SCHEDULER_TICK_MINUTES: '0',
  };
  delete env.METRICS_TOKEN;
  worker = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'worker'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [worker.stdout!, worker.stderr!]) {
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  }
  await until(async () => (await health()).status === 200, 'the worker answers /healthz', 60_000);
}, 90_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = once(worker, 'exit');
    worker.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (worker.exitCode === null) worker.kill('SIGKILL');
  }
  await new Promise((resolve) => (inProcess ? inProcess.close(resolve) : resolve(undefined)));
  await redis?.close();
  await t?.close();
});

describe('the worker process’s health endpoint', () => {
  it('answers 200 on its own port without a token, every queue’s loop running, Redis ready', async () => {
    // Right after the start its Redis link may still be connecting (a busy machine): it becomes ready.
    await until(
      async () => (await health()).body?.redis === 'ready',
      'Redis ready in the health answer',
      20_000,
    );
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      running: QUEUE_NAMES.length,
      total: QUEUE_NAMES.length,
      redis: 'ready',
    });
    expect((await fetch(`${healthUrl}/metrics`)).status).toBe(404);
    // Without METRICS_TOKEN the metrics port stays closed; the health port is open all the same.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it('started without migrating when MIGRATE_ON_START=false', async () => {
    expect(await recorded(newest)).toBe('0');
  });

  it('reports Redis away in its answer and stays healthy; ready again once Redis is back', async () => {
    await redis.down();
    const statuses = new Set<number>();
    let away: HealthAnswer | undefined;
    await until(async () => {
      const answer = await health();
      statuses.add(answer.status);
      away = answer.body;
      return answer.body.redis !== 'ready';
    }, 'the answer shows Redis away');
    expect([...statuses]).toEqual([200]);
    expect(away!.status).toBe('ok');
    expect(['connecting', 'reconnecting']).toContain(away!.redis);
    expect(away!.running).toBe(QUEUE_NAMES.length);

    await redis.up();
    await until(async () => (await health()).body.redis === 'ready', 'Redis ready again');
    expect((await health()).status).toBe(200);
  });
});

describe('a worker whose job loop stopped', () => {
  it('answers 503 stuck, naming how many queues still run', async () => {
    const running = startTestWorkers(t, { mailer: createTestMailer(t) });
    try {
      inProcess = await serveHealth(0, () => healthOf(running.health(), false));
      const url = `http://127.0.0.1:${(inProcess.address() as AddressInfo).port}`;
      await until(async () => (await health(url)).body.redis === 'ready', 'in-process workers ready');
      expect((await health(url)).status).toBe(200);

      await running.workers[0]!.close();
      const { status, body } = await health(url);
      expect(status).toBe(503);
      expect(body).toMatchObject({
        status: 'stuck',
        running: QUEUE_NAMES.length - 1,
        total: QUEUE_NAMES.length,
      });
      expect(healthOf(running.health(), true).status).toBe('stopping');
    } finally {
      await running.close(5000);
    }
  });
});
