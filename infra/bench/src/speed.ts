/**
 * This machine's speed at CPU-bound HTTP, once per run, for the budgets in reference-machine units
 * whose parts do not measure a reference of their own (R2, R4, R6, R11): node:http alone serving
 * the landing page's bytes at R9's 50 connections, as the reference machine's figure was taken,
 * briefly. R8 scales by its own raw sharp, R7 compares its own argon2 verify.
 */
import { BROWSER_HEADERS } from './browser.js';
import { describeBody, plainOnly } from './figures/against-plain.js';
import { SPIKE } from './figures/landing-spike.js';
import { REFERENCE_SPEED } from './settings.js';
import { formatSpeed, type Figure, type Speed } from './stats.js';

const SHAPE = { connections: SPIKE.connections, durationS: 5, warmupS: 2 } as const;

export async function nodeHttpSpeed(): Promise<{ speed: Speed; figure: Figure }> {
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
      reference: `${formatSpeed(speed)}: scales the budgets of R2's p95, R4's seconds, R6 and R11's p99; GET / (${describeBody(answer)}), ${SHAPE.connections} conn, ${SHAPE.durationS} s after ${SHAPE.warmupS} s of warm-up`,
    },
  };
}
