/**
 * R9: the landing spike. Anonymous GET / with a browser's headers (Brotli or gzip accepted) at 50
 * connections, against plain node:http serving the bytes and headers the api answered once (its
 * CSP nonce and all): requests per second at least half of node:http's, p99 at most 50 ms.
 */
import { BROWSER_HEADERS } from '../browser.js';
import type { Figure } from '../stats.js';
import { againstPlain, describeBody } from './against-plain.js';

/** The spike: many visitors at once, as when the event is announced or its day begins. */
export const SPIKE = { connections: 50, durationS: 10, warmupS: 3 } as const;

export async function landingSpike(): Promise<Figure[]> {
  const { answer, api, plain } = await againstPlain('/', BROWSER_HEADERS, SPIKE);
  const html = String(answer.headers['content-type'] ?? '');
  if (!html.startsWith('text/html')) throw new Error(`GET / answered ${html || 'no content type'}`);
  const runs = `2 × ${SPIKE.durationS} s each, ${SPIKE.connections} conn, accept-encoding ${BROWSER_HEADERS['accept-encoding']}`;
  return [
    {
      name: 'r9.landing_spike.ratio',
      value: api.rps / plain.rps,
      unit: 'x',
      budget: { op: '>=', limit: 0.5 },
      reference: `api ${api.rps.toFixed(0)} req/s ÷ node:http ${plain.rps.toFixed(0)} req/s (GET /, ${describeBody(answer)}, ${runs})`,
    },
    {
      name: 'r9.landing_spike.p99',
      value: api.p99Ms,
      unit: 'ms',
      budget: { op: '<=', limit: 50 },
      reference: `api p50 ${api.p50Ms.toFixed(1)} ms; node:http p99 ${plain.p99Ms.toFixed(1)} ms, p50 ${plain.p50Ms.toFixed(1)} ms (each the mean of its runs)`,
    },
    { name: 'r9.landing_spike.api_rps', value: api.rps, unit: 'req/s' },
    { name: 'r9.landing_spike.plain_rps', value: plain.rps, unit: 'req/s' },
    { name: 'r9.landing_spike.p50', value: api.p50Ms, unit: 'ms' },
  ];
}
