/**
 * An api process as a rolling deploy runs it (started from the sources on the test's database):
 * with MIGRATE_ON_START=false it starts without migrating, a migration job's work; on SIGTERM its
 * readiness fails at once while it serves on for SHUTDOWN_DELAY_SECONDS, the moment a load balancer
 * needs to stop sending, and only then does it stop accepting and exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsList } from '../core/db/migrations/index.js';
import { createTestContext, type TestContext } from '../testing/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DELAY_SECONDS = 2;
const NEWEST = migrationsList.at(-1)!.name;

let t: TestContext;
let api: ChildProcess | undefined;
let url: string;
let output = '';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

const status = (pathname: string) =>
  fetch(`${url}${pathname}`).then(
    (res) => res.status,
    () => 'refused' as const,
  );

const recorded = async (name: string) =>
  (
    await t.orm.em
      .getConnection()
      .execute<{ n: string }[]>('select count(*) as n from mikro_orm_migrations where name = ?', [name])
  )[0]!.n;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  // The newest migration counts as pending: an api that migrated at start would apply it again.
  await t.orm.em.getConnection().execute('delete from mikro_orm_migrations where name = ?', [NEWEST]);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  api = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...t.env,
      PORT: String(port),
      MIGRATE_ON_START: 'false',
      SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS),
      SHUTDOWN_GRACE_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  api.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  api.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while ((await status('/healthz/ready')) !== 200) {
    if (api.exitCode !== null || Date.now() > deadline) throw new Error(`api did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 90_000);

afterAll(async () => {
  if (api && api.exitCode === null) {
    const exited = once(api, 'exit');
    api.kill('SIGKILL');
    await exited;
  }
  await t?.close();
});

describe('an api in a rolling deploy', () => {
  it('starts without migrating when MIGRATE_ON_START=false', async () => {
    expect(await recorded(NEWEST)).toBe('0');
    expect(await status('/api/vehicles/public')).toBe(200);
  });

  it('fails its readiness on SIGTERM and serves on for SHUTDOWN_DELAY_SECONDS, then stops', async () => {
    const exited = once(api!, 'exit');
    const signalled = Date.now();
    api!.kill('SIGTERM');
    // Within the delay: taken out of the load balancer, still answering whatever reaches it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await fetch(`${url}/healthz/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'stopping' });
    expect(await status('/healthz')).toBe(200);
    expect(await status('/api/vehicles/public')).toBe(200);
    expect(await status('/readyz')).toBe(200);

    while ((await status('/healthz')) !== 'refused') {
      expect(Date.now() - signalled, output).toBeLessThan((DELAY_SECONDS + 10) * 1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY_SECONDS * 1000);
    const [code] = (await exited) as [number | null];
    expect(code, output).toBe(0);
  }, 30_000);
});
