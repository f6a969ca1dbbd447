/**
 * R15: visitor tickets. (1) The current edition gets 1,000 visitor places and 2,000 unconfirmed
 * sign-ups (written to the database); all 2,000 confirm through `POST
 * /api/visitor-registrations/confirm` with their signed link token, 50 connections each sending
 * one after another: p99 of a confirmation at most 1,000 ms (reference-machine units), every one
 * answered 200, and once the worker's allocation jobs (through the outbox) have run, at most 1,000
 * tickets issued (never one beyond the capacity), the rest waiting. (2) With 10,000 issued tickets (written to the database)
 * an admin downloads the gates' list (`GET /api/admin/check-in/list`) whole, median of five, with a
 * browser's encodings and without: at most 2 s (reference-machine units), at most 1.5 MB compressed
 * (the api sends JSON plain; Caddy's `encode zstd gzip` compresses it in production). Everything is
 * removed again afterwards and the edition's visitor tickets are as before.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
  zstdCompressSync,
  zstdDecompressSync,
} from 'node:zlib';
import { createVisitorToken } from '@schlosstreffen/api/core';
import type pg from 'pg';
import type { GateList, GateTicketsData } from '@schlosstreffen/shared/api';
import { rawGet } from '../browser.js';
import { Client } from '../http.js';
import { withQueues } from '../queues.js';
import { withDatabase } from '../seed.js';
import { ADMIN, API_URL, PUBLIC_URL } from '../settings.js';
import { untilQuiet } from '../speed.js';
import { inReferenceUnits, median, percentile, type Figure, type Speed } from '../stats.js';

const CAPACITY = 1_000;
const CONFIRMATIONS = 2_000;
const CONNECTIONS = 50;
/** Allocation and its mails are waited for at most this long. */
const SETTLE_MS = 120_000;
const POLL_MS = 100;
const LIST_TICKETS = 10_000;
const DOWNLOADS = 5;
const CONFIRM_P99_BUDGET_MS = 1_000;
const LIST_BUDGET_S = 2;
const COMPRESSED_BUDGET_MB = 1.5;
/** What a browser (Chrome) accepts; Caddy answers zstd where accepted, else gzip. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
/** Caddy's defaults for `encode zstd gzip`: gzip level 5, zstd's default level (3). */
const GZIP_LEVEL = 5;
const ZSTD_LEVEL = 3;
const MB = 1024 * 1024;

const CURRENT = `(select id from edition order by current_from desc nulls last, year desc limit 1)`;
/** Every registration R15 writes has an address like this. */
const OURS = `email like 'bench-r15-%@bench.test'`;

interface Counts {
  /** R15's registrations confirmed. */
  confirmed: number;
  issued: number;
  waiting: number;
  returned: number;
  /** The last ticket issued was confirmed no later than the first one waiting. */
  inOrder: boolean;
}

async function countTickets(db: pg.Client): Promise<Counts> {
  return (
    await db.query<Counts>(
      `select count(*) filter (where state = 'issued')::int as issued,
                count(*) filter (where state = 'waiting')::int as waiting,
                count(*) filter (where state = 'returned')::int as returned,
                coalesce(max(queued_at) filter (where state = 'issued')
                           <= min(queued_at) filter (where state = 'waiting'), true) as "inOrder",
                (select count(*)::int from visitor_registration
                  where edition_id = ${CURRENT} and confirmed_at is not null and ${OURS}) as confirmed
           from visitor_ticket where edition_id = ${CURRENT}`,
    )
  ).rows[0]!;
}

async function removeTickets(): Promise<void> {
  await withDatabase(async (db) => {
    await db.query(`delete from visitor_ticket where edition_id = ${CURRENT}`);
    await db.query(`delete from visitor_registration where ${OURS}`);
  });
}

/** One POST of JSON over the pool's connections: status and body. */
function post(agent: Agent, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${API_URL}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          origin: PUBLIC_URL,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Jobs not yet done in the updates (allocation) and email queues, and outbox rows not yet relayed. */
async function pendingWork(): Promise<number> {
  const queued = await withQueues(async (queues) => {
    let n = 0;
    for (const queue of [queues.updates, queues.email]) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      n += Object.values(counts).reduce((sum, count) => sum + count, 0);
    }
    return n;
  });
  const unrelayed = await withDatabase(
    async (db) =>
      (await db.query<{ n: number }>(`select count(*)::int as n from outbox where published_at is null`))
        .rows[0]!.n,
  );
  return queued + unrelayed;
}

