/**
 * Redis under Sentinel: a primary, a replica and three Sentinels on loopback, the app configured
 * with REDIS_SENTINELS. Its rate limits, the outbox relay's queue and a BullMQ worker go on against
 * the new primary after a failover that leaves the old one running as a replica (its connections
 * open, its writes refused), within seconds. The cluster drill covers a primary that dies.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getFreePort } from '@schlosstreffen/infra/dev-services';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis } from './redis.js';
import { createTestContext, registerUser, type TestContext } from '../testing/index.js';
import { startDaemon, type Daemon } from '../testing/daemons.js';

const NAME = 'schlosstreffen';
/**
 * How soon after the Sentinels name the new primary everything runs on it. Without following
 * their announcement, connections to the old primary would wait until the Sentinels get round to
 * disconnecting its clients, about ten seconds later.
 */
const RECOVERY_MS = 6000;

let dir: string;
const daemons: Daemon[] = [];
const admins = new Map<number, Redis>();
let primary: Daemon;
let replica: Daemon;
let sentinels: Daemon[];
let t: TestContext;
let worker: Worker;
/** Ids of the email jobs the worker ran. */
const ran = new Set<string>();

/** A plain connection to one server (a Redis or a Sentinel), not through the app's. */
function admin(port: number): Redis {
  let redis = admins.get(port);
  if (!redis) admins.set(port, (redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 })));
  return redis;
}

async function startRedis(name: string, ...args: string[]): Promise<Daemon> {
  const port = await getFreePort();
  const home = path.join(dir, name);
  await writeFile(`${home}.conf`, '');
  const daemon = await startDaemon(
    'redis-server',
    [`${home}.conf`, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
      .concat(['--dir', dir, '--dbfilename', `${name}.rdb`, '--repl-diskless-sync-delay', '0'])
      .concat(args),
    port,
  );
  daemons.push(daemon);
  return daemon;
}

async function startSentinel(name: string, primaryPort: number): Promise<Daemon> {
  const port = await getFreePort();
  const conf = path.join(dir, `${name}.conf`);
  await writeFile(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${NAME} 127.0.0.1 ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${NAME} 1000`,
      `sentinel failover-timeout ${NAME} 5000`,
      '',
    ].join('\n'),
  );
  const daemon = await startDaemon('redis-server', [conf, '--sentinel'], port);
  daemons.push(daemon);
  return daemon;
}

/** A field of `SENTINEL MASTER` (a flat list of names and values). */
async function masterField(sentinel: Daemon, field: string): Promise<string | undefined> {
  const fields = (await admin(sentinel.port).call('sentinel', 'master', NAME)) as string[];
  return fields[fields.indexOf(field) + 1];
}

const primaryPort = async (sentinel: Daemon) =>
  Number(((await admin(sentinel.port).call('sentinel', 'get-master-addr-by-name', NAME)) as string[])[1]);

/** The register limit's counter of the test's address as a server holds it. */
const registerCount = async (server: Daemon) => {
  const keys = await admin(server.port).keys(`${t.prefix}:*register*`);
  expect(keys).toHaveLength(1);
  return Number(await admin(server.port).get(keys[0]!));
};

/** Registers an account through the api and waits until the worker ran its confirmation mail's job. */
async function registerAndMail(timeout: number): Promise<void> {
  const before = ran.size;
  await registerUser(t.client());
  await vi.waitFor(() => expect(ran.size).toBeGreaterThan(before), { timeout, interval: 50 });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinel-'));
  primary = await startRedis('primary');
  replica = await startRedis('replica', '--replicaof', '127.0.0.1', String(primary.port));
  sentinels = [];
  for (const name of ['sentinel-1', 'sentinel-2', 'sentinel-3'])
    sentinels.push(await startSentinel(name, primary.port));
  // Ready for a failover: the replica in sync, known to the Sentinels, who know each other.
  await vi.waitFor(
    async () => {
      expect(await admin(replica.port).info('replication')).toContain('master_link_status:up');
      for (const sentinel of sentinels) {
        expect(await masterField(sentinel, 'num-slaves')).toBe('1');
        expect(await masterField(sentinel, 'num-other-sentinels')).toBe('2');
      }
    },
    { timeout: 15_000, interval: 100 },
  );

  t = await createTestContext({
    env: {
      REDIS_URL: '',
      REDIS_SENTINELS: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
      REDIS_SENTINEL_NAME: NAME,
      // Registrations are what this test writes, more than the hour's limit while it waits.
      RATE_LIMIT_FACTOR: '100',
    },
  });
  worker = new Worker(
    'email',
    async (job) => {
      ran.add(job.id!);
    },
    { connection: connectRedis(t.config.redis, 'worker'), prefix: t.prefix },
  );
  worker.on('error', () => undefined);
}, 30_000);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  for (const redis of admins.values()) redis.disconnect();
  await Promise.all(daemons.map((daemon) => daemon.stop()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Redis under Sentinel', () => {
  it('keeps limits, queues and jobs going on the new primary after a failover', async () => {
    expect(t.config.redis).toMatchObject({ name: NAME, sentinels: expect.any(Array) });
    expect(await primaryPort(sentinels[0]!)).toBe(primary.port);
    await registerAndMail(10_000);
    const counted = await registerCount(primary);
    expect(counted).toBeGreaterThan(0);

    // The replica becomes the primary; the old primary runs on as its replica.
    await admin(sentinels[0]!.port).call('sentinel', 'failover', NAME);
    await vi.waitFor(async () => expect(await primaryPort(sentinels[1]!)).toBe(replica.port), {
      timeout: 10_000,
      interval: 100,
    });
    const failedOver = Date.now();

    // Writes land on the new primary: the register limit counts there, and a mail's job is queued
    // there by the relay and run by the worker.
    await vi.waitFor(
      async () => {
        await registerUser(t.client());
        expect(await registerCount(replica)).toBeGreaterThan(counted);
      },
      { timeout: RECOVERY_MS, interval: 200 },
    );
    await registerAndMail(Math.max(0, RECOVERY_MS - (Date.now() - failedOver)));
    expect(await admin(replica.port).call('role')).toContain('master');
  }, 30_000);
});
