/**
 * R10: a hashed asset under the landing spike's load. The largest script of the landing page (of
 * those its markup names and those its entry loads when the visitor reaches for the page), asked
 * for with a browser's headers (Brotli accepted), against plain node:http serving the same bytes
 * and headers: requests per second at least 0.8 of node:http's.
 */
import { API_URL } from '../settings.js';
import { assetBytes, BROWSER_HEADERS, landingAssets } from '../browser.js';
import type { Figure } from '../stats.js';
import { againstPlain, describeBody } from './against-plain.js';
import { SPIKE } from './landing-spike.js';

export async function assets(): Promise<Figure[]> {
  const page = await fetch(`${API_URL}/`, { headers: BROWSER_HEADERS });
  if (!page.ok) throw new Error(`GET / answered ${page.status}`);
  const { page: named, onDemand } = await landingAssets(await page.text());
  const scripts = [...named, ...onDemand].filter((file) => file.endsWith('.js'));
  if (!scripts.length) throw new Error('the landing page names no script under /assets/');
  const sized = await Promise.all(scripts.map(async (file) => ({ file, bytes: await assetBytes(file) })));
  const largest = sized.reduce((a, b) => (b.bytes > a.bytes ? b : a));

  const { answer, api, plain } = await againstPlain(largest.file, BROWSER_HEADERS, SPIKE);
  const runs = `2 × ${SPIKE.durationS} s each, ${SPIKE.connections} conn`;
  const asset = `${largest.file} (${(largest.bytes / 1024).toFixed(0)} KB built; sent ${describeBody(answer)}), the largest of the landing page's ${scripts.length} scripts`;
  return [
    {
      name: 'r10.assets.ratio',
      value: api.rps / plain.rps,
      unit: 'x',
      budget: { op: '>=', limit: 0.8 },
      reference: `api ${api.rps.toFixed(0)} req/s ÷ node:http ${plain.rps.toFixed(0)} req/s; ${asset}; ${runs}`,
    },
    { name: 'r10.assets.api_rps', value: api.rps, unit: 'req/s' },
    { name: 'r10.assets.plain_rps', value: plain.rps, unit: 'req/s' },
    {
      name: 'r10.assets.p99',
      value: api.p99Ms,
      unit: 'ms',
      reference: `p50 ${api.p50Ms.toFixed(1)} ms; node:http p99 ${plain.p99Ms.toFixed(1)} ms, p50 ${plain.p50Ms.toFixed(1)} ms`,
    },
  ];
}
