import type { S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  allocateTickets,
  cappedBackoff,
  editionIdOfVehicle,
  closeQueues,
  connectRedis,
  createQueues,
  logger,
  deletionFence,
  OutboxRelay,
  ticketLinksOf,
  type DeletionFence,
  type EventConfig,
  type ErasureJournalStore,
  type EventSource,
  type Queues,
  type RedisTarget,
} from '@schlosstreffen/api/core';
import type { RetentionPeriods } from '@schlosstreffen/shared';
import { eventFacts, QUEUE_NAMES, type JobName, type QueueName } from '@schlosstreffen/shared';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Mailer } from './adapters/mailer.js';
import { createStorage } from './adapters/storage.js';
import { dispatch, type JobHandler, type JobHandlers } from './jobs/dispatch.js';
import { failureLogged, withJobLog } from './jobs/job-log.js';
import { createExportAccount } from './jobs/account-export/export-account.js';
import { createSendEmail } from './jobs/email/send-email.js';
import { createIssueInvitation } from './jobs/invitation/issue-invitation.js';
import { createExportQuartett } from './jobs/quartett-export/export-quartett.js';
import { createPreparePrintPhoto } from './jobs/quartett-print-photo/prepare-print-photo.js';
import { createRenderShareImage } from './jobs/share-image/render-share-image.js';
import { createExportSigns } from './jobs/sign-export/export-signs.js';
import { createDeleteObjects } from './jobs/storage-delete/delete-objects.js';
import { createRenderCertificates } from './jobs/award/render-certificates.js';
import { createRenderJuryCertificates } from './jobs/jury-certificates/render-jury-certificates.js';
import { createSweepOrphans } from './jobs/storage-sweep/sweep-orphans.js';
import { createEraseJobs } from './jobs/privacy/erase-jobs.js';
import { createJournalErasure } from './jobs/privacy/journal-erasure.js';
import { createTick } from './jobs/scheduler/tick.js';
import { createAdvanceWaitlist } from './jobs/waitlist/advance-waitlist.js';
import { createPreviewUpdate } from './jobs/visitor-update/preview-update.js';
import { createSendUpdate } from './jobs/visitor-update/send-update.js';
import { createRenderThumbnails } from './jobs/thumbnail/render-thumbnails.js';
import { createCopyMedia } from './jobs/media-copy/copy-media.js';
import type { WorkerMetrics } from './metrics.js';

export interface WorkerDeps {
  em: EntityManager;
  /** Where Redis is (REDIS_URL or REDIS_SENTINELS). */
  redis: RedisTarget;
  mailer: Mailer;
  s3: S3Client;
  bucket: string;
  secret: string;
  /** Base of links in mails. */
  publicUrl: string;
  /** The current edition's event, read per job (the editions in the database; a fixed one in tests). */
  events: EventSource;
  /** Retention periods (days per rule). */
  retention: RetentionPeriods;
  concurrency: number;
  /**
   * Runs the scheduler's tick (retention and everything else that depends on the date) this often,
   * through BullMQ's job scheduler: one schedule however many workers run. Off when unset (tests).
   */
  tickEveryMs?: number;
  /** The deployment's Redis key prefix (REDIS_PREFIX); the queues live under it. */
  redisPrefix: string;
  /** Mails per second of a visitor update (VISITOR_UPDATE_RATE); 10 when unset. */
  visitorUpdateRate?: number;
  /** Where the process's own failures go (relay, schedule, workers); the process's logger when unset. */
  log?: (message: string, error?: unknown) => void;
  /** The app's clock: the current edition, the scheduler's moment, moving up from the waitlist. */
  now?: () => Date;
  /** The process's metrics (METRICS_TOKEN): jobs and mails counted, queues and outbox watched. */
  metrics?: WorkerMetrics;
  /** Where erasures are journaled for a restore (BACKUP_S3_*, else BACKUP_DIR); not written without. */
  journal?: ErasureJournalStore;
}

/** Exports render one PDF at a time in a worker: they are CPU and memory heavy. */
const QUEUE_CONCURRENCY: Partial<Record<QueueName, number>> = { export: 1, updates: 1 };
/** …and one at a time across all workers (BullMQ's global concurrency, kept in Redis). */
const GLOBAL_CONCURRENCY: Partial<Record<QueueName, number>> = { export: 1, updates: 1 };

/**
 * A running job holds a lock it renews every 5 s; when its worker dies, the lock runs out after
 * 15 s and the next stall check (every 15 s, by any worker) puts the job back in the queue. Jobs
 * are safe to run twice; one that was running in a dying worker this many times fails for good.
 */
