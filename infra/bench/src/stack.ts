/**
 * The bench's own stack: database, Redis database, embedded S3 and mail catcher on ports of their
 * own, the api and the worker as the real built processes, and child processes; everything is torn
 * down at the end, also on failure or Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  s3Env,
  startMailCatcher,
  type EmbeddedS3,
  type S3Settings,
} from '@schlosstreffen/infra/dev-services';
import {
  ADMIN_DATABASE_URL,
  API_URL,
  DATA_DIR,
  DATABASE,
  databaseUrl,
  METRICS_TOKEN,
  PORTS,
  PUBLIC_URL,
  REDIS_URL,
  ROOT,
  WORKER_PROCESS_ENV,
} from './settings.js';

type Cleanup = () => Promise<unknown>;
const cleanups: Cleanup[] = [];

/** Runs at teardown, last registered first. */
export function onCleanup(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

let tearingDown: Promise<void> | undefined;
export function teardown(): Promise<void> {
  return (tearingDown ??= (async () => {
    while (cleanups.length) {
      const cleanup = cleanups.pop()!;
      await cleanup().catch((error: unknown) => console.error('bench cleanup:', error));
    }
  })());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, cleaning up`);
    void teardown().finally(() => process.exit(130));
  });
}

/**
 * Preloaded into children: they exit when their stdin pipe closes, which happens when the bench dies
 * in any way, even by SIGKILL.
 */
export const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "process.stdin.on('end', () => process.exit()).on('error', () => process.exit()).resume();",
)}`;

export interface NodeChild {
  child: ChildProcess;
  /** Recent output, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A Node process (the project's Node 24) from the repository root; stdout and stderr are kept
 * (the tail) and echoed when `echo` is set. With `ipc`, the child can exchange messages.
 */
export function spawnNode(
  name: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ipc?: boolean; echo?: boolean } = {},
): NodeChild {
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, ...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  let output = '';
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-8000);
    if (options.echo) process.stderr.write(chunk.replace(/^(?=.)/gm, `  [${name}] `));
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    })());
  onCleanup(stop);
  return { child, output: () => output, stop };
}

/** Resolves when `ready` holds; throws when the child exits first or the time is up. */
export async function waitFor(
  what: string,
  ready: () => Promise<boolean> | boolean,
  { child, timeoutMs = 60_000 }: { child?: NodeChild; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    const exited = child && (child.child.exitCode !== null || child.child.signalCode !== null);
    if (exited || Date.now() > deadline) {
      throw new Error(`${what} ${exited ? 'exited' : 'timed out'}:\n${child?.output() ?? ''}`);
    }
    await sleep(100);
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const dropDatabase = () => adminQuery(`drop database if exists ${DATABASE} with (force)`);

async function flushRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

export interface Services {
  s3: EmbeddedS3;
  smtpUrl: string;
  mailWebUrl: string;
  /** Environment of the api and the worker. */
  env: NodeJS.ProcessEnv;
}

/**
 * The embedded S3 server in a process of its own, as production's object storage is: the uploads it
 * receives and the objects it serves do not share the event loop of the bench's clients.
 */
async function startS3Process(dataDir: string, port: number): Promise<EmbeddedS3> {
  const script = [
    `import { startEmbeddedS3 } from '@schlosstreffen/infra/dev-services';`,
    `const { stop, ...settings } = await startEmbeddedS3(${JSON.stringify({ dataDir, port })});`,
    `process.once('SIGTERM', () => void stop().finally(() => process.exit(0)));`,
    `process.send(settings);`,
  ].join('\n');
  const server = spawnNode('s3', ['--input-type=module', '--eval', script], { ipc: true });
  const settings = await firstMessage<S3Settings>(server);
  return { ...(settings as EmbeddedS3), stop: server.stop };
}

/** A fresh database name, Redis database and storage directory; S3 and the mail catcher started. */
export async function startServices(): Promise<Services> {
  await dropDatabase();
  await flushRedis();
  await rm(DATA_DIR, { recursive: true, force: true });
  onCleanup(() => rm(DATA_DIR, { recursive: true, force: true }));
  onCleanup(flushRedis);
  onCleanup(dropDatabase);

  const s3 = await startS3Process(path.join(DATA_DIR, 's3'), PORTS.s3);
  const mail = await startMailCatcher({ smtpPort: PORTS.smtp, webPort: PORTS.mailWeb });
  onCleanup(() => mail.stop());

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORTS.api),
    PUBLIC_URL,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    ...s3Env(s3),
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: 'Schlosstreffen <noreply@bench.test>',
    // The imprint's operator: production (the worker) requires it.
    OPERATOR_NAME: 'Bench Schlosstreffen e. V.',
    OPERATOR_ADDRESS: 'Schlossallee 1|12345 Benchstadt',
    OPERATOR_EMAIL: 'info@bench.test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    DATA_DIR,
    // R7 signs in hundreds of times a second from one address.
    RATE_LIMIT_FACTOR: '1000000',
    // An event ahead, as for a site in use: with the configured (past) one the worker's retention
    // would delete the rejected applications while the figures are measured.
    ...upcomingEvent(),
    WORKER_CONCURRENCY: '4',
    // Metrics on and a log line per request (info), as in production: their cost is in every figure.
    METRICS_TOKEN,
    WORKER_METRICS_PORT: String(PORTS.workerMetrics),
    WORKER_HEALTH_PORT: String(PORTS.workerHealth),
    LOG_LEVEL: 'info',
  };
  return { s3, smtpUrl: mail.smtpUrl, mailWebUrl: mail.webUrl, env };
}

