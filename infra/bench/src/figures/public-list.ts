/**
 * R1: GET /api/vehicles/public through the api's full middleware stack, against plain node:http
 * serving the same bytes and headers, both with autocannon from this process.
 */
import { DATA, API_URL, PORTS } from '../settings.js';
import { firstMessage, spawnScript } from '../stack.js';
import type { Figure } from '../stats.js';
import { LOAD, load } from '../load.js';

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
    const api = await load({ url });
    const reference = await load({ url: `http://127.0.0.1:${PORTS.plain}/api/vehicles/public` });
    const kb = (body.length / 1024).toFixed(0);
    return [
      {
        name: 'r1.public_list.ratio',
        value: api.rps / reference.rps,
        unit: 'x',
        budget: { op: '>=', limit: 0.5 },
        reference: `api ${api.rps.toFixed(0)} req/s ÷ node:http ${reference.rps.toFixed(0)} req/s (${kb} KB body, ${LOAD.connections} conn, ${LOAD.durationS} s)`,
      },
      { name: 'r1.public_list.api_rps', value: api.rps, unit: 'req/s' },
      { name: 'r1.public_list.plain_rps', value: reference.rps, unit: 'req/s' },
      {
        name: 'r1.public_list.p99',
        value: api.p99Ms,
        unit: 'ms',
        reference: `node:http p99 ${reference.p99Ms} ms`,
      },
    ];
  } finally {
    await plain.stop();
  }
}