const LOCK_DURATION_MS = 15_000;
const STALLED_INTERVAL_MS = 15_000;
const MAX_STALLED_COUNT = 10;

/**
 * A handler built for the event current when its job runs: an edition's change reaches mails, PDFs
 * and invitations without a restart.
 */
function perEvent<N extends JobName>(
  events: EventSource,
  now: () => Date,
  make: (event: EventConfig) => JobHandler<N>,
): JobHandler<N> {
  return async (payload, job) => make(await events.at(now()))(payload, job);
}

/**
 * Every job's handler, by the job catalogue's names. With a fence, every object deletion waits
 * while a backup runs (core/storage/deletion-fence.ts).
 */
export function createHandlers(
  deps: WorkerDeps,
  queues: Queues,
  onOutbox?: () => void,
  fence?: DeletionFence,
): JobHandlers {
  const plain = createStorage(deps.s3, deps.bucket);
  const storage = fence
    ? { ...plain, deleteMany: (keys: readonly string[]) => fence.deleting(() => plain.deleteMany(keys)) }
    : plain;
  const { events } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    // A mail about an application uses its edition's texts and facts; others the job's or the current.
    'email.send': async (payload, job) => {
      const editionId =
        (payload.vehicleId ? await editionIdOfVehicle(deps.em, payload.vehicleId) : null) ??
        payload.editionId;
      const event = editionId ? await events.of(editionId) : await events.at(now());
      const send = createSendEmail({
        em: deps.em,
        mailer: deps.mailer,
        secret: deps.secret,
        event: eventFacts(event),
        editionId: event.edition.id,
        site: { publicUrl: deps.publicUrl },
        onFate: deps.metrics?.mailFate,
      });
      return send(payload, job);
    },
    'media.thumbnail': createRenderThumbnails({ em: deps.em, storage }),
    'media.copy': createCopyMedia({ em: deps.em, storage, onOutbox }),
    'storage.delete': createDeleteObjects({ storage }),
    'storage.sweep': createSweepOrphans({ em: deps.em, storage }),
    'award.certificates': createRenderCertificates({ em: deps.em, storage }),
    'jury.certificates': createRenderJuryCertificates({ em: deps.em, storage }),
    'quartett.export': perEvent(events, now, (event) =>
      createExportQuartett({ em: deps.em, storage, eventName: event.name }),
    ),
    'quartett.print-photo': createPreparePrintPhoto({ em: deps.em, storage }),
    'share-image.render': createRenderShareImage({ em: deps.em, storage }),
    'sign.export': createExportSigns({ em: deps.em, storage, publicUrl: deps.publicUrl }),
    // An invitation is for the vehicle's edition: its zones, its numbers, its deadlines.
    'invitation.issue': async (payload, job) => {
      const editionId = await editionIdOfVehicle(deps.em, payload.vehicleId);
      const event = editionId ? await events.of(editionId) : await events.at(now());
      const issue = createIssueInvitation({
        em: deps.em,
        event,
        publicUrl: deps.publicUrl,
        secret: deps.secret,
        onOutbox,
      });
      return issue(payload, job);
    },
    'visitor-update.preview': perEvent(events, now, (event) =>
      createPreviewUpdate({ em: deps.em, event: eventFacts(event), site: { publicUrl: deps.publicUrl } }),
    ),
    'visitor-update.send': perEvent(events, now, (event) =>
      createSendUpdate({
        em: deps.em,
        mailer: deps.mailer,
        secret: deps.secret,
        event: eventFacts(event),
        site: { publicUrl: deps.publicUrl },
        ratePerSecond: deps.visitorUpdateRate ?? 10,
        onFate: deps.metrics?.mailFate,
      }),
    ),
    // The places given up in the job's edition (the current one for jobs queued before editions).
    'waitlist.advance': async (payload, job) => {
      const event = payload.editionId ? await events.of(payload.editionId) : await events.at(now());
      const advance = createAdvanceWaitlist({
        em: deps.em,
        event,
        publicUrl: deps.publicUrl,
        secret: deps.secret,
        onOutbox,
        now,
      });
      return advance(payload, job);
    },
    // Confirmed visitors get their ticket or waiting-list place, in the order of confirmation.
    'visitor-tickets.allocate': async (payload) => {
      const given = await deps.em
        .fork()
        .transactional((tx) =>
          allocateTickets(tx, payload.editionId, now(), ticketLinksOf(deps.publicUrl, deps.secret)),
        );
      onOutbox?.();
      return { given };
    },
    'account.export': createExportAccount({ em: deps.em, storage, retention: deps.retention }),
    'privacy.erase-jobs': createEraseJobs({ queues: Object.values(queues) }),
    'erasure.journal': createJournalErasure({ em: deps.em, journal: deps.journal }),
    // The tick reads the edition current at its moment itself (`--as-of` included).
    'scheduler.tick': createTick({
      em: deps.em,
      config: { retention: deps.retention, publicUrl: deps.publicUrl, secret: deps.secret },
      onOutbox,
      now,
    }),
  };
}

