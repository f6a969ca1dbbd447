/**
 * R4: the real quartett handlers (as built), alone in this process. `prepare` runs the print photo
 * job for the given vehicles as the worker's media queue would (a few at once) and reports how long
 * it took; `export` runs the export of one set and reports the handler's time, its peak RSS and the
 * longest event-loop block during the export.
 */
import { readFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createS3Client, initOrm } from '@schlosstreffen/api/core';
import type { S3Settings } from '@schlosstreffen/infra/dev-services';
import { createExportQuartett, type QuartettExportResult } from '@schlosstreffen/worker/quartett-export';
import { createPreparePrintPhoto, type PrintPhotoResult } from '@schlosstreffen/worker/quartett-print-photo';
import { applyGcSettings } from '@schlosstreffen/worker/gc-settings';
import { createStorage } from '@schlosstreffen/worker/storage';

interface Settings {
  databaseUrl: string;
  s3: S3Settings;
}

export type QuartettTask =
  | (Settings & { kind: 'prepare'; vehicleIds: string[]; concurrency: number })
  | (Settings & { kind: 'export'; setId: string });

export interface PrintPhotoMeasure {
  ms: number;
  /** Job results by status (done, current, none, skipped). */
  statuses: Record<string, number>;
}

export interface QuartettExportMeasure {
  ms: number;
  cards: number;
  pages: number;
  bytes: number;
  /** Cards whose print photo was missing or stale, prepared during the export. */
  preparedHere: number;
  /**
   * process.resourceUsage().maxRSS: not this process's own peak, since Linux carries the peak of
   * the bench process it was started from over exec (shown for reference only).
   */
  maxRssMb: number;
  /** Peak resident set of this process image (VmHWM from /proc/self/status), threads included. */
  vmHwmMb: number | null;
  /** Longest event-loop delay while the export ran (monitorEventLoopDelay, 1 ms resolution). */
  maxBlockMs: number;
  p99BlockMs: number;
}

// As the worker's process does at start.
applyGcSettings();

process.once('message', (message) => {
  void main(message as QuartettTask).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});

async function vmHwmMb(): Promise<number | null> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

async function main(task: QuartettTask) {
  const orm = await initOrm(task.databaseUrl, { migrate: false });
  const s3 = createS3Client({ ...task.s3, publicEndpoint: task.s3.endpoint });
  const storage = createStorage(s3, task.s3.bucket);
  const measure = task.kind === 'prepare' ? await prepare(task) : await exportSet(task);
  await orm.close();
  s3.destroy();
  process.send?.(measure, () => process.exit(0));

  async function prepare(work: Extract<QuartettTask, { kind: 'prepare' }>): Promise<PrintPhotoMeasure> {
    const handler = createPreparePrintPhoto({ em: orm.em, storage });
    const statuses: Record<string, number> = {};
    const queue = [...work.vehicleIds];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: work.concurrency }, async () => {
        for (let vehicleId = queue.shift(); vehicleId; vehicleId = queue.shift()) {
          const job = { id: `bench-print-${vehicleId}`, updateProgress: async () => {} };
          const result = (await handler({ vehicleId }, job)) as PrintPhotoResult;
          statuses[result.status] = (statuses[result.status] ?? 0) + 1;
        }
      }),
    );
    return { ms: performance.now() - started, statuses };
  }

  async function exportSet(work: Extract<QuartettTask, { kind: 'export' }>): Promise<QuartettExportMeasure> {
    const exportQuartett = createExportQuartett({ em: orm.em, storage, eventName: 'Schlosstreffen' });
    // The handler itself; BullMQ's bookkeeping and the payload check are not measured.
    const job = { id: `bench-${work.setId}`, updateProgress: async () => {} };
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const result = (await exportQuartett({ setId: work.setId }, job)) as QuartettExportResult;
    const ms = performance.now() - started;
    delay.disable();
    if (result.status !== 'done') throw new Error(`export ended as ${JSON.stringify(result)}`);
    return {
      ms,
      cards: result.cardCount,
      pages: result.pages,
      bytes: result.bytes,
      preparedHere: result.preparedHere,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      vmHwmMb: await vmHwmMb(),
      maxBlockMs: delay.max / 1e6,
      p99BlockMs: delay.percentile(99) / 1e6,
    };
  }
}
