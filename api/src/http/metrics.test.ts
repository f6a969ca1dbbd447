import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { PublicInputs } from '../core/public-list/public-inputs.js';
import { publicListReader } from '../core/public-list/public-vehicle.read.js';
import { createS3Client } from '../core/storage/s3.js';
import { PUBLIC_LIST_PATH, withPublicListFastPath } from '../routes/vehicles/public-list.js';
import { createTestContext, sampleValue, type TestContext } from '../testing/index.js';
import { HttpMetrics } from './metrics.js';

/**
 * The api's /metrics: only with the bearer token (401 without it or with another, 404 while none is
 * configured), and every request timed under the route its router defines, never the raw path,
 * the public list served from memory included.
 */

const TOKEN = randomBytes(24).toString('base64url');
const DURATION = 'schlosstreffen_http_request_duration_seconds_count';

let t: TestContext;
const servers: Server[] = [];

const listen = async (server: Server) => {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  t = await createTestContext({ relay: false, env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await t?.close();
});

const scrape = async (base = t.baseUrl, authorization: string | null = `Bearer ${TOKEN}`) =>
  fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

const metricsText = async (base = t.baseUrl) => {
  const res = await scrape(base);
  expect(res.status).toBe(200);
  return res.text();
};

describe('/metrics', () => {
  it('answers only the bearer token: 401 without it, with another or in another scheme', async () => {
    for (const authorization of [
      null,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await scrape(t.baseUrl, authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain('schlosstreffen_');
    }
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // The process defaults, under the same prefix.
    expect(text).toMatch(/^schlosstreffen_process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^schlosstreffen_nodejs_eventloop_lag_seconds \d/m);
  });

  it('answers 404 while no token is configured, as a path that names nothing', async () => {
    const app = createApp({
      config: { ...t.config, metricsToken: undefined },
      em: t.orm.em,
      redis: t.redis,
      s3: createS3Client(t.config.s3),
      redisPrefix: t.prefix,
      log: () => undefined,
    });
    const base = await listen(createServer(app.callback()));
    for (const authorization of [null, `Bearer ${TOKEN}`]) {
      const res = await scrape(base, authorization);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('schlosstreffen_');
    }
  });

  it('times each request under the route as its router defines it, and a 404 no route answered as unmatched', async () => {
    const id = randomUUID();
    const before = await metricsText();
    const client = t.client();
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get(`/api/admin/vehicles/${id}/emails`)).status).toBe(401);
    expect((await client.get(`/api/keine/route/${id}`)).status).toBe(404);
    // The dashboard's catch-all, which sends a visitor to sign in first.
    expect((await client.get(`/admin/queues/keine/route/${id}`)).status).toBe(302);
    const after = await metricsText();

    const moved = (labels: Record<string, string>) =>
      sampleValue(after, DURATION, labels) - sampleValue(before, DURATION, labels);
    expect(moved({ method: 'GET', route: '/healthz', status_class: '2xx' })).toBe(1);
    expect(moved({ method: 'GET', route: '/api/admin/vehicles/:id/emails', status_class: '4xx' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status_class: '3xx' })).toBe(1);
    // The previous scrape counts too, under its own route.
    expect(moved({ method: 'GET', route: '/metrics', status_class: '2xx' })).toBe(1);
    // No raw path becomes a label.
    expect(after).not.toContain(id);
  });

  it('counts the public list answered from memory under its route, as the stack would', async () => {
    const changes = new PublicInputs(t.env.DATABASE_URL!, () => undefined);
    await changes.start(t.orm.em);
    try {
      const metrics = new HttpMetrics();
      const app = createApp({
        config: t.config,
        em: t.orm.em,
        redis: t.redis,
        s3: createS3Client(t.config.s3),
        redisPrefix: t.prefix,
        publicListChanges: changes,
        log: () => undefined,
        metrics,
      });
      let throughStack = 0;
      app.middleware.unshift((_ctx, next) => {
        throughStack += 1;
        return next();
      });
      const reader = publicListReader(t.orm.em, async () => t.event.edition.id, changes);
      const base = await listen(createServer(withPublicListFastPath(app, reader, false, metrics)));
      for (let n = 0; n < 5; n += 1) {
        const res = await fetch(`${base}${PUBLIC_LIST_PATH}`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      const text = await metrics.registry.metrics();
      const labels = { method: 'GET', route: PUBLIC_LIST_PATH, status_class: '2xx' };
      expect(sampleValue(text, DURATION, labels)).toBe(5);
      // Most of them never reached the middleware, and were counted all the same.
      expect(throughStack).toBeLessThan(5);
    } finally {
      await changes.close();
    }
  });
});