/**
 * An event 120 days ahead (10:00–20:00 UTC), its application deadline 30 days before it; the gates
 * take scans from a day before the run on (the bench's and the load's gates check cars in now).
 */
export function upcomingEvent(): NodeJS.ProcessEnv {
  const day = 86_400_000;
  const start = new Date(Math.ceil((Date.now() + 120 * day) / day) * day + 10 * 3_600_000);
  return {
    EVENT_START: start.toISOString(),
    EVENT_END: new Date(start.getTime() + 10 * 3_600_000).toISOString(),
    GATE_OPENS_AT: new Date(Date.now() - day).toISOString(),
    APPLICATION_DEADLINE: new Date(start.getTime() - 30 * day).toISOString().slice(0, 10),
  };
}

/**
 * The api as built (`api/dist/main.js`). Development mode with every setting given, so nothing
 * embedded starts inside it and plain http works (production sets Secure cookies, HSTS and
 * upgrade-insecure-requests, which a browser on http://localhost cannot follow). It logs as in
 * production: a JSON line per request (LOG_FORMAT=json), which R1 pays for.
 */
export async function startApi(services: Services): Promise<NodeChild> {
  const api = spawnNode('api', [path.join('api', 'dist', 'main.js')], {
    env: { ...services.env, NODE_ENV: 'development', LOG_FORMAT: 'json' },
  });
  await waitFor(
    'api',
    () =>
      fetch(`${API_URL}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    { child: api },
  );
  return api;
}

/** The worker as built (`worker/dist/main.js`), in production mode: every setting is given. */
export async function startWorker(services: Services): Promise<NodeChild> {
  const worker = spawnNode('worker', [path.join('worker', 'dist', 'main.js')], {
    env: { ...services.env, ...WORKER_PROCESS_ENV, NODE_ENV: 'production' },
  });
  await waitFor('worker', () => worker.output().includes('worker started'), { child: worker });
  return worker;
}

/**
 * A bench child process, run from the build (`npm run build` compiles this package too) with plain
 * Node: no TypeScript loader adds to the memory or time it measures. Workspace packages resolve to
 * their builds, as in the api and the worker.
 */
export function spawnScript(name: string, script: string, env: NodeJS.ProcessEnv = process.env): NodeChild {
  const file = path.join('infra', 'bench', 'dist', script);
  if (!existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return spawnNode(name, [file], { env, ipc: true });
}

/** The first message of an IPC child, or its output when it exits without one. */
export function firstMessage<T>(script: NodeChild): Promise<T> {
  return new Promise((resolve, reject) => {
    script.child.once('message', (message) => resolve(message as T));
    script.child.once('exit', (code, signal) =>
      reject(new Error(`child exited (${signal ?? code}) without an answer:\n${script.output()}`)),
    );
  });
}

/** The S3 settings without the server's stop function (they travel to child processes). */
export function s3Settings(s3: EmbeddedS3): S3Settings {
  const { stop: _stop, ...settings } = s3;
  return settings;
}
