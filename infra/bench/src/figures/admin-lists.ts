/**
 * R2: the staff lists with the full data set. Latency from the api process, sequential requests of
 * a signed-in admin; the SQL statements per request from an in-process app (createApp) on the same
 * database whose MikroORM query log is counted (pg_stat_statements is not loaded on this server).
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '@schlosstreffen/api/app';
import { loadApiConfig } from '@schlosstreffen/api/core';
import { createS3Client, initOrm } from '@schlosstreffen/api/core';
import { Redis } from 'ioredis';
import { Client } from '../http.js';
import { ADMIN, databaseUrl, REDIS_URL } from '../settings.js';
import { percentile, type Figure } from '../stats.js';

const PATHS = [
  ['admin_vehicles', '/api/admin/vehicles'],
  ['admin_media', '/api/admin/media'],
] as const;
const WARMUP = 3;
// eslint-disable-next-line no-control-regex
const ANSI = /\x1B\[[0-9;]*m/g;
const RUNS = 30;

interface Timing {
  p95: number;
  p50: number;
  rows: number;
  bytes: number;
}

async function time(client: Client, path: string): Promise<Timing> {
  const samples: number[] = [];
  let rows = 0;
  let bytes = 0;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    const response = await client.request('GET', path);
    const text = await response.text();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    if (run < WARMUP) continue;
    samples.push(ms);
    rows = (JSON.parse(text) as unknown[]).length;
    bytes = Buffer.byteLength(text);
  }
  return { p95: percentile(samples, 95), p50: percentile(samples, 50), rows, bytes };
}

/** SQL statements per request, from MikroORM's query log of an in-process app. */
async function countQueries(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  let lines: string[] | undefined;
  const orm = await initOrm(databaseUrl, {
    migrate: false,
    debug: ['query'],
    logger: (message: string) => lines?.push(message),
  });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const config = loadApiConfig({ ...env, NODE_ENV: 'development' });
  const s3 = createS3Client(config.s3);
  const app = createApp({ config, em: orm.em, redis, s3, redisPrefix: 'bench-r2', log: () => undefined });
  const server = app.listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const client = await new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).login(
      ADMIN.email,
      ADMIN.password,
    );
    const counts: Record<string, number> = {};
    for (const [name, path] of PATHS) {
      await client.request('GET', path).then((response) => response.text());
      lines = [];
      const response = await client.request('GET', path);
      await response.text();
      counts[name] = lines.filter((line) => line.replace(ANSI, '').startsWith('[query] ')).length;
      lines = undefined;
    }
    return counts;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const keys = await redis.keys('bench-r2:*');
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    s3.destroy();
    await orm.close();
  }
}

export async function adminLists(env: NodeJS.ProcessEnv): Promise<Figure[]> {
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  const figures: Figure[] = [];
  const timings: Record<string, Timing> = {};
  for (const [name, path] of PATHS) timings[name] = await time(admin, path);
  const counts = await countQueries(env);
  for (const [name, path] of PATHS) {
    const timing = timings[name]!;
    figures.push(
      {
        name: `r2.${name}.p95`,
        value: timing.p95,
        unit: 'ms',
        reference: `p50 ${timing.p50.toFixed(0)} ms; GET ${path}: ${timing.rows} rows, ${(timing.bytes / 1024 / 1024).toFixed(1)} MB, ${RUNS} sequential requests`,
      },
      {
        name: `r2.${name}.queries`,
        value: counts[name]!,
        unit: 'queries',
        digits: 0,
        reference: 'SQL statements per request (session, user, list), MikroORM query log',
      },
    );
  }
  return figures;
}
