/**
 * This machine's speed at CPU-bound HTTP, once per run, for the budgets in reference-machine units
 * whose parts do not measure a reference of their own (R2, R4, R6, R11): node:http alone serving
 * the landing page's bytes at R9's 50 connections, as the reference machine's figure was taken,
 * briefly, once the cores are quiet. R8 scales by its own raw sharp, R7 compares its own argon2
 * verify.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_HEADERS } from './browser.js';
import { describeBody, plainOnly } from './figures/against-plain.js';
import { SPIKE } from './figures/landing-spike.js';
import { REFERENCE_SPEED } from './settings.js';
import { formatSpeed, type Figure, type Speed } from './stats.js';

const SHAPE = { connections: SPIKE.connections, durationS: 5, warmupS: 2 } as const;
/** Quiet: at most this share of the cores busy over a second. */
const QUIET_SHARE = 0.1;
const QUIET_MAX_S = 60;

/** The cores' busy and total time so far, in ms. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const used = times.user + times.nice + times.sys + times.irq;
    busy += used;
    total += used + times.idle;
  }
  return { busy, total };
}

/**
 * Until the cores were quiet for a second, at most QUIET_MAX_S: the share of the last second and
 * the seconds waited. The api's and the worker's start-up work took both cores for 6 s after they
 * answered; node:http measured then ran at a fifth of its rate.
 */
export async function untilQuiet(): Promise<{ share: number; waitedS: number }> {
  const started = performance.now();
  let last = cpuTimes();
  for (;;) {
    await sleep(1000);
    const now = cpuTimes();
    const share = (now.busy - last.busy) / (now.total - last.total);
    last = now;
    const waitedS = (performance.now() - started) / 1000;
    if (share <= QUIET_SHARE || waitedS >= QUIET_MAX_S) return { share, waitedS };
  }
}

export async function nodeHttpSpeed(): Promise<{ speed: Speed; figure: Figure }> {
  const quiet = await untilQuiet();
  const { answer, plain } = await plainOnly('/', BROWSER_HEADERS, SHAPE);
  const speed: Speed = {
    name: 'node:http',
    value: plain.rps,
    reference: REFERENCE_SPEED.nodeHttp,
    unit: 'req/s',
  };
  return {
    speed,
    figure: {
      name: 'speed.node_http',
      value: plain.rps,
      unit: 'req/s',
      reference: `${formatSpeed(speed)}: scales the budgets of R2's p95, R4's seconds, R6, R11's and R13's p99, R15's p99 and list download; GET / (${describeBody(answer)}), ${SHAPE.connections} conn, ${SHAPE.durationS} s after ${SHAPE.warmupS} s of warm-up, started when the cores were ${(quiet.share * 100).toFixed(0)} % busy (after ${quiet.waitedS.toFixed(0)} s)`,
    },
  };
}
