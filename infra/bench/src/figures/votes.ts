/**
 * R12: votes for the visitors' award. The current edition's voting opened and VOTERS confirmed
 * voters written to the database, each with the signed voter cookie the api sets on confirmation;
 * every request is the next voter's vote for a confirmed car (POST /api/award/{year}/votes), each
 * voter's first three going to three different cars, later ones repeating them (answered 201 as
 * well). Votes at 50 connections: votes per second and p99. Then the landing page (anonymous GET /
 * with a browser's headers, 10 connections), alone and while the votes arrive. About 15 s in all;
 * figures only, no budget. The edition's voting is removed again afterwards.
 */
import { createHmac } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import { createAwardToken } from '@schlosstreffen/api/core';
import type { AwardMe } from '@schlosstreffen/shared/api';
import { BROWSER_HEADERS } from '../browser.js';
import { load, type LoadResult } from '../load.js';
import { withDatabase } from '../seed.js';
import { API_URL, PUBLIC_URL } from '../settings.js';
import type { Figure } from '../stats.js';

const VOTERS = 8_000;
const VOTES = { connections: 50, durationS: 4, warmupS: 2 } as const;
const LANDING = { connections: 10, durationS: 3, warmupS: 1 } as const;
/** The votes beside the landing page run this long: from before its warm-up to after its end. */
const BESIDE_S = LANDING.warmupS + LANDING.durationS + 1;

const CURRENT = `(select id from edition order by current_from desc nulls last, year desc limit 1)`;

/** A cookie's signature as koa's cookies write it (keygrip: HMAC-SHA1, URL-safe base64 without padding). */
function cookieSignature(secret: string, pair: string): string {
  return createHmac('sha1', secret)
    .update(pair)
    .digest('base64')
    .replace(/\//g, '_')
    .replace(/\+/g, '-')
    .replace(/=+$/, '');
}

/** The voting opened, VOTERS confirmed voters and their cookies, the confirmed cars' start numbers. */
async function prepare(secret: string): Promise<{ year: number; cookies: string[]; cars: number[] }> {
  return withDatabase(async (db) => {
    const year = (await db.query<{ year: number }>(`select year from edition where id = ${CURRENT}`)).rows[0]!
      .year;
    await db.query(
      `insert into award (edition_id, opened_at, created_at) values (${CURRENT}, now(), now())
       on conflict (edition_id) do update set opened_at = now(), closed_at = null, results = null`,
    );
    const voters = await db.query<{ id: string }>(
      `insert into award_voter (id, edition_id, mailbox, confirmed_at, confirmed_via, network, created_at)
       select gen_random_uuid(), ${CURRENT}, 'bench-voter-' || g || '@bench.test', now(), 'link', '127.0.0.1', now()
       from generate_series(1, $1) g
       returning id`,
      [VOTERS],
    );
    // Fresh statistics for the planner, as a table grown over days would have.
    await db.query('analyze award_voter, award_vote');
    const cars = (
      await db.query<{ start_number: number }>(
        `select i.start_number from invitation i join vehicle v on v.id = i.vehicle_id
         where i.edition_id = ${CURRENT} and v.status = 'confirmed' and i.start_number is not null
         order by i.start_number`,
      )
    ).rows.map((row) => row.start_number);
    const cookies = voters.rows.map(({ id }) => {
      const pair = `st_voter=${createAwardToken(secret, id, 'voter')}`;
      return `${pair}; st_voter.sig=${cookieSignature(secret, pair)}`;
    });
    return { year, cookies, cars };
  });
}

async function removeVoting(): Promise<void> {
  await withDatabase(async (db) => {
    for (const table of ['award_vote', 'award_voter', 'award'])
      await db.query(`delete from ${table} where edition_id = ${CURRENT}`);
  });
}

function checked(what: string, result: Result): Result {
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${what}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  return result;
}

export async function votes(env: NodeJS.ProcessEnv): Promise<Figure[]> {
  const secret = env.SESSION_SECRET;
  if (!secret) throw new Error('the api environment names no SESSION_SECRET');
  try {
    const { year, cookies, cars } = await prepare(secret);
    if (cars.length < 3) throw new Error(`the current edition has ${cars.length} confirmed cars, 3 needed`);
    const check = await fetch(`${API_URL}/api/award/${year}/me`, { headers: { cookie: cookies[0]! } });
    const me = (await check.json()) as AwardMe;
    if (me.state !== 'open' || !me.confirmed)
      throw new Error(`the voting is ${me.state}, the voter ${me.confirmed ? '' : 'not '}confirmed`);

    let next = 0;
    const voting = (durationS: number) =>
      autocannon({
        url: `${API_URL}/api/award/${year}/votes`,
        method: 'POST',
        connections: VOTES.connections,
        duration: durationS,
        timeout: 30,
        headers: { origin: PUBLIC_URL, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const k = next++;
              const voter = k % VOTERS;
              const round = Math.floor(k / VOTERS) % 3;
              const startNumber = cars[(voter + round) % cars.length]!;
              return {
                ...request,
                headers: { ...request.headers, cookie: cookies[voter]! },
                body: JSON.stringify({ startNumber }),
              };
            },
          },
        ],
      });
    checked('votes (warm-up)', await voting(VOTES.warmupS));
    const alone = checked('votes', await voting(VOTES.durationS));
    const landing = () => load({ url: `${API_URL}/`, headers: BROWSER_HEADERS }, LANDING);
    const quiet: LoadResult = await landing();
    const beside = voting(BESIDE_S);
    let underVotes: LoadResult;
    try {
      underVotes = await landing();
    } finally {
      checked('votes beside the landing page', await beside);
    }
    const besideResult = await beside;
    const counted = await withDatabase(
      async (db) =>
        (await db.query<{ n: string }>(`select count(*) n from award_vote where edition_id = ${CURRENT}`))
          .rows[0]!.n,
    );
    const run = `${VOTES.connections} conn, ${VOTES.durationS} s after ${VOTES.warmupS} s warm-up`;
    return [
      {
        name: 'r12.votes.rps',
        value: alone.requests.average,
        unit: 'req/s',
        reference: `POST /api/award/{year}/votes, ${run}; ${alone.requests.total} votes of ${VOTERS} confirmed voters for ${cars.length} cars (${counted} votes stored after all phases)`,
      },
      {
        name: 'r12.votes.p99',
        value: alone.latency.p99,
        unit: 'ms',
        reference: `p50 ${alone.latency.p50} ms, max ${alone.latency.max} ms`,
      },
      {
        name: 'r12.votes.landing_quiet_p99',
        value: quiet.p99Ms,
        unit: 'ms',
        reference: `GET / ${LANDING.connections} conn, ${LANDING.durationS} s: ${quiet.rps.toFixed(0)} req/s, p50 ${quiet.p50Ms} ms`,
      },
      {
        name: 'r12.votes.landing_p99',
        value: underVotes.p99Ms,
        unit: 'ms',
        reference: `GET / ${LANDING.connections} conn while ${VOTES.connections} conn vote (${besideResult.requests.average.toFixed(0)} votes/s, p99 ${besideResult.latency.p99} ms): ${underVotes.rps.toFixed(0)} req/s, p50 ${underVotes.p50Ms} ms`,
      },
      { name: 'r12.votes.landing_rps', value: underVotes.rps, unit: 'req/s' },
    ];
  } finally {
    await removeVoting();
  }
}