/** The id of the one schedule of the scheduler's tick. */
export const TICK_SCHEDULER_ID = 'scheduler-tick';

/** What the health endpoint reports of a process's workers. */
export interface WorkersHealth {
  /** Queues whose BullMQ worker runs its loop, of all queues. */
  running: number;
  total: number;
  /** `ready` when every Redis connection is, else the state of one that is not (e.g. `reconnecting`). */
  redis: string;
}

export interface RunningWorkers {
  workers: Worker[];
  health(): WorkersHealth;
  /**
   * Stops taking jobs and waits for running ones to finish; after `graceMs` it stops waiting, and
   * jobs still running go back to the queue once their locks run out.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * One BullMQ worker per queue, each job dispatched by name to its handler; and an outbox relay, so
 * what a job queues (e.g. the invitation mail) leaves at once, even when no api runs.
 */
export function startWorkers(deps: WorkerDeps): RunningWorkers {
  const prefix = deps.redisPrefix;
  // What this process queues fails fast while Redis is away (the relay tries again); the workers
  // themselves wait for it.
  const queueConnection = connectRedis(deps.redis, 'producer');
  const queues = createQueues(queueConnection, prefix);
  const log = deps.log ?? ((message: string, error?: unknown) => logger.error({ err: error }, message));
  const relay = new OutboxRelay(deps.em, queues, { log: (error) => log('outbox relay:', error) });
  relay.start();
  const fence = deletionFence(queueConnection, prefix);
  const run = dispatch(createHandlers(deps, queues, () => relay.wake(), fence));
  if (deps.tickEveryMs) {
    // Upserting is idempotent: every worker may do it, the schedule stays one.
    void queues.scheduler
      .upsertJobScheduler(
        TICK_SCHEDULER_ID,
        { every: deps.tickEveryMs },
        { name: 'scheduler.tick', data: {} },
      )
      .catch((error: unknown) => log('scheduler:', error));
  }
  for (const [queue, limit] of Object.entries(GLOBAL_CONCURRENCY)) {
    void queues[queue as QueueName]
      .setGlobalConcurrency(limit)
      .catch((error: unknown) => log(`global concurrency of ${queue}:`, error));
  }
  deps.metrics?.watch({ queues: Object.values(queues), em: deps.em, redis: queueConnection, prefix });
  const connections: Redis[] = [queueConnection];
  const workers = QUEUE_NAMES.map((queue) => {
    const connection = connectRedis(deps.redis, 'worker');
    connections.push(connection);
    // Every job runs with its request id and ends with one log line.
    const worker = new Worker(queue, withJobLog(deps.metrics ? deps.metrics.timed(queue, run) : run), {
      connection,
      prefix,
      concurrency: QUEUE_CONCURRENCY[queue] ?? deps.concurrency,
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
      settings: { backoffStrategy: cappedBackoff },
      // Stored on each job as processedBy: which process ran it (the dashboard and the fault suite).
      name: `worker-${process.pid}`,
    });
    // A job's own failure was logged with it; this one is the rest (a job stalled too often).
    worker.on('failed', (job, error) => {
      if (failureLogged(error)) return;
      log(`job ${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade})`, error);
    });
    worker.on('error', (error) => log(`worker ${queue} error:`, error));
    return worker;
  });
  return {
    workers,
    health: () => ({
      running: workers.filter((worker) => worker.isRunning()).length,
      total: workers.length,
      redis: connections.find((connection) => connection.status !== 'ready')?.status ?? 'ready',
    }),
    async close(graceMs = Infinity) {
      const finished = Promise.all(workers.map((worker) => worker.close()));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('late'), graceMs);
      });
      // Late jobs are left running as the process ends; their locks run out and they are retried.
      if ((await Promise.race([finished, late])) === 'late') {
        log(`jobs still running after ${graceMs / 1000} s; they go back to the queue`);
      }
      clearTimeout(timer);
      await relay.stop();
      await closeQueues(queues);
      for (const connection of connections) connection.disconnect();
    },
  };
}
