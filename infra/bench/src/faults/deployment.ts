/**
 * A deployment as the fault suite runs it: its own database, Redis key prefix (derived from the
 * database name, as in production), embedded S3 and mail catcher, each behind a chaos proxy the
 * suite can switch off, and the real built api and worker processes, which the suite kills and
 * starts again as a process manager would.
 */
import { once } from 'node:events';
import { appendFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { closeQueues, createQueues, defaultRedisPrefix, type Queues } from '@schlosstreffen/api/core';
import { startChaosProxy, type ChaosProxy } from '@schlosstreffen/infra/chaos-proxy';
import {
  s3Env,
  startEmbeddedS3,
  startMailCatcher,
  type EmbeddedS3,
} from '@schlosstreffen/infra/dev-services';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ADMIN_DATABASE_URL, ROOT } from '../settings.js';
import { onCleanup, spawnNode, waitFor, type NodeChild } from '../stack.js';

export const REDIS_URL = process.env.FAULTS_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface DeploymentOptions {
  name: string;
  database: string;
  apis: number;
  workers: number;
  /** First port of this deployment; apis, S3 and mail take the ones after it. */
  basePort: number;
  /** Environment for api and worker on top of the deployment's. */
  env?: NodeJS.ProcessEnv;
}

/** An api or worker process that can be killed and started again under the same role. */
export class Proc {
  child: NodeChild | undefined;
  starts = 0;
  /**
   * The process's error log over all its starts, at most 64 KB: its log lines at level error or
   * fatal (JSON on stdout) and whatever it wrote to stderr.
   */
  stderr = '';

  constructor(
    readonly role: 'api' | 'worker',
    readonly index: number,
    private readonly deployment: Deployment,
  ) {}

