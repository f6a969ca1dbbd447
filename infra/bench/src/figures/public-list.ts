/**
 * R1: GET /api/vehicles/public from the api as built, against plain node:http serving the same bytes
 * and headers, both with autocannon from this process, in turns (api, node:http, node:http, api) so a
 * slow spell of the machine does not land on one side only.
 */
import { DATA, API_URL, METRICS_TOKEN, PORTS } from '../settings.js';
import { firstMessage, spawnScript } from '../stack.js';
import type { Figure } from '../stats.js';
import { combine, LOAD, load } from '../load.js';

/** Headers a server sets per connection or per response. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export async function publicList(): Promise<Figure[]> {
  const url = `${API_URL}/api/vehicles/public`;
  // The plain bytes, as autocannon (which sends no Accept-Encoding) gets them.
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await response.arrayBuffer());
  const list = JSON.parse(body.toString('utf8')) as unknown[];
  if (!response.ok || list.length !== DATA.confirmed) {
    throw new Error(`public list answered ${response.status} with ${list.length} vehicles`);
  }
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_RESPONSE.has(name)));

  const plain = spawnScript('plain', 'children/plain-server.js');
  const ready = firstMessage(plain);
  plain.child.send({ port: PORTS.plain, headers, body: body.toString('base64') });
  await ready;
  try {
    const plainUrl = `http://127.0.0.1:${PORTS.plain}/api/vehicles/public`;
    const apiRuns = [await load({ url })];
    const plainRuns = [await load({ url: plainUrl }), await load({ url: plainUrl })];
    apiRuns.push(await load({ url }));
    const api = combine(apiRuns);
    const observed = await observedRequests();
    const reference = combine(plainRuns);
    const kb = (body.length / 1024).toFixed(0);
    const runs = `2 × ${LOAD.durationS} s each, ${LOAD.connections} conn`;
    return [
      {
        name: 'r1.public_list.ratio',
        value: api.rps / reference.rps,
        unit: 'x',
        budget: { op: '>=', limit: 0.8 },
        reference: `api ${api.rps.toFixed(0)} req/s ÷ node:http ${reference.rps.toFixed(0)} req/s (${kb} KB body, ${runs})`,
      },
      {
        name: 'r1.public_list.p99_ratio',
        value: api.p99Ms / reference.p99Ms,
        unit: 'x',
        budget: { op: '<=', limit: 2 },
        reference: `api p99 ${api.p99Ms} ms ÷ node:http p99 ${reference.p99Ms} ms (each the mean of its runs; p50 ${api.p50Ms} and ${reference.p50Ms} ms)`,
      },
      {
        name: 'r1.public_list.observed',
        value: observed / api.requests,
        unit: 'x',
        budget: { op: '>=', limit: 1 },
        reference: `the api's /metrics counted ${observed} requests of the route (warm-ups included) of ${api.requests} measured: metrics and request logs were on`,
      },
      { name: 'r1.public_list.api_rps', value: api.rps, unit: 'req/s' },
      { name: 'r1.public_list.plain_rps', value: reference.rps, unit: 'req/s' },
      { name: 'r1.public_list.p99', value: api.p99Ms, unit: 'ms' },
    ];
  } finally {
    await plain.stop();
  }
}

/** GET requests of the public list's route that the api's request histogram counted. */
async function observedRequests(): Promise<number> {
  const response = await fetch(`${API_URL}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  let count = 0;
  for (const line of text.split('\n')) {
    if (
      line.startsWith('schlosstreffen_http_request_duration_seconds_count{') &&
      line.includes('method="GET"') &&
      line.includes('route="/api/vehicles/public"')
    ) {
      count += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return count;
}
