/**
 * `npm run cluster`: the multi-host drill. Three api hosts and two worker hosts, each in a network
 * namespace of its own with its own temporary, data and backup directories; a PostgreSQL of the
 * drill's own behind PgBouncer in transaction mode; a Redis primary and replica with three Sentinels;
 * HAProxy in front of the apis; an embedded S3 and a mail catcher on the machine. It drives the
 * event day's mix through HAProxy (landing page, car pages, votes, four gates syncing scans, status
 * changes with their mails) and, phase by phase, cuts an api host's link, kills a worker host, fails
 * the Redis primary over, and restarts the api hosts one by one on a new release. Then it checks the
 * invariants and prints them with their figures; exit 1 when one does not hold.
 *
 * `npm run cluster -- --short` (inside `npm test`) runs each phase for a few seconds. Where network
 * namespaces cannot be made (not root, no iproute2) it says so and fails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateEntryData, GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import {
  startEmbeddedS3,
  startMailCatcher,
  s3Env,
  type EmbeddedS3,
} from '@schlosstreffen/infra/dev-services';
import pg from 'pg';
import { BROWSER_HEADERS, landingAssets } from '../browser.js';
import { Client, REQUEST_TIMEOUT_MS, Tally, type Answer } from '../faults/client.js';
import { checkMails, type Check } from '../faults/invariants.js';
import { ROOT } from '../settings.js';
import { upcomingEvent } from '../stack.js';
import { AppHost, API_PORT } from './apps.js';
import { BRIDGE_IP, namespacesUnavailable, Network } from './net.js';
import { stopAll } from './processes.js';
import {
  currentPrimary,
  missingPackages,
  PG_PORT,
  PGBOUNCER_PORT,
  SENTINEL_NAME,
  SENTINEL_PORT,
  startHaproxy,
  startPgBouncer,
  startPostgres,
  startRedis,
  startSentinel,
} from './services.js';

const run = promisify(execFile);

const SHORT = process.argv.includes('--short') || process.env.CLUSTER_SHORT === '1';
/** How long each phase drives the mix. */
const PHASE_SECONDS = Number(process.env.CLUSTER_PHASE_SECONDS ?? (SHORT ? 10 : 60));
const APPLICANTS = SHORT ? 14 : 40;
/** Of the applications, these are confirmed (on the gates' lists, with car pages). */
const CONFIRMED = SHORT ? 8 : 24;
const GATES = 4;
const SCANS_PER_SYNC = 5;
const LB_PORT = 8080;
/** The public list must be current on every api host within this long after a change. */
const FRESH_WITHIN_MS = 2000;
const ZONES = 'A:400,B:400,C:400';

interface Phase {
  name: string;
  tally: Tally;
  latencies: number[];
}

const phases: Phase[] = [];
let phase: Phase = newPhase('setup');
function newPhase(name: string): Phase {
  const next = { name, tally: new Tally(), latencies: [] };
  phases.push(next);
  return next;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
};

const checks: Check[] = [];
const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

