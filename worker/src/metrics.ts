import { createServer, type Server } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  bearerMatches,
  createMetricsRegistry,
  METRIC_PREFIX,
  journalLagSeconds,
  oldestUnpublishedAgeSeconds,
  readBackupStatus,
} from '@schlosstreffen/api/core';
import { JOBS, MAIL_STATE_LABELS } from '@schlosstreffen/shared';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What became of a send, as the email log records it; counted under its German name (MAIL_STATE_LABELS). */
export type MailFate = 'sent' | 'refused' | 'failed' | 'held';
const MAIL_FATES: readonly MailFate[] = ['sent', 'refused', 'failed', 'held'];

/** The job states counted per queue; `waiting` includes prioritized jobs. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Job runs from 10 ms (a mail) to 10 minutes (a visitor update to thousands). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** A figure read from shared state that does not answer within this time is left out of the scrape. */
const READ_TIMEOUT_MS = 5000;

/** Where the gauges read shared state: every worker reads the same, so replicas report one value. */
export interface SharedState {
  queues: Queue[];
  em: EntityManager;
  /** A connection that fails fast while Redis is away. */
  redis: Redis;
  /** The deployment's Redis prefix. */
  prefix: string;
}

/**
 * A worker process's metrics, each counted where its event happens: every send's outcome
 * (`schlosstreffen_mails_total{fate}`: zugestellt, abgelehnt, fehlgeschlagen, zurückgehalten), each
 * job run's duration and failure by queue and job, and, read from Redis and PostgreSQL at scrape
 * time, the jobs per queue and state, the outbox's oldest waiting row and the last backups. The
 * process defaults too.
 */
export class WorkerMetrics {
  readonly registry: Registry;
  private readonly mails: Counter<'fate'>;
  private readonly jobDuration: Histogram<'queue' | 'name'>;
  private readonly jobFailures: Counter<'queue' | 'name'>;

  constructor(registry: Registry = createMetricsRegistry()) {
    this.registry = registry;
    const registers = [registry];
    this.mails = new Counter({
      name: `${METRIC_PREFIX}mails_total`,
      help: 'Mails by what became of their send: zugestellt, abgelehnt, fehlgeschlagen, zurückgehalten.',
      labelNames: ['fate'],
      registers,
    });
    // Every fate from 0, so a rate over it exists before the first of its kind.
    for (const fate of MAIL_FATES) this.mails.inc({ fate: MAIL_STATE_LABELS[fate] }, 0);
    this.jobDuration = new Histogram({
      name: `${METRIC_PREFIX}job_duration_seconds`,
      // `name`, not `job`: Prometheus gives every scraped series a `job` label of its own.
      help: 'Duration of job runs (successful or not) by queue and job name.',
      labelNames: ['queue', 'name'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobFailures = new Counter({
      name: `${METRIC_PREFIX}job_failures_total`,
      help: 'Job runs that failed (each failed attempt) by queue and job name.',
      labelNames: ['queue', 'name'],
      registers,
    });
  }

  /** One send's outcome. */
  readonly mailFate = (fate: MailFate): void => {
    this.mails.inc({ fate: MAIL_STATE_LABELS[fate] });
  };

  /**
   * The processor, timed: each run's duration, and its failure. A job put back to wait (a backup
   * holding deletions) neither failed nor ran.
   */
  timed<A extends unknown[]>(
    queue: string,
    run: (job: Job, ...rest: A) => Promise<unknown>,
  ): (job: Job, ...rest: A) => Promise<unknown> {
    return async (job, ...rest) => {
      const labels = { queue, name: job.name in JOBS ? job.name : 'unknown' };
      const startedAt = process.hrtime.bigint();
      try {
        const result = await run(job, ...rest);
        this.jobDuration.observe(labels, seconds(startedAt));
        return result;
      } catch (error) {
        if (!(error instanceof DelayedError)) {
          this.jobDuration.observe(labels, seconds(startedAt));
          this.jobFailures.inc(labels);
        }
        throw error;
      }
    };
  }

  /** The gauges read from shared state at each scrape. */
  watch(shared: SharedState): void {
    const registers = [this.registry];
    new Gauge({
      name: `${METRIC_PREFIX}queue_jobs`,
      help: 'Jobs per queue and state (waiting, active, delayed, failed), from Redis.',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        await within(async () => {
          for (const queue of shared.queues) {
            const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
            for (const state of QUEUE_STATES) {
              const n = (counts[state] ?? 0) + (state === 'waiting' ? (counts.prioritized ?? 0) : 0);
              this.set({ queue: queue.name, state }, n);
            }
          }
        });
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}outbox_oldest_pending_seconds`,
      help: 'Age of the oldest outbox row not yet handed to the queues (0: none waits).',
      registers,
      async collect() {
        this.reset();
        await within(async () => this.set(await oldestUnpublishedAgeSeconds(shared.em.fork())));
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}erasure_journal_lag_seconds`,
      help: 'Age of the oldest erasure not yet in the shared journal that a restore replays (0: none waits).',
      registers,
      async collect() {
        this.reset();
        await within(async () => this.set(await journalLagSeconds(shared.em.fork())));
      },
    });
    const backupStatus = () => within(() => readBackupStatus(shared.redis, shared.prefix));
    new Gauge({
      name: `${METRIC_PREFIX}last_backup_timestamp_seconds`,
      help: 'When the last backup finished, in epoch seconds (0: never).',
      registers,
      async collect() {
        this.reset();
        const status = await backupStatus();
        if (status) this.set(status.lastSuccess);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}backup_last_failure_timestamp_seconds`,
      help: 'When the last backup failed, in epoch seconds (0: never).',
      registers,
      async collect() {
        this.reset();
        const status = await backupStatus();
        if (status) this.set(status.lastFailure);
      },
    });
  }
}

const seconds = (startedAt: bigint) => Number(process.hrtime.bigint() - startedAt) / 1e9;

/** The read's result, or undefined when it fails or takes too long: the figure is left out. */
async function within<T>(read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), READ_TIMEOUT_MS);
  });
  try {
    return await Promise.race([read(), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Serves the registry as Prometheus text at /metrics on `port` (all interfaces: Prometheus scrapes
 * it over the compose network, which publishes no port of it), only with `Authorization: Bearer
 * <token>`: 401 otherwise, 404 for any other path.
 */
export async function serveMetrics(registry: Registry, token: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res
        .writeHead(401, {
          'content-type': 'text/plain; charset=utf-8',
          'www-authenticate': 'Bearer realm="metrics"',
        })
        .end('Unauthorized\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res
          .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
