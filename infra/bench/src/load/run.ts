/**
 * `npm run load`: a mixed workload for a few minutes (LOAD_SECONDS, 180 by default) against two apis
 * and two workers from the build, on this machine's PostgreSQL and Redis, with an embedded S3 and a
 * mail catcher. Virtual users run side by side, each one kind of work in a closed loop: visitors
 * read the public list, owners sign in, newcomers register and apply with a photo, reviewers read
 * the admin lists and change statuses (invitations go through the workers), the gate checks cars in.
 * `npm run load -- event-day` (or LOAD_MIX=event-day) runs the event day's mix instead, with the
 * gates open: a spike of anonymous visitors on the landing page and its assets, four gates syncing
 * scans, the arrivals board polled, a reviewer changing statuses.
 * Prints throughput, p50/p99 per kind, the error rate and the resident memory of every process at
 * start and end; exits 1 when the error rate or the memory growth passes its bound.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { GateEntryData, GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { BROWSER_HEADERS, landingAssets } from '../browser.js';
import { teardown, upcomingEvent } from '../stack.js';
import { Client, REQUEST_TIMEOUT_MS, Tally, type Answer } from '../faults/client.js';
import { Deployment, type Proc } from '../faults/deployment.js';
import { checkInvitations, checkMails, checkRenditions } from '../faults/invariants.js';
import {
  createAdmin,
  createApplicant,
  PASSWORD,
  setStatus,
  uploadPhoto,
  type Applicant,
} from '../faults/workload.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 180);
const MIXES = ['default', 'event-day'] as const;
type Mix = (typeof MIXES)[number];
const mix = (process.argv[2] ?? process.env.LOAD_MIX ?? 'default') as Mix;
if (!MIXES.includes(mix)) {
  console.error(`unknown mix: ${mix} (choose from ${MIXES.join(', ')})`);
  process.exit(2);
}
/** Bounds: errors over all requests, and how much any process may grow from start to end. */
const MAX_ERROR_RATE = 0.01;
const MAX_RSS_GROWTH_MIB = 150;
const ZONES = 'A:400,B:400,C:400';
/** Of the 60 applications the workload starts from, the first ones are invited and confirmed. */
const CONFIRMED_AT_START = 40;

/** The event day's mix. */
const LANDING_VISITORS = 16;
const GATES = 4;
const SCANS_PER_SYNC = 10;
/** Each gate syncs this often, and refreshes its list about every this many syncs. */
const GATE_SYNC_MS = 1000;
const GATE_LIST_EVERY = 30;
/** The arrivals board's screens, each polling as the page does. */
const ARRIVAL_BOARDS = 2;
const ARRIVALS_POLL_MS = 5000;
const STATUS_CHANGE_MS = 1000;

const deployment = new Deployment({
  name: 'load',
  database: 'schlosstreffen_load',
  apis: 2,
  workers: 2,
  basePort: 3400,
  // The event day's gates take scans made now: they opened a day ago. The event itself is dated
  // ahead (as in the bench), so the applications the workload starts from can still be made.
  env: { PARKING_ZONES: ZONES, ...(mix === 'event-day' ? upcomingEvent() : {}) },
});

interface Kind {
  latencies: number[];
  errors: number;
  statuses: Map<number, number>;
}
const kinds = new Map<string, Kind>();
let unexpected4xx = 0;
let failedSteps = 0;
/** Gate scans the server refused (every car on a gate's list is confirmed and the gates are open). */
let refusedScans = 0;

function kindOf(name: string): Kind {
  const entry = kinds.get(name) ?? { latencies: [], errors: 0, statuses: new Map<number, number>() };
  kinds.set(name, entry);
  return entry;
}

/** One request of a kind; an answer outside `ok` (or none) is an error. */
async function timed(
  kind: string,
  client: Client,
  method: string,
  path: string,
  body: unknown,
  ok: number[],
): Promise<{ status: number; data: Answer }> {
  const res = await client.request(method, path, body);
  note(kind, res.status, res.ms, ok);
  return res;
}

