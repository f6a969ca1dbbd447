import autocannon, { type Options, type Result } from 'autocannon';

/** The usual shape of a load figure: 10 connections, 10 s, after a 3 s warm-up. */
export const LOAD = { connections: 10, durationS: 10, warmupS: 3 } as const;

/** A figure's own shape where it differs (e.g. R9's spike of 50 connections). */
export type LoadShape = Partial<Record<keyof typeof LOAD, number>>;

export interface LoadResult {
  rps: number;
  p99Ms: number;
  p50Ms: number;
  requests: number;
}

/** Warms up, then measures; any error, timeout or non-2xx answer fails the figure. */
export async function load(
  options: Omit<Options, 'connections' | 'duration'>,
  shape: LoadShape = {},
): Promise<LoadResult> {
  const { connections, durationS, warmupS } = { ...LOAD, ...shape };
  const run = (duration: number) => autocannon({ ...options, connections, duration, timeout: 30 });
  check(options.url, await run(warmupS));
  const result = check(options.url, await run(durationS));
  return {
    rps: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    requests: result.requests.total,
  };
}

function check(url: string, result: Result): Result {
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  return result;
}

/** Runs of one side as one: the mean of their rates and percentiles, the sum of their requests. */
export function combine(runs: LoadResult[]): LoadResult {
  const mean = (pick: (run: LoadResult) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  return {
    rps: mean((run) => run.rps),
    p99Ms: mean((run) => run.p99Ms),
    p50Ms: mean((run) => run.p50Ms),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
  };
}