async function main(): Promise<number> {
  for (const built of [
    'api/dist/main.js',
    'worker/dist/main.js',
    'api/dist/cli/cli.js',
    'web/dist/index.html',
  ]) {
    if (!existsSync(path.join(ROOT, built))) {
      console.error(
        `cluster drill: ${built} is missing: run \`npm run build\` first (npm run cluster does).`,
      );
      return 1;
    }
  }
  const unavailable = await namespacesUnavailable();
  if (unavailable) {
    console.error(`cluster drill: cannot run here: ${unavailable}.`);
    return 1;
  }
  const missing = missingPackages();
  if (missing.length) {
    console.error(`cluster drill: cannot run here: install ${missing.join(', ')} (apt-get install).`);
    return 1;
  }

  const started = Date.now();
  const work = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-cluster-'));
  // PostgreSQL and PgBouncer run as the postgres user, in directories of their own below it.
  await chmod(work, 0o711);
  const logDir = path.join(work, 'logs');
  await mkdir(logDir, { recursive: true });
  console.log(
    `cluster drill${SHORT ? ' (short)' : ''}: 3 api hosts, 2 worker hosts, PostgreSQL behind PgBouncer, ` +
      `Redis with 3 Sentinels, HAProxy; ${PHASE_SECONDS} s a phase; logs in ${logDir}`,
  );
  const network = new Network();
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    await network.start();
    cleanups.push(() => network.stop());
    const data = await network.add('data', 2);
    const redis1 = await network.add('redis1', 3);
    const redis2 = await network.add('redis2', 4);
    const lb = await network.add('lb', 5);
    const apiHosts = await Promise.all([1, 2, 3].map((n) => network.add(`api${n}`, 10 + n)));
    const workerHosts = await Promise.all([1, 2].map((n) => network.add(`worker${n}`, 20 + n)));

    // The services.
    await startPostgres(data, path.join(work, 'postgres'), logDir);
    await startPgBouncer(data, path.join(work, 'pgbouncer'), logDir);
    const primary = await startRedis(redis1, path.join(work, 'redis1'), logDir);
    await startRedis(redis2, path.join(work, 'redis2'), logDir, redis1);
    for (const host of [data, redis1, redis2])
      await startSentinel(host, path.join(work, `sentinel-${host.name}`), logDir, redis1);
    const s3: EmbeddedS3 = await startEmbeddedS3({ dataDir: path.join(work, 's3'), host: BRIDGE_IP });
    cleanups.push(() => s3.stop());
    const mail = await startMailCatcher({ host: BRIDGE_IP });
    cleanups.push(() => mail.stop());

    const directUrl = `postgres://postgres@${data.ip}:${PG_PORT}/schlosstreffen`;
    const pooledUrl = `postgres://postgres@${data.ip}:${PGBOUNCER_PORT}/schlosstreffen`;
    const publicUrl = `http://${lb.ip}:${LB_PORT}`;
    const releaseA = path.join(ROOT, 'web');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_FORMAT: 'json',
      PUBLIC_URL: publicUrl,
      DATABASE_URL: pooledUrl,
      DATABASE_DIRECT_URL: directUrl,
      REDIS_URL: '',
      REDIS_SENTINELS: [data, redis1, redis2].map((host) => `${host.ip}:${SENTINEL_PORT}`).join(','),
      REDIS_SENTINEL_NAME: SENTINEL_NAME,
      ...s3Env(s3),
      S3_PUBLIC_ENDPOINT: s3.endpoint,
      SMTP_URL: mail.smtpUrl,
      MAIL_FROM: 'Schlosstreffen Drill <noreply@cluster.test>',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '1',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_FACTOR: '100000',
      WORKER_CONCURRENCY: '4',
      SCHEDULER_TICK_MINUTES: '0',
      SHUTDOWN_GRACE_SECONDS: '10',
      PARKING_ZONES: ZONES,
      ...upcomingEvent(),
    };

    // Migrations once, over the direct connection, as a deploy's migration step does.
    console.log('  migrating …');
    await run(process.execPath, ['api/dist/cli/cli.js', 'migrate'], {
      cwd: ROOT,
      env: { ...env, DATABASE_URL: directUrl },
    });

    const apis = apiHosts.map(
      (host) => new AppHost('api', host, () => env, path.join(work, host.name), logDir, releaseA),
    );
    const workers = workerHosts.map(
      (host) => new AppHost('worker', host, () => env, path.join(work, host.name), logDir, releaseA),
    );
    console.log('  starting 3 apis and 2 workers …');
    await Promise.all([...apis, ...workers].map((app) => app.start()));
    await startHaproxy(lb, path.join(work, 'haproxy'), logDir, {
      port: LB_PORT,
      apis: apiHosts,
      apiPort: API_PORT,
      checkPath: '/healthz/ready',
    });
    cleanups.push(() => stopAll());

    // The second release, built while the first serves (its own build id, so its chunks differ).
    console.log('  building the next release of the web client …');
    const releaseB = path.join(work, 'release-b');
    await buildRelease(releaseB, `drill-${randomBytes(3).toString('hex')}`);

    const db = <T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      query<T>(directUrl, sql, params);
    const target = { apis: [{ url: publicUrl }], publicUrl };
    const client = () => new Client(target, phase.tally);
    const timed = async (kind: string, c: Client, method: string, route: string, body?: unknown) => {
      const res = await c.request(method, route, body);
      phase.latencies.push(res.ms);
      return res;
    };

    // What the day starts from: applications, some confirmed (start numbers, car pages, gate lists).
    console.log(`  ${APPLICANTS} applications, ${CONFIRMED} of them confirmed …`);
    const admin = await staff(client(), db, 'admin');
    const applicants: Array<{ client: Client; vehicleId: string }> = [];
    for (let i = 0; i < APPLICANTS; i += 1) applicants.push(await applicant(client(), db, i));
    for (const { vehicleId } of applicants.slice(0, CONFIRMED)) {
      await setStatus(admin, vehicleId, 'submitted', 'invited');
    }
    await waitFor('invitations', async () => {
      const [row] = await db<{ n: number }>(
        `select count(*)::int as n from invitation where released_at is null`,
      );
      return row!.n >= CONFIRMED;
    });
    for (const { vehicleId } of applicants.slice(0, CONFIRMED)) {
      await setStatus(admin, vehicleId, 'invited', 'confirmed');
    }
    const numbers = await db<{ n: number; year: number }>(
      `select i.start_number as n, e.year from invitation i join vehicle v on v.id = i.vehicle_id
         join edition e on e.id = v.edition_id
        where v.status = 'confirmed' and i.released_at is null order by 1`,
    );
    const year = numbers[0]!.year;
    await admin.expect('POST', `/api/admin/award/${year}/open`, {}, 200);

    // The workload, through HAProxy.
    let stopping = false;
    const loops: Array<Promise<void>> = [];
    const loop = (body: () => Promise<void>, pauseMs = 0) =>
      loops.push(
        (async () => {
          while (!stopping) {
            await body().catch((error: unknown) => console.log(`  workload: ${(error as Error).message}`));
            if (pauseMs) await sleep(pauseMs);
          }
        })(),
      );
    const home = await fetch(`${publicUrl}/`, { headers: BROWSER_HEADERS });
    const oldPage = await home.text();
    const oldAssets = await landingAssets(oldPage);
    const browse = async (route: string) => {
      const at = Date.now();
      let status: number | 'hung' | 'refused';
      try {
        const response = await fetch(`${publicUrl}${route}`, {
          headers: BROWSER_HEADERS,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        status = (error as Error).name === 'TimeoutError' ? 'hung' : 'refused';
      }
      phase.tally.add(status, Date.now() - at);
      phase.latencies.push(Date.now() - at);
    };
    // Visitors on the landing page with its assets, and on the cars' pages.
    for (let i = 0; i < 3; i += 1)
      loop(async () => {
        await browse('/');
        for (const file of oldAssets.page) await browse(file);
      });
    for (let i = 0; i < 3; i += 1)
      loop(async () => {
        const n = numbers[Math.floor(Math.random() * numbers.length)]!.n;
        await browse(`/fahrzeuge/${year}/${n}`);
        await browse(`/api/editions/${year}/vehicles/${n}`);
      });
    // Votes with an address, each from a browser of its own (the same answer for every address).
    let votes = 0;
    loop(async () => {
      const voter = client();
      const n = numbers[votes % numbers.length]!.n;
      const res = await timed('vote', voter, 'POST', `/api/award/${year}/votes`, {
        startNumber: n,
        email: `besucher-${votes++}@cluster.test`,
      });
      if (res.status !== 202) throw new Error(`vote for ${n} answered ${res.status}`);
    }, 200);
    // Four gates: each device syncs its scans every second and sends again what got no answer.
    const sent = new Set<string>();
    let scansAccepted = 0;
    let scansRefused = 0;
    const devices: Array<() => Promise<number>> = [];
    const gateClients = await Promise.all(Array.from({ length: GATES }, () => staff(client(), db, 'admin')));
    const lists = await Promise.all(
      gateClients.map(async (gate) => {
        const list = (await gate.expect('GET', '/api/admin/check-in/list', undefined, 200)) as GateList;
        return list.entries
          .map((entry) => JSON.parse(entry.data) as GateEntryData)
          .filter((car) => car.confirmed)
          .map((car) => car.id);
      }),
    );
    gateClients.forEach((gate, index) => {
      const deviceId = randomUUID();
      let cursor: string | undefined;
      let waiting: Array<{ id: string; invitationId: string; scannedAt: string }> = [];
      loop(async () => {
        const cars = lists[index]!;
        for (let i = 0; i < SCANS_PER_SYNC; i += 1) {
          const scan = {
            id: randomUUID(),
            invitationId: cars[Math.floor(Math.random() * cars.length)]!,
            scannedAt: new Date().toISOString(),
          };
          sent.add(scan.id);
          waiting.push(scan);
        }
        const res = await timed('gate sync', gate, 'POST', '/api/admin/check-in/sync', {
          deviceId,
          gate: `Tor ${index + 1}`,
          since: cursor,
          scans: waiting.slice(0, 500),
        });
        settle(res);
      }, 1000);
      /** What a device does when the day ends: it sends what is still waiting until it is taken. */
      const settle = (res: { status: number; data: Answer }) => {
        if (res.status !== 200) return;
        const answer = res.data as GateSyncResult;
        // The states of this device's scans that changed since its cursor, every scan sent included.
        const states = new Map(answer.scans.map((scan) => [scan.id, scan.result]));
        for (const scan of waiting) {
          const result = states.get(scan.id);
          if (result === 'refused') scansRefused += 1;
          else if (result) scansAccepted += 1;
        }
        waiting = waiting.filter((scan) => !states.has(scan.id));
        cursor = answer.cursor;
      };
      devices.push(async () => {
        for (let attempt = 0; waiting.length && attempt < 30; attempt += 1) {
          settle(
            await gate.request('POST', '/api/admin/check-in/sync', {
              deviceId,
              gate: `Tor ${index + 1}`,
              since: cursor,
              scans: waiting.slice(0, 500),
            }),
          );
          if (waiting.length) await sleep(1000);
        }
        return waiting.length;
      });
    });
    // A reviewer moves applications between in review and the waitlist (a mail each).
    const pool = applicants.slice(CONFIRMED).map(({ vehicleId }) => ({ vehicleId, status: 'submitted' }));
    let turn = 0;
    loop(async () => {
      const application = pool[turn++ % pool.length]!;
      const to = application.status === 'in_review' ? 'waitlist' : 'in_review';
      const res = await timed(
        'status change',
        admin,
        'PATCH',
        `/api/admin/vehicles/${application.vehicleId}/status`,
        {
          status: to,
          oldStatus: application.status,
        },
      );
      if (res.status === 200) application.status = to;
      else if (res.status === 409) {
        // A retried change that did commit: the application has the new status.
        const current = (await admin.request('GET', `/api/vehicles/${application.vehicleId}`)).data as Answer;
        application.status = current.status;
      }
    }, 700);
    // The public list on every reachable api host follows a change of a confirmed car (its name).
    // On a loaded machine one request can take longer than the bound itself, so what is judged is
    // what the hosts answered: a request sent the bound or later after the change that still got the
    // old list proves a stale host. Per check it is kept when the last old answer's request was sent
    // and when the first new answer arrived (the host switched between the two).
    const staleSentAt: number[] = [];
    const currentBy: number[] = [];
    /** The latest old answer per phase, to tell where the list fell behind. */
    const staleIn = new Map<string, number>();
    const renamed = applicants[0]!;
    let renames = 0;
    const freshnessMisses: string[] = [];
    loop(async () => {
      const name = `Drill ${++renames}`;
      const res = await timed('owner edit', renamed.client, 'PATCH', `/api/vehicles/${renamed.vehicleId}`, {
        name,
      });
      if (res.status !== 200) throw new Error(`renaming answered ${res.status}`);
      const changed = Date.now();
      await Promise.all(
        apis.map(async (api) => {
          if (!api.proc?.alive() || !(await api.healthy())) return;
          let lastStale = 0;
          for (;;) {
            const sent = Date.now() - changed;
            const list = await fetch(`${api.url}/api/vehicles/public`, { signal: AbortSignal.timeout(2000) })
              .then((response) => response.json() as Promise<Array<{ id: string; name: string | null }>>)
              .catch(() => undefined);
            // A host taken out of service meanwhile (cut off, stopped) answers nobody.
            if (!list && !(api.proc?.alive() && (await api.healthy()))) return;
            if (list?.some((car) => car.id === renamed.vehicleId && car.name === name)) {
              staleSentAt.push(lastStale);
              currentBy.push(Date.now() - changed);
              staleIn.set(phase.name, Math.max(staleIn.get(phase.name) ?? 0, lastStale));
              return;
            }
            if (list) lastStale = sent;
            if (Date.now() - changed > 10_000) {
              freshnessMisses.push(`${api.name} in '${phase.name}'`);
              return;
            }
            await sleep(50);
          }
        }),
      );
    }, 3000);

    // The phases.
    const steady = async (name: string, during?: () => Promise<void>, after?: () => Promise<void>) => {
      phase = newPhase(name);
      const ends = Date.now() + PHASE_SECONDS * 1000;
      console.log(`  phase: ${name}`);
      await during?.();
      await sleep(Math.max(0, ends - Date.now()));
      await after?.();
    };
    await steady('steady');
    const cut = network.host('api1');
    await steady(
      'api1 cut off',
      () => network.cut(cut),
      async () => {
        await network.restore(cut);
        await waitFor('api1 back behind HAProxy', () => apis[0]!.healthy());
      },
    );
    await steady('worker1 host killed', () => workers[0]!.kill());
    let failedOverTo: string | undefined;
    await steady('Redis primary fails over', async () => {
      await primary.kill();
      await waitFor('a new Redis primary', async () => {
        failedOverTo = await currentPrimary(data);
        return failedOverTo !== undefined && failedOverTo !== redis1.ip;
      });
    });
    const workerHealth = await fetch(workers[1]!.healthUrl).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: Error) => error.message,
    );
    await steady('rolling deploy to the next release', async () => {
      for (const api of apis) {
        await api.stop();
        await api.start(releaseB);
      }
    });
    stopping = true;
    await Promise.all(loops);
    const unsent = (await Promise.all(devices.map((flush) => flush()))).reduce((sum, n) => sum + n, 0);

    const workerHealthAtEnd = await fetch(workers[1]!.healthUrl).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: Error) => error.message,
    );
    // Pages of the old release keep loading their chunks from the new one.
    phase = newPhase('after');
    const oldChunks = [...oldAssets.page, ...oldAssets.onDemand];
    const chunkStatus = await Promise.all(
      oldChunks.map((file) =>
        fetch(`${publicUrl}${file}`).then(
          (response) => response.status,
          () => -1,
        ),
      ),
    );
    const missingChunks = oldChunks.filter((_, index) => chunkStatus[index] !== 200);

    // Invariants.
    await waitFor(
      'queues and outbox drained',
      async () => {
        const [row] = await db<{ n: number }>(
          `select count(*)::int as n from outbox where published_at is null`,
        );
        return row!.n === 0;
      },
      120_000,
    );
    await sleep(3000);
    const scans = await db<{ id: string }>(`select id from check_in_scan`);
    const stored = new Map<string, number>();
    for (const { id } of scans) stored.set(id, (stored.get(id) ?? 0) + 1);
    const lost = [...sent].filter((id) => !stored.has(id));
    const twice = [...stored].filter(([, n]) => n > 1).length;
    check(
      'no gate scan lost or counted twice',
      lost.length === 0 && twice === 0 && unsent === 0 && scansRefused === 0,
      `${sent.size} scans made on ${GATES} devices (resent while unanswered), ${scans.length} stored, ` +
        `${scansAccepted} taken, ${lost.length} lost, ${twice} twice, ${scansRefused} refused, ${unsent} never taken`,
    );
    const mails = await checkMails({ query: db, mailWebUrl: mail.webUrl });
    check(
      'no mail lost',
      mails.ok,
      `${mails.detail}; ${mails.mails} mails caught, ${mails.redelivered} sent twice (a worker killed after sending, before recording: known not to hold)`,
    );
    const all = new Tally();
    for (const p of phases)
      for (const [status, n] of p.tally.statuses) for (let i = 0; i < n; i += 1) all.add(status, 0);
    const failed = all.count((status) => typeof status !== 'number' || status >= 500);
    check('no request answered 5xx after the load balancer', failed === 0, `${all.total} requests: ${all}`);
    check(
      'pages of the old release keep loading their chunks',
      missingChunks.length === 0,
      `${oldChunks.length} chunks of the first release after the deploy: ${missingChunks.length ? `missing ${missingChunks.join(', ')}` : 'all 200'}`,
    );
    const latestStale = Math.max(0, ...staleSentAt);
    check(
      `the public list current within ${FRESH_WITHIN_MS / 1000} s on every api host`,
      latestStale < FRESH_WITHIN_MS && freshnessMisses.length === 0,
      `${staleSentAt.length} host checks after a change: the old list answered to a request sent at most ` +
        `${latestStale} ms after it (${[...staleIn].map(([name, ms]) => `${name} ${ms}`).join(', ')}); ` +
        `the new one arrived p50 ${percentile(currentBy, 50)} ms, max ${Math.max(0, ...currentBy)} ms after it; ` +
        `${freshnessMisses.length ? `not current after 10 s: ${freshnessMisses.join(', ')}` : 'none still old after 10 s'}`,
    );
    check(
      'Redis failed over under Sentinel, the workers carried on',
      failedOverTo === redis2.ip && workerHealth.startsWith('200'),
      `primary ${redis1.ip} → ${failedOverTo}; worker2's health then: ${workerHealth.slice(0, 160)}, at the end: ${workerHealthAtEnd.slice(0, 160)}`,
    );
    check('votes taken', votes > 0, `${votes} votes with an address, each answered 202`);

    console.log(
      `\n${'phase'.padEnd(38)} ${'requests'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  answers`,
    );
    for (const p of phases.filter((p) => p.latencies.length)) {
      console.log(
        `${p.name.padEnd(38)} ${String(p.tally.total).padStart(9)} ${String(percentile(p.latencies, 50)).padStart(7)} ${String(percentile(p.latencies, 99)).padStart(7)}  ${p.tally}`,
      );
    }
    console.log('');
    for (const c of checks) console.log(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
    const ok = checks.every((c) => c.ok);
    console.log(
      `\ncluster drill: ${checks.filter((c) => c.ok).length} of ${checks.length} invariants held ` +
        `(${((Date.now() - started) / 60_000).toFixed(1)} min)`,
    );
    if (ok && !process.env.CLUSTER_KEEP) await rm(work, { recursive: true, force: true });
    else console.log(`logs kept in ${logDir}`);
    return ok ? 0 : 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

/** A second build of the web client under `dir` (`dist` and `dist-server`), with its own build id. */
async function buildRelease(dir: string, buildId: string): Promise<void> {
  const env = { ...process.env, NODE_ENV: 'production', VITE_BUILD_ID: buildId };
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const web = path.join(ROOT, 'web');
  await run(process.execPath, [vite, 'build', '--outDir', path.join(dir, 'dist'), '--emptyOutDir'], {
    cwd: web,
    env,
  });
  await run(
    process.execPath,
    [
      vite,
      'build',
      '--ssr',
      'src/entry-server.tsx',
      '--outDir',
      path.join(dir, 'dist-server'),
      '--emptyOutDir',
    ],
    { cwd: web, env },
  );
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

type Db = (sql: string, params?: unknown[]) => Promise<unknown[]>;

let accounts = 0;
const PASSWORD = 'cluster-drill-password';

/** A signed-in account with a role, its address confirmed (as an operator would). */
async function staff(client: Client, db: Db, role: 'admin' | 'reviewer'): Promise<Client> {
  const email = `${role}-${accounts++}@cluster.test`;
  await client.persist(
    'POST',
    '/api/auth/register',
    { email, password: PASSWORD, firstName: 'Ada', lastName: 'Drill' },
    201,
  );
  await db(`update users set role = $2, email_verified = true where email = $1`, [email, role]);
  return client;
}

async function applicant(
  client: Client,
  db: Db,
  index: number,
): Promise<{ client: Client; vehicleId: string }> {
  const email = `owner-${accounts++}@cluster.test`;
  await client.persist(
    'POST',
    '/api/auth/register',
    { email, password: PASSWORD, firstName: 'Lena', lastName: `Nr${index}` },
    201,
  );
  await db(`update users set email_verified = true where email = $1`, [email]);
  const vehicle = await client.persist(
    'POST',
    '/api/vehicles',
    {
      brand: 'BMW',
      model: `M3 Nr. ${index}`,
      year: 1995,
      ps: 300,
      weightKg: 1400,
      topSpeedKmh: 250,
      zeroToHundredS: 5.3,
      status: 'submitted',
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    },
    201,
  );
  return { client, vehicleId: vehicle.id as string };
}

/** A status change that may have committed before its answer was lost: a 409 with the new status counts. */
async function setStatus(admin: Client, vehicleId: string, from: string, to: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await admin.request('PATCH', `/api/admin/vehicles/${vehicleId}/status`, {
      status: to,
      oldStatus: from,
    });
    if (res.status === 200) return;
    if (res.status === 409) {
      const current = (await admin.request('GET', `/api/vehicles/${vehicleId}`)).data as Answer;
      if (current.status === to) return;
    }
    if (Date.now() > deadline) throw new Error(`status ${from} → ${to}: ${res.status}`);
    await sleep(300);
  }
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error('cluster drill:', error);
  await stopAll();
}
process.exit(exitCode);