/** A request's answer (status -1: none) and time under its kind. */
function note(kind: string, status: number, ms: number, ok: number[]): void {
  const entry = kindOf(kind);
  entry.latencies.push(ms);
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  if (!ok.includes(status)) {
    entry.errors += 1;
    // 5xx, no answer and 429 are counted from the tally of every request.
    if (status >= 400 && status < 500 && status !== 429) unexpected4xx += 1;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function rssMiB(proc: Proc): Promise<number | undefined> {
  if (!proc.pid) return undefined;
  const status = await readFile(`/proc/${proc.pid}/status`, 'utf8').catch(() => '');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kib ? kib / 1024 : undefined;
}

async function rssOfAll(): Promise<Map<string, number | undefined>> {
  const result = new Map<string, number | undefined>();
  for (const proc of [...deployment.apis, ...deployment.workers]) {
    result.set(`${proc.role} ${proc.index + 1}`, await rssMiB(proc));
  }
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let exitCode = 0;
try {
  console.log(
    `load: starting 2 apis and 2 workers, then ${SECONDS} s of ${mix === 'event-day' ? "the event day's" : 'mixed'} traffic …`,
  );
  console.log('  (the workload, its bounds and a reference run: docs/development.md#load-test)');
  await deployment.start();
  const setupTally = new Tally();
  const admin = await createAdmin(deployment, setupTally);
  const adminEmail = (
    await deployment.query<{ email: string }>(`select email from users where role = 'admin' limit 1`)
  )[0]!.email;

  // What the workload starts from: 60 applications, 40 of them invited and confirmed (check-in codes
  // for the gate, which lets in confirmed cars only).
  const seeded: Applicant[] = [];
  for (let i = 0; i < 60; i += 1) {
    seeded.push(await createApplicant(deployment, setupTally, i, { photo: i % 3 === 0 }));
  }
  for (const applicant of seeded.slice(0, CONFIRMED_AT_START)) {
    await setStatus(admin, applicant.vehicleId, 'submitted', 'in_review');
    await setStatus(admin, applicant.vehicleId, 'in_review', 'invited');
    await setStatus(admin, applicant.vehicleId, 'invited', 'confirmed');
  }
  await deployment.drain();
  const codes = async () =>
    (await deployment.query<{ qr_code: string }>('select qr_code from invitation')).map((row) => row.qr_code);
  // A warm-up, so that start-up allocations are not counted as growth.
  const warm = new Client(deployment, new Tally());
  for (let i = 0; i < 50; i += 1) await warm.request('GET', '/api/vehicles/public');
  const rssStart = await rssOfAll();

  const tally = new Tally();
  // Set once the mix's own setup is done.
  let deadline = Number.POSITIVE_INFINITY;
  const running = () => Date.now() < deadline;
  const fresh: Applicant[] = [];
  let applied = 0;
  let scansSynced = 0;

  const loop = (body: () => Promise<void>) =>
    (async () => {
      while (running()) await body();
    })();
  /** Like `loop`, one body every `ms` (a late one moves the next back, never closer). */
  const every = (ms: number, offsetMs: number, body: () => Promise<void>) =>
    (async () => {
      let next = Date.now() + offsetMs;
      while (running()) {
        await sleep(Math.max(0, Math.min(next, deadline) - Date.now()));
        if (!running()) return;
        await body();
        next = Math.max(next + ms, Date.now());
      }
    })();
  const signedIn = async (): Promise<Client> => {
    const client = new Client(deployment, tally);
    await client.persist('POST', '/api/auth/login', { email: adminEmail, password: PASSWORD }, 200);
    return client;
  };

  /** The default mix: a site taking applications. */
  const mixed = async (): Promise<Array<Promise<void>>> => {
    const reviewer = await signedIn();
    const gate = await signedIn();
    const lists = await signedIn();
    return [
      // Visitors: the landing page's list, on either api.
      ...Array.from({ length: 4 }, () => {
        const visitor = new Client(deployment, tally);
        return loop(async () => {
          await timed('public list', visitor, 'GET', '/api/vehicles/public', undefined, [200]);
        });
      }),
      // Owners sign in and look at their vehicles.
      loop(async () => {
        const owner = seeded[Math.floor(Math.random() * seeded.length)]!;
        const client = new Client(deployment, tally);
        await timed(
          'login',
          client,
          'POST',
          '/api/auth/login',
          { email: owner.email, password: PASSWORD },
          [200],
        );
        await timed('own vehicles', client, 'GET', '/api/vehicles', undefined, [200]);
      }),
      // Newcomers apply with a photo (registration, vehicle, signed upload, attach).
      ...Array.from({ length: 2 }, () =>
        loop(async () => {
          const index = 1000 + applied++;
          try {
            const at = Date.now();
            const applicant = await createApplicant(deployment, tally, index);
            record('apply (register + vehicle)', Date.now() - at);
            const uploaded = Date.now();
            await uploadPhoto(applicant, index, 30_000);
            record('photo upload (sign + PUT + attach)', Date.now() - uploaded);
            fresh.push(applicant);
          } catch (error) {
            failedSteps += 1;
            kindOf('apply (register + vehicle)').errors += 1;
            console.log(`application ${index} failed: ${(error as Error).message}`);
          }
        }),
      ),
      // Reviewers read the lists.
      loop(async () => {
        await timed('admin vehicle list', lists, 'GET', '/api/admin/vehicles', undefined, [200]);
        await timed('admin media library', lists, 'GET', '/api/admin/media', undefined, [200]);
      }),
      // A reviewer works through the new applications: in review, then invited.
      loop(async () => {
        const next = fresh.shift();
        if (!next) {
          await sleep(200);
          return;
        }
        for (const [from, to] of [
          ['submitted', 'in_review'],
          ['in_review', 'invited'],
        ] as const) {
          await timed(
            'status change',
            reviewer,
            'PATCH',
            `/api/admin/vehicles/${next.vehicleId}/status`,
            {
              status: to,
              oldStatus: from,
            },
            [200],
          );
        }
      }),
      // The gate: each code once (200), then again (409, "already checked in").
      (async () => {
        let known: string[] = [];
        let i = 0;
        while (running()) {
          if (i % 20 === 0) known = await codes();
          const code = known[i++ % known.length];
          if (!code) {
            await sleep(200);
            continue;
          }
          await timed('check-in', gate, 'POST', '/api/admin/check-in', { code }, [200, 409]);
        }
      })(),
    ];
  };

  /**
   * The event day: anonymous visitors load the landing page and its assets (a browser's headers,
   * Brotli accepted), four gates (a staff account and device each) sync their scans and refresh
   * their lists, the arrivals board polls as its screen does, a reviewer changes statuses.
   */
  const eventDay = async (): Promise<Array<Promise<void>>> => {
    let nextApi = 0;
    /** One anonymous GET as a browser sends it; the body read whole (decoded, as a browser does). */
    const browse = async (kind: string, path: string): Promise<void> => {
      const api = deployment.apis[nextApi++ % deployment.apis.length]!;
      const started = Date.now();
      let status: number;
      try {
        const response = await fetch(`${api.url}${path}`, {
          headers: BROWSER_HEADERS,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        status = (error as Error).name === 'TimeoutError' ? -2 : -1;
      }
      const ms = Date.now() - started;
      tally.add(status === -2 ? 'hung' : status === -1 ? 'refused' : status, ms);
      note(kind, status, ms, [200]);
    };
    const home = await fetch(`${deployment.apis[0]!.url}/`, { headers: BROWSER_HEADERS });
    if (!home.ok) throw new Error(`GET / answered ${home.status}`);
    const assets = await landingAssets(await home.text());
    if (!assets.page.length) throw new Error('the landing page names no asset under /assets/');

    const gates = await Promise.all(
      Array.from({ length: GATES }, async (_, index) => ({
        client: await createAdmin(deployment, setupTally),
        deviceId: randomUUID(),
        gate: `Tor ${index + 1}`,
        cursor: undefined as string | undefined,
        listCursor: undefined as string | undefined,
        cars: new Set<string>(),
      })),
    );
    type Gate = (typeof gates)[number];
    /** The device's signed list, whole or the changes since its cursor: the confirmed cars. */
    const refreshList = async (gate: Gate): Promise<void> => {
      const query = gate.listCursor ? `?since=${encodeURIComponent(gate.listCursor)}` : '';
      const res = await timed(
        'gate list',
        gate.client,
        'GET',
        `/api/admin/check-in/list${query}`,
        undefined,
        [200],
      );
      if (res.status !== 200) return;
      const list = res.data as GateList;
      for (const id of list.removed) gate.cars.delete(id);
      for (const entry of list.entries) {
        const car = JSON.parse(entry.data) as GateEntryData;
        if (car.confirmed) gate.cars.add(car.id);
        else gate.cars.delete(car.id);
      }
      gate.listCursor = list.cursor;
    };
    for (const gate of gates) await refreshList(gate);
    if (!gates[0]!.cars.size) throw new Error('the gate list holds no confirmed car');
    /** Ten scans of cars from the list (many seen before: a duplicate is answered 200 as well). */
    const syncScans = async (gate: Gate): Promise<void> => {
      const cars = [...gate.cars];
      const scans = Array.from({ length: SCANS_PER_SYNC }, () => ({
        id: randomUUID(),
        invitationId: cars[Math.floor(Math.random() * cars.length)]!,
        scannedAt: new Date().toISOString(),
      }));
      const res = await timed(
        'gate sync (10 scans)',
        gate.client,
        'POST',
        '/api/admin/check-in/sync',
        { deviceId: gate.deviceId, gate: gate.gate, since: gate.cursor, scans },
        [200],
      );
      if (res.status !== 200) return;
      const answer = res.data as GateSyncResult;
      const states = new Map(answer.scans.map((state) => [state.id, state.result]));
      for (const scan of scans) {
        const result = states.get(scan.id);
        // Every car on the list is confirmed and the gates are open: a refusal is an error.
        if (result === 'admitted' || result === 'duplicate') scansSynced += 1;
        else {
          refusedScans += 1;
          failedSteps += 1;
          kindOf('gate sync (10 scans)').errors += 1;
        }
      }
      gate.cursor = answer.cursor;
    };

    const board = await signedIn();
    const reviewer = await signedIn();
    // The reviewer's pool: the applications not confirmed, moved between in review and the waitlist.
    const pool = seeded.slice(CONFIRMED_AT_START).map((applicant) => ({
      vehicleId: applicant.vehicleId,
      status: 'submitted' as 'submitted' | 'in_review' | 'waitlist',
    }));
    let turn = 0;
    return [
      ...Array.from({ length: LANDING_VISITORS }, (_, visitor) => {
        let visits = 0;
        return loop(async () => {
          await browse('landing page', '/');
          for (const file of assets.page) await browse('landing assets', file);
          // Every fourth visitor reaches for the page: the app loads.
          if ((visitor + visits++) % 4 === 0) {
            for (const file of assets.onDemand) await browse('landing assets', file);
          }
        });
      }),
      ...gates.map((gate, index) =>
        every(GATE_SYNC_MS, (index * GATE_SYNC_MS) / GATES, async () => {
          await syncScans(gate);
          if (Math.random() < 1 / GATE_LIST_EVERY) await refreshList(gate);
        }),
      ),
      ...Array.from({ length: ARRIVAL_BOARDS }, (_, index) =>
        every(ARRIVALS_POLL_MS, (index * ARRIVALS_POLL_MS) / ARRIVAL_BOARDS, async () => {
          await timed('arrivals board', board, 'GET', '/api/admin/arrivals', undefined, [200]);
        }),
      ),
      every(STATUS_CHANGE_MS, 0, async () => {
        const application = pool[turn++ % pool.length]!;
        const to = application.status === 'in_review' ? 'waitlist' : 'in_review';
        const res = await timed(
          'status change',
          reviewer,
          'PATCH',
          `/api/admin/vehicles/${application.vehicleId}/status`,
          { status: to, oldStatus: application.status },
          [200],
        );
        if (res.status === 200) application.status = to;
      }),
    ];
  };

  const workload = mix === 'event-day' ? await eventDay() : await mixed();
  deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  // Resident memory over time: a leak grows to the end, a heap that warms up levels off.
  const samples: Array<Map<string, number | undefined>> = [];
  const sampler = (async () => {
    while (running()) {
      await sleep(Math.min(20_000, Math.max(0, deadline - Date.now())));
      samples.push(await rssOfAll());
    }
  })();
  await Promise.all([sampler, ...workload]);
  const elapsed = (Date.now() - started) / 1000;
  const rssEnd = await rssOfAll();
  const drainMs = await deployment.drain();

  // Report.
  console.log(
    `\n${'kind'.padEnd(36)} ${'n'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const [name, kind] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...kind.latencies].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(36)} ${String(sorted.length).padStart(6)} ${String(percentile(sorted, 50)).padStart(8)} ${String(percentile(sorted, 99)).padStart(8)} ${String(kind.errors).padStart(7)}`,
    );
  }
  // Every request of the workload, the applications' steps included: an error is a 5xx, a 429, no
  // answer, an unexpected 4xx, or an application that could not be completed.
  const requests = tally.total;
  const failedRequests = tally.count(
    (status) => typeof status !== 'number' || status >= 500 || status === 429,
  );
  const errorRate = (failedRequests + unexpected4xx + failedSteps) / Math.max(1, requests);
  console.log(
    `\nthroughput: ${requests} requests in ${elapsed.toFixed(0)} s = ${(requests / elapsed).toFixed(1)} req/s ` +
      `(${mix === 'event-day' ? `${scansSynced} gate scans synced, ${refusedScans} refused` : `${applied} applications with a photo`}); answers: ${tally}`,
  );
  console.log(
    `error rate: ${(errorRate * 100).toFixed(2)} % (bound ${MAX_ERROR_RATE * 100} %)` +
      `${errorRate <= MAX_ERROR_RATE ? ' pass' : ' MISS'}; slowest request ${tally.maxMs} ms`,
  );
  if (errorRate > MAX_ERROR_RATE) exitCode = 1;
  // The bound holds for the second half of the run: the first half is the heap warming up.
  const middle = samples[Math.floor((samples.length - 1) / 2)];
  for (const [name, start] of rssStart) {
    const end = rssEnd.get(name);
    const half = middle?.get(name);
    const growth = half !== undefined && end !== undefined ? end - half : undefined;
    const ok = growth !== undefined && growth <= MAX_RSS_GROWTH_MIB;
    if (!ok) exitCode = 1;
    const series = samples.map((sample) => sample.get(name)?.toFixed(0) ?? '-').join(' ');
    console.log(
      `RSS ${name}: ${start?.toFixed(0)} MiB at start, ${end?.toFixed(0)} MiB at end; every 20 s: ${series}; ` +
        `growth in the second half ${growth?.toFixed(0)} MiB (bound ${MAX_RSS_GROWTH_MIB} MiB) ${ok ? 'pass' : 'MISS'}`,
    );
  }
  console.log(`queues and outbox empty ${(drainMs / 1000).toFixed(1)} s after the load`);
  for (const check of [
    await checkMails(deployment),
    await checkInvitations(deployment, { A: 400, B: 400, C: 400 }),
    await checkRenditions(deployment),
  ]) {
    if (!check.ok) exitCode = 1;
    console.log(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`);
  }
} catch (error) {
  exitCode = 1;
  console.error('load:', error);
} finally {
  await teardown();
}
process.exit(exitCode);

/** A step made of several requests (each of them is counted by the client's tally). */
function record(kind: string, ms: number): void {
  kindOf(kind).latencies.push(ms);
}