interface Confirmations {
  latencies: number[];
  /** Answers other than 200, by status and message. */
  failed: Map<string, number>;
  seconds: number;
  /** From the first confirmation sent until every one had its ticket or place. */
  allocatedS: number;
  /** From the first confirmation sent until the allocation jobs and their mails were done. */
  settledS: number | null;
  counts: Counts;
}

async function confirmAll(secret: string, admin: Client, year: number): Promise<Confirmations> {
  await admin.json('PATCH', `/api/admin/editions/${year}`, { visitorTickets: { capacity: CAPACITY } });
  const ids = await withDatabase(async (db) => {
    const rows = await db.query<{ id: string }>(
      `insert into visitor_registration (id, edition_id, first_name, last_name, email, mailbox, created_at)
       select gen_random_uuid(), ${CURRENT}, 'Vera' || g, 'Besuch', 'bench-r15-' || g || '@bench.test',
              'bench-r15-' || g || '@bench.test', now()
         from generate_series(1, $1) g
       returning id`,
      [CONFIRMATIONS],
    );
    await db.query('analyze visitor_registration, visitor_ticket');
    return rows.rows.map((row) => row.id);
  });
  const tokens = ids.map((id) => createVisitorToken(secret, id, 'confirm'));

  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const failed = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < tokens.length) {
          const token = tokens[next++]!;
          const sent = performance.now();
          const answer = await post(agent, '/api/visitor-registrations/confirm', { token });
          latencies.push(performance.now() - sent);
          if (answer.status !== 200) {
            const key = `${answer.status} ${answer.text.slice(0, 160)}`;
            failed.set(key, (failed.get(key) ?? 0) + 1);
          }
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;

  // Every confirmation that took (answered 200, or not answered but committed) gets its ticket or
  // place from the worker's allocation jobs.
  const allocatedAt = await withDatabase(async (db) => {
    while (performance.now() - started < SETTLE_MS) {
      const counts = await countTickets(db);
      if (counts.issued + counts.waiting + counts.returned >= counts.confirmed) return performance.now();
      await sleep(POLL_MS);
    }
    throw new Error(
      `not every confirmation had its ticket or place after ${SETTLE_MS / 1000} s: ${JSON.stringify(await countTickets(db))}`,
    );
  });
  let settledAt: number | null = null;
  while (performance.now() - started < SETTLE_MS) {
    if ((await pendingWork()) === 0) {
      settledAt = performance.now();
      break;
    }
    await sleep(POLL_MS * 5);
  }
  const counts = await withDatabase(countTickets);
  if (counts.issued + counts.waiting !== counts.confirmed || counts.returned) {
    throw new Error(`expected a ticket or place for each confirmation, got ${JSON.stringify(counts)}`);
  }
  return {
    latencies,
    failed,
    seconds,
    allocatedS: (allocatedAt - started) / 1000,
    settledS: settledAt === null ? null : (settledAt - started) / 1000,
    counts,
  };
}

/** LIST_TICKETS issued tickets, each with its confirmed registration, in one statement. */
async function issueListTickets(admin: Client, year: number): Promise<void> {
  await admin.json('PATCH', `/api/admin/editions/${year}`, { visitorTickets: { capacity: LIST_TICKETS } });
  await withDatabase(async (db) => {
    await db.query(
      `with registration as (
         insert into visitor_registration (id, edition_id, first_name, last_name, email, mailbox, confirmed_at, created_at)
         select gen_random_uuid(), ${CURRENT}, 'Vera' || g, 'Besuch', 'bench-r15-list-' || g || '@bench.test',
                'bench-r15-list-' || g || '@bench.test', now() - ($1 - g) * interval '1 second', now()
           from generate_series(1, $1) g
         returning id, edition_id, confirmed_at
       )
       insert into visitor_ticket (id, edition_id, registration_id, state, secret_hash, queued_at, issued_at,
                                   created_at, gate_changed_at)
       select gen_random_uuid(), edition_id, id, 'issued',
              encode(sha256(convert_to('VT' || md5(random()::text) || md5(random()::text), 'UTF8')), 'hex'),
              confirmed_at, now(), now(), now()
         from registration`,
      [LIST_TICKETS],
    );
    await db.query('analyze visitor_registration, visitor_ticket');
  });
}

