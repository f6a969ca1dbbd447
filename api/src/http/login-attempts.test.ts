/**
 * Login attempts are counted before the password is checked, in one step shared by every api
 * process: a burst of parallel wrong passwords for one account gets no more password checks than
 * the sequential backoff allows. Two processes: this one (in-process api) and a second api started
 * from the sources as its own process on the same PostgreSQL and Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, insertConfirmedUser, TEST_ORIGIN, type TestContext } from '../testing/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestContext;
let second: ChildProcess | undefined;
let secondUrl: string;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  const port = await freePort();
  secondUrl = `http://127.0.0.1:${port}`;
  second = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...t.env, PORT: String(port), SHUTDOWN_GRACE_SECONDS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  second.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  second.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${secondUrl}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (second.exitCode !== null || Date.now() > deadline) {
      throw new Error(`second api did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 90_000);

afterAll(async () => {
  if (second && second.exitCode === null) {
    const exited = once(second, 'exit');
    second.kill('SIGTERM');
    await exited;
  }
  await t?.close();
});

const login = (base: string, email: string) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
    body: JSON.stringify({ email, password: 'ganz-falsch-geraten' }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { message: string } }));

describe('parallel wrong passwords for one account', () => {
  it('100 at once over two api processes: at most 6 are checked, the rest answer 429', async () => {
    const { email } = await insertConfirmedUser(t);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(i % 2 ? secondUrl : t.baseUrl, email)),
    );
    const count = (status: number) => answers.filter((answer) => answer.status === status).length;
    console.log(`100 parallel wrong logins on two processes: ${count(401)} × 401, ${count(429)} × 429`);
    expect(count(401)).toBeGreaterThan(0);
    expect(count(401)).toBeLessThanOrEqual(t.config.rateLimits.loginPerAccount.free + 1);
    expect(count(429)).toBe(100 - count(401));
    expect(answers.find((answer) => answer.status === 429)?.body.message).toMatch(/^Zu viele Versuche/);
  });
});
