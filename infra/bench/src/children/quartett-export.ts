/**
 * R4: the real quartett export handler (as built) for one set, alone in this process, which
 * reports the handler's time, its peak RSS and the longest event-loop block during the export.
 */
import { readFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createS3Client, initOrm } from '@schlosstreffen/api/core';
import type { S3Settings } from '@schlosstreffen/infra/dev-services';
import { createExportQuartett, type QuartettExportResult } from '@schlosstreffen/worker/quartett-export';
import { createStorage } from '@schlosstreffen/worker/storage';

export interface QuartettExportTask {
  databaseUrl: string;
  s3: S3Settings;
  setId: string;
}

export interface QuartettExportMeasure {
  ms: number;
  cards: number;
  pages: number;
  bytes: number;
  /** Peak resident set of this process (process.resourceUsage().maxRSS). */
  maxRssMb: number;
  /** VmHWM from /proc/self/status, the same peak as the kernel reports it. */
  vmHwmMb: number | null;
  /** Longest event-loop delay while the export ran (monitorEventLoopDelay, 1 ms resolution). */
  maxBlockMs: number;
  p99BlockMs: number;
}

process.once('message', (message) => {
  void main(message as QuartettExportTask).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});

async function vmHwmMb(): Promise<number | null> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

async function main(task: QuartettExportTask) {
  const orm = await initOrm(task.databaseUrl, { migrate: false });
  const s3 = createS3Client({ ...task.s3, publicEndpoint: task.s3.endpoint });
  const exportQuartett = createExportQuartett({
    em: orm.em,
    storage: createStorage(s3, task.s3.bucket),
    eventName: 'Schlosstreffen',
  });
  // The handler itself; BullMQ's bookkeeping and the payload check are not measured.
  const job = { id: `bench-${task.setId}`, updateProgress: async () => {} };

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const result = (await exportQuartett({ setId: task.setId }, job)) as QuartettExportResult;
  const ms = performance.now() - started;
  delay.disable();
  if (result.status !== 'done') throw new Error(`export ended as ${JSON.stringify(result)}`);

  const measure: QuartettExportMeasure = {
    ms,
    cards: result.cardCount,
    pages: result.pages,
    bytes: result.bytes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    vmHwmMb: await vmHwmMb(),
    maxBlockMs: delay.max / 1e6,
    p99BlockMs: delay.percentile(99) / 1e6,
  };
  await orm.close();
  s3.destroy();
  process.send?.(measure, () => process.exit(0));
}