  get pid(): number | undefined {
    const child = this.child?.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  get url(): string {
    return `http://127.0.0.1:${this.deployment.apiPort(this.index)}`;
  }

  async start(): Promise<void> {
    const env = {
      ...this.deployment.env,
      PORT: String(this.deployment.apiPort(this.index)),
      // Each worker's health endpoint on a port of its own, apart from the apis, S3 and mail.
      WORKER_HEALTH_PORT: String(this.deployment.apiPort(this.index) + 20),
    };
    const child = spawnNode(
      `${this.deployment.name}-${this.role}${this.index + 1}`,
      [path.join(this.role, 'dist', 'main.js')],
      { env },
    );
    this.child = child;
    this.starts += 1;
    const logFile = path.join(
      os.tmpdir(),
      'schlosstreffen-faults',
      `${this.deployment.name}-${this.role}${this.index + 1}.log`,
    );
    mkdirSync(path.dirname(logFile), { recursive: true });
    const record = (chunk: string) => {
      if (this.stderr.length < 64_000) this.stderr += chunk;
      // The whole error log stays for whoever investigates a failed check.
      appendFileSync(logFile, chunk);
    };
    child.child.stderr?.on('data', record);
    let partial = '';
    child.child.stdout?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      const errors = lines.filter((line) => /"level":"(error|fatal)"/.test(line));
      if (errors.length) record(`${errors.join('\n')}\n`);
    });
    if (this.role === 'api') {
      await waitFor(`${this.role} ${this.index + 1}`, () => ready(this.url), { child, timeoutMs: 60_000 });
    } else {
      await waitFor(`${this.role} ${this.index + 1}`, () => child.output().includes('worker started'), {
        child,
        timeoutMs: 60_000,
      });
    }
  }

  /** Sends the signal and waits for the process to end. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }

  output(): string {
    return this.child?.output() ?? '';
  }
}

const ready = (url: string) =>
  fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
    (response) => response.ok,
    () => false,
  );

export class Deployment {
  readonly apis: Proc[];
  readonly workers: Proc[];
  env: NodeJS.ProcessEnv = {};
  s3!: EmbeddedS3;
  s3Proxy!: ChaosProxy;
  smtpProxy!: ChaosProxy;
  mailWebUrl = '';
  databaseUrl: string;
  readonly redisPrefix: string;
  queues!: Queues;
  private redis!: Redis;
  private readonly dataDir: string;

  constructor(readonly options: DeploymentOptions) {
    this.name = options.name;
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${options.database}`;
    this.databaseUrl = url.href;
    this.redisPrefix = defaultRedisPrefix(this.databaseUrl);
    this.dataDir = path.join(ROOT, '.data', 'faults', options.name);
    this.apis = Array.from({ length: options.apis }, (_, i) => new Proc('api', i, this));
    this.workers = Array.from({ length: options.workers }, (_, i) => new Proc('worker', i, this));
  }

  readonly name: string;

  apiPort(index: number): number {
    return this.options.basePort + index;
  }

  get publicUrl(): string {
    return `http://localhost:${this.apiPort(0)}`;
  }

  async start(): Promise<void> {
    await dropDatabase(this.options.database);
    await rm(this.dataDir, { recursive: true, force: true });
    onCleanup(() => rm(this.dataDir, { recursive: true, force: true }));
    onCleanup(() => dropDatabase(this.options.database));
    this.redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    this.redis.on('error', () => undefined);
    await deleteKeys(this.redis, this.redisPrefix);
    onCleanup(async () => {
      await deleteKeys(this.redis, this.redisPrefix).catch(() => undefined);
      this.redis.disconnect();
    });

    const base = this.options.basePort + 10;
    this.s3 = await startEmbeddedS3({ dataDir: path.join(this.dataDir, 's3'), port: base });
    onCleanup(() => this.s3.stop());
    this.s3Proxy = await startChaosProxy({ host: '127.0.0.1', port: base }, base + 1);
    onCleanup(() => this.s3Proxy.close());
    const mail = await startMailCatcher({ smtpPort: base + 2, webPort: base + 3 });
    onCleanup(() => mail.stop());
    this.mailWebUrl = mail.webUrl;
    this.smtpProxy = await startChaosProxy({ host: '127.0.0.1', port: base + 2 }, base + 4);
    onCleanup(() => this.smtpProxy.close());

    const s3 = s3Env(this.s3);
    this.env = {
      ...process.env,
      // Development mode with every setting given: plain http works and nothing embedded starts.
      NODE_ENV: 'development',
      PUBLIC_URL: this.publicUrl,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL,
      ...s3,
      // Servers and browsers reach S3 through the proxy, so an outage hits both.
      S3_ENDPOINT: this.s3Proxy.url(s3.S3_ENDPOINT!),
      S3_PUBLIC_ENDPOINT: this.s3Proxy.url(s3.S3_ENDPOINT!),
      SMTP_URL: `smtp://127.0.0.1:${this.smtpProxy.port}`,
      MAIL_FROM: `Schlosstreffen ${this.name} <noreply@${this.name}.test>`,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      DATA_DIR: this.dataDir,
      RATE_LIMIT_FACTOR: '100000',
      WORKER_CONCURRENCY: '4',
      // The date-dependent tick stays off: the suite checks what its own requests cause.
      SCHEDULER_TICK_MINUTES: '0',
      SHUTDOWN_GRACE_SECONDS: '10',
      ...this.options.env,
    };
    // The first api migrates; the others and the workers start after it.
    await this.apis[0]!.start();
    await Promise.all([...this.apis.slice(1), ...this.workers].map((proc) => proc.start()));
    const producer = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    producer.on('error', () => undefined);
    this.queues = createQueues(producer, this.redisPrefix);
    // Redis restarts are part of the suite: the queues' connection errors are expected then.
    for (const queue of Object.values(this.queues)) queue.on('error', () => undefined);
    onCleanup(async () => {
      await closeQueues(this.queues).catch(() => undefined);
      producer.disconnect();
    });
  }

  /** Runs a query on the deployment's database. */
  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** Jobs not yet done in any queue (waiting, active, delayed, …), and outbox rows not yet relayed. */
  async pendingWork(): Promise<{ jobs: number; outbox: number }> {
    let jobs = 0;
    for (const queue of Object.values(this.queues)) {
      const counts = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
      );
      jobs += Object.values(counts).reduce((sum, n) => sum + n, 0);
    }
    const [row] = await this.query<{ n: string }>(
      'select count(*) as n from outbox where published_at is null',
    );
    return { jobs, outbox: Number(row?.n ?? 0) };
  }

  /** Waits until every job is done and the outbox is relayed; the time it took, or throws. */
  async drain(timeoutMs = 240_000): Promise<number> {
    const started = Date.now();
    let last = { jobs: -1, outbox: -1 };
    for (;;) {
      last = await this.pendingWork().catch(() => last);
      if (last.jobs === 0 && last.outbox === 0) return Date.now() - started;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `${this.name}: still ${last.jobs} jobs and ${last.outbox} outbox rows after ${timeoutMs / 1000} s`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** Active jobs per worker pid, with their names. */
  async activeJobs(): Promise<Array<{ name: string; pid: number | undefined; progress: unknown }>> {
    const jobs = [];
    for (const queue of Object.values(this.queues)) {
      for (const job of await queue.getActive()) {
        const pid = Number(/worker-(\d+)/.exec(job.processedBy ?? '')?.[1]) || undefined;
        jobs.push({ name: job.name, pid, progress: job.progress });
      }
    }
    return jobs;
  }
}

async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
}

/** Deletes every key under the prefix (SCAN, never FLUSHDB: other deployments share the Redis). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
