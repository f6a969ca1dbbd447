import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobName } from '@schlosstreffen/shared';
import type { Queue } from 'bullmq';
import { logger } from '../logger.js';
import { Outbox } from '../model/outbox.entity.js';
import { queueFor, type Queues } from './queues.js';
import { anyUnpublished } from './outbox.queries.js';

/**
 * A job's data: its payload, and the id of the request that queued it (`requestId`, which no
 * payload schema names; the worker's log lines for the job carry it).
 */
export const jobData = (row: Outbox): Record<string, unknown> =>
  row.requestId ? { ...row.payload, requestId: row.requestId } : row.payload;

export interface RelayOptions {
  intervalMs?: number;
  batchSize?: number;
  log?: (error: unknown) => void;
}

/**
 * Publishes outbox rows to BullMQ with the row id as job id, then marks them published, all while
 * holding the rows' locks (SKIP LOCKED lets several APIs relay side by side). A crash between
 * publishing and commit leaves the rows unmarked: the next run publishes them again under the same
 * job ids, which BullMQ ignores, so nothing is lost and nothing doubles.
 */
export class OutboxRelay {
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly log: (error: unknown) => void;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private pendingWake = false;
  private wakeSleeper: (() => void) | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly queues: Queues,
    options: RelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 500;
    this.batchSize = options.batchSize ?? 200;
    this.log = options.log ?? ((error) => logger.error({ err: error }, 'outbox relay failed'));
  }

  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Called after a commit that wrote outbox rows, so they leave at once instead of at the next tick. */
  wake(): void {
    this.pendingWake = true;
    this.wakeSleeper?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSleeper?.();
    await this.loop;
    this.loop = null;
  }

  /** Publishes one batch; returns how many rows it published. */
  async relayOnce(): Promise<number> {
    return this.em.fork().transactional(async (em) => {
      const rows = await em.find(
        Outbox,
        { publishedAt: null },
        {
          orderBy: { createdAt: 'asc', id: 'asc' },
          limit: this.batchSize,
          lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
        },
      );
      if (rows.length === 0) return 0;
      const byQueue = new Map<Queue, Outbox[]>();
      for (const row of rows) {
        const queue = queueFor(this.queues, row.job as JobName);
        const batch = byQueue.get(queue) ?? [];
        batch.push(row);
        byQueue.set(queue, batch);
      }
      for (const [queue, batch] of byQueue) {
        await queue.addBulk(
          batch.map((row) => ({ name: row.job, data: jobData(row), opts: { jobId: row.id } })),
        );
      }
      const now = new Date();
      for (const row of rows) row.publishedAt = now;
      return rows.length;
    });
  }

  /**
   * Whether any row waits, in one plain statement: an idle relay looks every interval, and a
   * transaction through the ORM each time would take the event loop from the requests.
   */
  private async anyUnpublished(): Promise<boolean> {
    return anyUnpublished(this.em);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const woken = this.pendingWake;
      this.pendingWake = false;
      let published = 0;
      try {
        if (woken || (await this.anyUnpublished())) published = await this.relayOnce();
      } catch (error) {
        this.log(error);
      }
      if (this.stopped) break;
      if (published < this.batchSize && !this.pendingWake) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, this.intervalMs);
      this.wakeSleeper = done;
    });
  }
}