/** The session cookie of the admin, for node:http (which leaves the answer's bytes as sent). */
async function adminCookie(): Promise<string> {
  const response = await fetch(`${API_URL}/api/auth/login`, {
    method: 'POST',
    headers: { origin: PUBLIC_URL, 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (response.status !== 200) throw new Error(`admin sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ');
}

interface Download {
  ms: number;
  /** The bytes as sent. */
  sent: number;
  encoding: string | null;
  plain: Buffer;
}

async function download(cookie: string, acceptEncoding: string): Promise<Download> {
  const started = performance.now();
  const answer = await rawGet(`${API_URL}/api/admin/check-in/list`, {
    accept: 'application/json',
    'accept-encoding': acceptEncoding,
    cookie,
  });
  const ms = performance.now() - started;
  if (answer.status !== 200) {
    throw new Error(
      `GET /api/admin/check-in/list answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`,
    );
  }
  const encoding = (answer.headers['content-encoding'] as string | undefined) ?? null;
  const plain =
    encoding === 'gzip'
      ? gunzipSync(answer.body)
      : encoding === 'br'
        ? brotliDecompressSync(answer.body)
        : encoding === 'zstd'
          ? zstdDecompressSync(answer.body)
          : answer.body;
  return { ms, sent: answer.body.length, encoding, plain };
}

const gzipped = (bytes: Buffer | string) => gzipSync(bytes, { level: GZIP_LEVEL }).length;
const zstded = (bytes: Buffer) =>
  zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } }).length;
const mb = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;

/** Both time budgets are the reference machine's, scaled by `speed` (node:http's rate). */
export async function visitorTickets(env: NodeJS.ProcessEnv, speed: Speed): Promise<Figure[]> {
  const secret = env.SESSION_SECRET;
  if (!secret) throw new Error('the api environment names no SESSION_SECRET');
  const { year, before } = await withDatabase(
    async (db) =>
      (
        await db.query<{ year: number; before: unknown }>(
          `select year, visitor_tickets as before from edition where id = ${CURRENT}`,
        )
      ).rows[0]!,
  );
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  try {
    const confirmed = await confirmAll(secret, admin, year);
    await removeTickets();

    await issueListTickets(admin, year);
    const quiet = await untilQuiet();
    const cookie = await adminCookie();
    await download(cookie, BROWSER_ENCODINGS);
    const browser: Download[] = [];
    const identity: Download[] = [];
    for (let run = 0; run < DOWNLOADS; run++) {
      browser.push(await download(cookie, BROWSER_ENCODINGS));
      identity.push(await download(cookie, 'identity'));
    }
    const last = browser.at(-1)!;
    const list = JSON.parse(last.plain.toString('utf8')) as GateList;
    if (!list.tickets) throw new Error('the gate list holds no visitor tickets');
    const tickets = JSON.parse(list.tickets.data) as GateTicketsData;
    if (tickets.entries.length < LIST_TICKETS) {
      throw new Error(`the gate list holds ${tickets.entries.length} tickets, expected ${LIST_TICKETS}`);
    }
    const plainBytes = identity.at(-1)!.plain.length;
    const gzipBytes = gzipped(last.plain);
    const zstdBytes = zstded(last.plain);
    // As a browser receives it: compressed by the api where it did, else by Caddy's gzip (any browser).
    const compressed = last.encoding ? last.sent : gzipBytes;
    const ticketsPart = JSON.stringify(list.tickets);
    const ms = (downloads: Download[]) => downloads.map((d) => d.ms);
    const runs = (downloads: Download[]) =>
      ms(downloads)
        .map((t) => t.toFixed(0))
        .join(', ');

    const { latencies, counts } = confirmed;
    const failures = [...confirmed.failed.values()].reduce((sum, n) => sum + n, 0);
    const settled =
      confirmed.settledS === null
        ? `allocation jobs and mails still pending after ${SETTLE_MS / 1000} s`
        : `allocation jobs and their ${counts.confirmed} mails done after ${confirmed.settledS.toFixed(1)} s`;
    return [
      inReferenceUnits(
        {
          name: 'r15.visitor_confirm.p99',
          value: percentile(latencies, 99),
          unit: 'ms',
          budget: { op: '<=', limit: CONFIRM_P99_BUDGET_MS },
          reference: `p50 ${percentile(latencies, 50).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; POST /api/visitor-registrations/confirm, ${CONFIRMATIONS} sign-ups for ${CAPACITY} places, ${CONNECTIONS} conn each sending one after another`,
        },
        speed,
      ),
      {
        name: 'r15.visitor_confirm.failed',
        value: failures,
        unit: 'req',
        digits: 0,
        budget: { op: '<=', limit: 0 },
        reference: failures
          ? [...confirmed.failed].map(([answer, n]) => `${n} × ${answer}`).join('; ')
          : `all ${CONFIRMATIONS} answered 200`,
      },
      {
        name: 'r15.visitor_confirm.rps',
        value: CONFIRMATIONS / confirmed.seconds,
        unit: 'req/s',
        reference: `${CONFIRMATIONS} confirmations in ${confirmed.seconds.toFixed(1)} s`,
      },
      {
        name: 'r15.visitor_tickets.allocated',
        value: confirmed.allocatedS,
        unit: 's',
        reference: `from the first confirmation sent until all ${counts.confirmed} confirmed had a ticket or a place on the waiting list (the worker's 'visitor-tickets.allocate' jobs; polled every ${POLL_MS} ms once the confirmations were answered); ${settled}`,
      },
      {
        name: 'r15.visitor_tickets.issued',
        value: counts.issued,
        unit: 'tickets',
        digits: 0,
        budget: { op: '<=', limit: CAPACITY },
        reference: `capacity ${CAPACITY}; ${counts.waiting} waiting; ${counts.inOrder ? 'the first confirmed hold the tickets' : 'NOT in the order of confirmation'}`,
      },
      { name: 'r15.visitor_tickets.waiting', value: counts.waiting, unit: 'tickets', digits: 0 },
      inReferenceUnits(
        {
          name: 'r15.gate_list.seconds',
          value: median(ms(browser)) / 1000,
          unit: 's',
          budget: { op: '<=', limit: LIST_BUDGET_S },
          reference: `GET /api/admin/check-in/list as an admin, accept-encoding ${BROWSER_ENCODINGS}, median of ${DOWNLOADS} (${runs(browser)} ms), answered ${last.encoding ?? 'uncompressed'}; ${tickets.entries.length} visitor tickets and ${list.entries.length} cars; started when the cores were ${(quiet.share * 100).toFixed(0)} % busy (after ${quiet.waitedS.toFixed(0)} s)`,
        },
        speed,
      ),
      {
        name: 'r15.gate_list.seconds_identity',
        value: median(ms(identity)) / 1000,
        unit: 's',
        reference: `the same with accept-encoding identity: ${runs(identity)} ms`,
      },
      {
        name: 'r15.gate_list.compressed',
        value: compressed / MB,
        unit: 'MB',
        budget: { op: '<=', limit: COMPRESSED_BUDGET_MB },
        reference: `${last.encoding ? `sent ${last.encoding} by the api` : `sent plain by the api; gzip -${GZIP_LEVEL} as Caddy's encode sends it to any browser`}; zstd -${ZSTD_LEVEL} (Caddy's first choice) ${mb(zstdBytes)}, gzip -${GZIP_LEVEL} ${mb(gzipBytes)}`,
      },
      {
        name: 'r15.gate_list.body',
        value: plainBytes / MB,
        unit: 'MB',
        reference: `uncompressed; the tickets' part ${mb(Buffer.byteLength(ticketsPart))} (gzip -${GZIP_LEVEL} ${mb(gzipped(ticketsPart))}), ${(Buffer.byteLength(ticketsPart) / tickets.entries.length).toFixed(0)} bytes per ticket`,
      },
    ];
  } finally {
    await removeTickets();
    await withDatabase((db) =>
      db.query(`update edition set visitor_tickets = $1 where id = ${CURRENT}`, [
        before === null ? null : JSON.stringify(before),
      ]),
    );
  }
}
