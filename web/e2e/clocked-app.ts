/**
 * A second app for the browser tests that need a set moment of the year: built as `npm start` runs
 * it (api, worker, embedded S3 and mail catcher), on a database, Redis database, storage directory
 * and ports of its own, with its clock set by APP_CLOCK. A spec starts it in `beforeAll` and stops
 * it in `afterAll`; `restart` moves the clock on the same data; `cli` runs `npm run cli` against it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CLOCKED_PORT = 3200;
export const CLOCKED_URL = `http://localhost:${CLOCKED_PORT}`;

const database = 'schlosstreffen_e2e_clocked';
const adminUrl = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.E2E_CLOCKED_REDIS_URL ?? 'redis://127.0.0.1:6379/4';
const dataDir = path.join(root, '.data', 'e2e-clocked');

export interface ClockedApp {
  /** Stops the app and starts it again with its clock at `clock`; the data stays. */
  restart(clock: string): Promise<void>;
  /** `npm run cli -- …args` against this app's database, at its clock; the command's output. */
  cli(...args: string[]): Promise<string>;
  /** `npm run seed` against it. */
  seed(): Promise<string>;
  stop(): Promise<void>;
}

function databaseUrl(): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/** The environment of the app and of the CLI run against it. */
function environment(clock: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(CLOCKED_PORT),
    WORKER_HEALTH_PORT: '3209',
    PUBLIC_URL: CLOCKED_URL,
    DATABASE_URL: databaseUrl(),
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    EMBEDDED_S3_PORT: '4670',
    EMBEDDED_SMTP_PORT: '1127',
    EMBEDDED_MAIL_WEB_PORT: '1181',
    RATE_LIMIT_FACTOR: '20',
    // Nothing date-dependent runs by itself while a test looks at the data.
    SCHEDULER_TICK_MINUTES: '0',
    APP_CLOCK: clock,
  };
}

async function untilReady(child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the clocked app exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${CLOCKED_URL}/readyz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the clocked app did not become ready');
}

/** Starts the app on a fresh database with its clock at `clock` (an ISO moment with offset). */
export async function startClockedApp(clock: string): Promise<ClockedApp> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  await rm(dataDir, { recursive: true, force: true });

  let current = clock;
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(process.execPath, ['infra/dist/start.js'], {
      cwd: root,
      env: environment(current),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Shown only when something goes wrong: the app's output would drown the test report.
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    child = started;
    try {
      await untilReady(started);
    } catch (error) {
      console.error(output);
      throw error;
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['api/dist/cli/cli.js', ...args], {
      cwd: root,
      env: environment(current),
    });
    return stdout;
  };

  await start();
  return {
    async restart(clockAt: string) {
      await stop();
      current = clockAt;
      await start();
    },
    cli,
    seed: () => cli('seed'),
    stop,
  };
}
