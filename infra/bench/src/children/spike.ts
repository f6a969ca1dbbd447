/**
 * R11's load beside the gates: autocannon in a process of its own, so the bench process that times
 * the gates' requests does not share its event loop with 50 connections' worth of answers. Sends
 * `{ started: true }` as the load begins; on the message `stop` (or after `maxDurationS`) the load
 * ends and its figures are sent.
 */
import autocannon from 'autocannon';

interface Setup {
  url: string;
  connections: number;
  maxDurationS: number;
  headers: Record<string, string>;
}

export interface SpikeResult {
  /** Whether it ran to `maxDurationS` without being told to stop. */
  ranOut: boolean;
  rps: number;
  p99Ms: number;
  p50Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

process.once('message', (message) => {
  const { url, connections, maxDurationS, headers } = message as Setup;
  const run = autocannon({ url, connections, duration: maxDurationS, headers, timeout: 30 });
  let stopped = false;
  process.on('message', (next) => {
    if (next !== 'stop') return;
    stopped = true;
    run.stop();
  });
  process.send?.({ started: true });
  void Promise.resolve(run).then((result) =>
    process.send?.({
      ranOut: !stopped,
      rps: result.requests.average,
      p99Ms: result.latency.p99,
      p50Ms: result.latency.p50,
      requests: result.requests.total,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
    } satisfies SpikeResult),
  );
});
