/**
 * R3's and R8's account of where a photo's time goes: the thumbnail job's own stage timings (its
 * result's `ms`), the rest of its run (BullMQ, job log, metrics) and the gaps between its runs, per
 * photo and lane, against raw sharp's stages on the same photos.
 */
import { mean } from './stats.js';

/** The thumbnail job's stages (worker/src/jobs/thumbnail/render-thumbnails.ts). */
const JOB_STAGES = ['task', 'read', 'render', 'store', 'record', 'cleanup'] as const;
type JobStage = (typeof JOB_STAGES)[number];

/** Raw sharp's stages (children/raw-thumbnails.ts): the job's without database and deletion. */
export const RAW_STAGES = ['read', 'render', 'store'] as const;
export type RawStages = Record<(typeof RAW_STAGES)[number], number>;

interface CompletedJob {
  processedOn?: number;
  finishedOn?: number;
  returnvalue?: unknown;
}

export interface WorkerAccount {
  /** Seconds in which at least one of the jobs ran (the union of their runs). */
  busy: number;
  /** Mean ms from a job's start to its finish, as BullMQ stamps them. */
  run: number;
  /** Mean ms per stage, as the job measured it. */
  stages: Record<JobStage, number>;
}

/** The account of these completed thumbnail jobs (each must have finished as 'done'). */
export function workerAccount(jobs: readonly CompletedJob[]): WorkerAccount {
  const runs = jobs.map((job) => [job.processedOn!, job.finishedOn!] as const).sort((a, b) => a[0] - b[0]);
  if (!runs.length || runs.some(([from, to]) => !Number.isFinite(from) || !Number.isFinite(to))) {
    throw new Error('thumbnail jobs without start or finish');
  }
  let busy = 0;
  let [start, end] = runs[0]!;
  for (const [from, to] of runs.slice(1)) {
    if (from > end) {
      busy += end - start;
      start = from;
    }
    end = Math.max(end, to);
  }
  busy += end - start;
  const timings = jobs.map((job) => {
    const ms = (job.returnvalue as { ms?: Record<JobStage, number> } | undefined)?.ms;
    if (!ms) throw new Error(`thumbnail job without stage timings: ${JSON.stringify(job.returnvalue)}`);
    return ms;
  });
  const stages = Object.fromEntries(
    JOB_STAGES.map((stage) => [stage, mean(timings.map((ms) => ms[stage]))]),
  ) as Record<JobStage, number>;
  return { busy: busy / 1000, run: mean(runs.map(([from, to]) => to - from)), stages };
}

const ms = (value: number) => value.toFixed(0);

/**
 * One line: per photo and lane (the wall time its rate is taken from, times `lanes`, per photo),
 * the worker's stages, the rest of its run and the time its lanes had no job, against raw sharp's.
 */
export function describeAccount(
  worker: { ms: number; photos: number; jobs: WorkerAccount },
  raw: { ms: number; jobs: number; stages: RawStages },
  lanes: number,
): string {
  const workerLane = (worker.ms * lanes) / worker.photos;
  const { run, stages } = worker.jobs;
  const rawLane = (raw.ms * lanes) / raw.jobs;
  const inJob = JOB_STAGES.reduce((sum, stage) => sum + stages[stage], 0);
  const rawInPhoto = RAW_STAGES.reduce((sum, stage) => sum + raw.stages[stage], 0);
  const parts = JOB_STAGES.map((stage) => `${stage} ${ms(stages[stage])}`).join(' + ');
  const rawParts = RAW_STAGES.map((stage) => `${stage} ${ms(raw.stages[stage])}`).join(' + ');
  return (
    `ms per photo and lane (${lanes} at once): worker ${ms(workerLane)} = ${parts} + rest of the job's run ${ms(run - inJob)} + lane without a job ${ms(workerLane - run)}; ` +
    `raw sharp ${ms(rawLane)} = ${rawParts} + between photos ${ms(rawLane - rawInPhoto)}`
  );
}
