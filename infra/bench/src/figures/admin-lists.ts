/**
 * R2: the staff lists with the full data set (10,000 applications in five editions of 2,000, 50,000
 * images), page by page: the lists show the current edition's 2,000.
 * Latency from the api process, sequential requests of a signed-in admin: the first page of the
 * dashboard, a filtered and searched page, a page deep in the list (by its cursor) and the media
 * library's first page; the answer's size; the SQL statements per request from an in-process app
 * (createApp) on the same database whose MikroORM query log is counted (pg_stat_statements is not
 * loaded on this server). Their budget is the count the integration test measures with 3 vehicles
 * and 15 images (api/src/routes/vehicles/admin-queries.test.ts): it must not grow with the data.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '@schlosstreffen/api/app';
import { loadApiConfig } from '@schlosstreffen/api/core';
import { createS3Client, initOrm } from '@schlosstreffen/api/core';
import { Redis } from 'ioredis';
import { Client } from '../http.js';
import { ADMIN, databaseUrl, REDIS_URL } from '../settings.js';
import { inReferenceUnits, percentile, type Figure, type Speed } from '../stats.js';

/** The searched page: a status tab and a substring of the model ('911 GT3': about 1200 match both). */
const FILTERED = '/api/admin/vehicles?status=waitlist&q=gt3';

/** Per figure: the path (`deep`: page 161, reached by its cursor first) and its budget of statements. */
const PATHS = [
  ['admin_vehicles', '/api/admin/vehicles', 6],
  ['admin_vehicles_filtered', FILTERED, 6],
  ['admin_vehicles_deep', 'deep', 6],
  ['admin_media', '/api/admin/media', 5],
] as const;
type Name = (typeof PATHS)[number][0];

/** Pages of the list walked before the deep page is timed. */
const DEEP_PAGES = 30;
const P95_BUDGET_MS = 50;
const BODY_BUDGET_KB = 100;
const WARMUP = 3;
// eslint-disable-next-line no-control-regex
const ANSI = /\x1B\[[0-9;]*m/g;
const RUNS = 30;

interface Timing {
  p95: number;
  p50: number;
  rows: number;
  bytes: number;
  /** What the page says about the whole list. */
  summary: string;
}

interface Page {
  items: unknown[];
  nextCursor: string | null;
  counts?: Record<string, number>;
  total?: number;
}

/** The path of page DEEP_PAGES + 1 of the dashboard list, following the cursors. */
async function deepPath(client: Client): Promise<string> {
  let path = '/api/admin/vehicles?limit=50';
  for (let page = 0; page < DEEP_PAGES; page++) {
    const { nextCursor } = await client.json<Page>('GET', path);
    if (!nextCursor) throw new Error(`the list ended after ${page + 1} pages of 50`);
    path = `/api/admin/vehicles?cursor=${nextCursor}`;
  }
  return path;
}

/** One timed request: its time, and what the page says. */
async function timeOnce(client: Client, path: string) {
  const started = performance.now();
  const response = await client.request('GET', path);
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  const page = JSON.parse(text) as Page;
  const summary = page.counts
    ? `of ${page.counts.all} (${Object.entries(page.counts)
        .filter(([status, n]) => status !== 'all' && n > 0)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ')})`
    : `of ${page.total} images`;
  return { ms, rows: page.items.length, bytes: Buffer.byteLength(text), summary };
}

/**
 * The paths in turns (one request each per turn), so whatever else the machine does meanwhile
 * (the worker's start-up jobs, other processes) falls on all of them alike.
 */
async function time(client: Client, paths: Record<Name, string>): Promise<Record<Name, Timing>> {
  const names = Object.keys(paths) as Name[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  const last = {} as Record<Name, Awaited<ReturnType<typeof timeOnce>>>;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    for (const name of names) {
      const result = await timeOnce(client, paths[name]);
      if (run < WARMUP) continue;
      samples[name].push(result.ms);
      last[name] = result;
    }
  }
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        p95: percentile(samples[name], 95),
        p50: percentile(samples[name], 50),
        rows: last[name].rows,
        bytes: last[name].bytes,
        summary: last[name].summary,
      },
    ]),
  ) as Record<Name, Timing>;
}

/** SQL statements per request, from MikroORM's query log of an in-process app. */
async function countQueries(env: NodeJS.ProcessEnv): Promise<Record<Name, number>> {
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
    const counts = {} as Record<Name, number>;
    const deep = await deepPath(client);
    for (const [name, given] of PATHS) {
      const path = given === 'deep' ? deep : given;
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

/** The p95 budget is the reference machine's, scaled by `speed` (node:http's rate). */
export async function adminLists(env: NodeJS.ProcessEnv, speed: Speed): Promise<Figure[]> {
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  const figures: Figure[] = [];
  const timings = {} as Record<Name, Timing & { path: string }>;
  const deep = await deepPath(admin);
  const pathOf = (given: string) => (given === 'deep' ? deep : given);
  const paths = Object.fromEntries(PATHS.map(([name, given]) => [name, pathOf(given)])) as Record<
    Name,
    string
  >;
  const measured = await time(admin, paths);
  for (const [name] of PATHS) timings[name] = { ...measured[name], path: paths[name] };
  const counts = await countQueries(env);
  for (const [name, given, statements] of PATHS) {
    const timing = timings[name];
    const shown =
      given === 'deep' ? `page ${DEEP_PAGES * 4 + 1} of 12 (after ${DEEP_PAGES} pages of 50)` : given;
    figures.push(
      inReferenceUnits(
        {
          name: `r2.${name}.p95`,
          value: timing.p95,
          unit: 'ms',
          budget: { op: '<=', limit: P95_BUDGET_MS },
          reference: `p50 ${timing.p50.toFixed(1)} ms; GET ${shown}: ${timing.rows} rows ${timing.summary}, ${RUNS} sequential requests in turns with the other lists`,
        },
        speed,
      ),
      {
        name: `r2.${name}.body`,
        value: timing.bytes / 1024,
        unit: 'KB',
        budget: { op: '<=', limit: BODY_BUDGET_KB },
        reference: `${timing.rows} rows per page`,
      },
      {
        name: `r2.${name}.queries`,
        value: counts[name],
        unit: 'queries',
        digits: 0,
        budget: { op: '<=', limit: statements },
        reference: `SQL statements per request (session, user, counts, page, rows), MikroORM query log; ${statements} with 3 vehicles and 15 images`,
      },
    );
  }
  return figures;
}
