/**
 * The fault scenarios. Each runs traffic, injects its fault, waits until the deployment has done
 * all its work, and checks the invariants; it returns one line of figures.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Client, Tally } from './client.js';
import { REDIS_URL, type Deployment, type Proc } from './deployment.js';
import { checkExports, checkMails, standardChecks, type Check } from './invariants.js';
import {
  confirm,
  createAdmin,
  createApplicant,
  inParallel,
  PASSWORD,
  setStatus,
  stagePhoto,
  uploadPhoto,
  type Applicant,
} from './workload.js';
import { MESSAGES } from '@schlosstreffen/shared';

const exec = promisify(execFile);

export const ZONES = { A: 40, B: 40, C: 40 };
export const PARKING_ZONES = Object.entries(ZONES)
  .map(([zone, capacity]) => `${zone}:${capacity}`)
  .join(',');

export interface ScenarioResult {
  name: string;
  figures: string;
  checks: Check[];
}

/** The main deployment's people, shared by the scenarios that follow each other. */
export interface World {
  admin: Client;
  applicants: Applicant[];
  tally: Tally;
  /** SIGKILLs of workers so far, by the jobs they were running. */
  kills: { total: number; byJob: Record<string, number> };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Restarts a killed process after a short pause, as a process manager would. */
async function killAndRestart(proc: Proc, pauseMs = 200): Promise<void> {
  await proc.kill('SIGKILL');
  await sleep(pauseMs);
  await proc.start();
}

// 1. Two deployments on one Redis.

export async function deploymentsApart(a: Deployment, b: Deployment): Promise<ScenarioResult> {
  const counts: string[] = [];
  const checks: Check[] = [];
  for (const deployment of [a, b]) {
    const tally = new Tally();
    const admin = await createAdmin(deployment, tally);
    const applicants: Applicant[] = [];
    for (let i = 0; i < 6; i++) applicants.push(await createApplicant(deployment, tally, i));
    for (const applicant of applicants) {
      await setStatus(admin, applicant.vehicleId, 'submitted', 'in_review');
      await setStatus(admin, applicant.vehicleId, 'in_review', 'invited');
    }
    counts.push(`${deployment.name} (${deployment.redisPrefix})`);
  }
  for (const deployment of [a, b]) {
    await deployment.drain();
    const mails = await checkMails(deployment);
    checks.push({ ...mails, name: `${deployment.name}: only its own mails` });
    counts.push(`${deployment.name} ${mails.mails} mails`);
  }
  return {
    name: 'two deployments on one Redis',
    figures: `${counts.slice(0, 2).join(' and ')}, 6 applications and 6 invitations each; ${counts.slice(2).join(', ')}`,
    checks,
  };
}

// 2. Workers killed in the middle of their jobs.

/** Kills the worker running a job (preferring kinds with fewer kills) every `everyMs` while `running()`. */
async function killWorkersWhile(
  deployment: Deployment,
  world: World,
  running: () => boolean,
  options: { everyMs: number; want?: (name: string) => boolean },
): Promise<void> {
  let lastKill = 0;
  // Killed workers start again in the background, as a process manager would, while the other
  // worker goes on (and may be the next victim).
  const restarts: Promise<void>[] = [];
  const starting = new Set<Proc>();
  while (running()) {
    // Jobs are short: look often, but leave the restarted worker `everyMs` to pick up work.
    await sleep(Date.now() - lastKill < options.everyMs ? options.everyMs - (Date.now() - lastKill) : 25);
    // Jobs of a killed worker stay active until they are found stalled: only live workers count.
    const live = new Set(deployment.workers.map((worker) => worker.pid).filter(Boolean));
    const active = (await deployment.activeJobs().catch(() => [])).filter(
      (job) => live.has(job.pid) && (!options.want || options.want(job.name)),
    );
    if (!active.length) continue;
    active.sort((x, y) => (world.kills.byJob[kind(x.name)] ?? 0) - (world.kills.byJob[kind(y.name)] ?? 0));
    const target = active.find((job) =>
      deployment.workers.some((worker) => worker.pid === job.pid && !starting.has(worker)),
    );
    const victim = target && deployment.workers.find((worker) => worker.pid === target.pid);
    if (!victim) continue;
    for (const job of active.filter((job) => job.pid === victim.pid)) {
      world.kills.byJob[kind(job.name)] = (world.kills.byJob[kind(job.name)] ?? 0) + 1;
    }
    world.kills.total += 1;
    await victim.kill('SIGKILL');
    lastKill = Date.now();
    starting.add(victim);
    restarts.push(
      sleep(200)
        .then(() => victim.start())
        .finally(() => starting.delete(victim)),
    );
  }
  await Promise.all(restarts);
}

const kind = (jobName: string) =>
  ({
    'email.send': 'email',
    'invitation.issue': 'invitation',
    'media.thumbnail': 'thumbnail',
    'quartett.export': 'export',
  })[jobName] ?? jobName;

const killFigures = (world: World) =>
  `${world.kills.total} worker SIGKILLs so far (jobs running at the kill: ${Object.entries(world.kills.byJob)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')})`;

export async function workerKills(
  deployment: Deployment,
  world: World,
  targetKills: number,
): Promise<ScenarioResult> {
  const started = Date.now();
  let working = true;
  const killer = killWorkersWhile(deployment, world, () => working || world.kills.total < targetKills, {
    everyMs: 500,
  });
  let statusChanges = 0;
  try {
    // 80 applications with a photo each: mails and thumbnails.
    const created: Applicant[] = [];
    await inParallel(
      Array.from({ length: 80 }, (_, i) => i),
      6,
      async (i) => {
        created.push(await createApplicant(deployment, world.tally, i, { photo: true }));
      },
    );
    world.applicants.push(...created);
    // 72 invited (invitation job and mail) and confirmed (mail), 8 rejected (mail).
    await inParallel(created, 6, async (applicant, i) => {
      await setStatus(world.admin, applicant.vehicleId, 'submitted', 'in_review');
      if (i < 72) {
        await setStatus(world.admin, applicant.vehicleId, 'in_review', 'invited');
        await confirm(applicant);
        statusChanges += 3;
      } else {
        await setStatus(world.admin, applicant.vehicleId, 'in_review', 'rejected');
        statusChanges += 2;
      }
    });
    // Keep mails flowing until enough kills: late applications, each with its receipt mail.
    let extra = 0;
    while (world.kills.total < targetKills && Date.now() - started < 10 * 60_000) {
      await inParallel(
        Array.from({ length: 6 }, (_, i) => i),
        6,
        async (i) => {
          world.applicants.push(
            await createApplicant(deployment, world.tally, 100 + extra * 6 + i, { photo: i % 2 === 0 }),
          );
        },
      );
      extra += 1;
      // Leave the cores to the workers' restarts.
      await sleep(300);
    }
  } finally {
    working = false;
    await killer;
  }
  const drainMs = await deployment.drain();
  return {
    name: 'workers killed in the middle of jobs',
    figures: `${killFigures(world)}; ${world.applicants.length} applications, ${statusChanges} status changes; all work done ${seconds(drainMs)} after the last kill`,
    checks: await standardChecks(deployment, world.tally, ZONES),
  };
}

// 2. Two apis and two workers behave as one.

/**
 * Sessions, rate limits, the public list, invitations and exports across two apis and two workers:
 * a session made on one api works on the other; failed logins for one account alternating between
 * the apis meet the same per-account backoff as on one; a confirmed car is in the other api's public
 * list on its first request; simultaneous invitations handled by both workers get unique start
 * numbers; three exports requested at once run one after the other.
 */
export async function scaleAsOne(deployment: Deployment, world: World): Promise<ScenarioResult> {
  const checks: Check[] = [];
  const ownerOf = await createApplicant(deployment, world.tally, 900);

  // Sessions: signed in on api 1, recognised by api 2.
  const session = new Client(deployment, world.tally, 0);
  await session.expect('POST', '/api/auth/login', { email: ownerOf.email, password: PASSWORD }, 200);
  const elsewhere = await session.pin(1).request('GET', '/api/auth/user');
  checks.push({
    name: 'a session is valid on both apis',
    ok: elsewhere.status === 200 && elsewhere.data.email === ownerOf.email,
    detail: `signed in on api 1, api 2 answered ${elsewhere.status}`,
  });

  // Rate limits: wrong passwords for one account, alternating between the apis.
  const guesser = new Client(deployment, world.tally);
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= 12; attempt++) {
    const res = await guesser
      .pin(attempt % 2)
      .request('POST', '/api/auth/login', { email: ownerOf.email, password: `falsch-${attempt}` });
    statuses.push(res.status);
    if (res.status === 429) break;
  }
  const first429 = statuses.indexOf(429) + 1;
  checks.push({
    name: 'login limits shared by both apis',
    // On one api the seventh wrong password of an account is refused (api/src/http/brute-force.test.ts).
    ok: first429 === 7,
    detail: `first 429 at attempt ${first429 || 'never'} with the attempts alternating between the apis`,
  });

  // Invitations at once, on both apis and both workers.
  const invitees: Applicant[] = [];
  await inParallel(
    Array.from({ length: 12 }, (_, i) => i),
    6,
    async (i) => {
      invitees.push(await createApplicant(deployment, world.tally, 910 + i));
    },
  );
  // Not added to world.applicants: the later scenarios pick theirs by position.
  await inParallel(invitees, 12, (applicant) =>
    setStatus(world.admin, applicant.vehicleId, 'submitted', 'in_review'),
  );
  await inParallel(invitees, 12, (applicant) =>
    setStatus(world.admin, applicant.vehicleId, 'in_review', 'invited'),
  );
  await deployment.drain();
  const issuedBy = new Map<string, number>();
  for (const job of await deployment.queues.invitation.getJobs(['completed'])) {
    const worker = /worker-\d+/.exec(job.processedBy ?? '')?.[0] ?? 'unknown';
    issuedBy.set(worker, (issuedBy.get(worker) ?? 0) + 1);
  }
  checks.push({
    name: 'simultaneous invitations on both workers',
    ok: issuedBy.size >= 2,
    detail: `invitation jobs by worker: ${[...issuedBy].map(([worker, n]) => `${worker} ${n}`).join(', ')}`,
  });

  // The public list: confirmed through api 1, read at once from api 2.
  const confirmer = invitees[0]!;
  const reader = new Client(deployment, world.tally, 1);
  await reader.expect('GET', '/api/vehicles/public', undefined, 200);
  confirmer.client.pin(0);
  await confirm(confirmer);
  const confirmedAt = Date.now();
  let reads = 0;
  let visible = false;
  while (!visible && Date.now() - confirmedAt < 5000) {
    reads += 1;
    const list = await reader.expect('GET', '/api/vehicles/public', undefined, 200);
    visible = JSON.stringify(list).includes(confirmer.vehicleId);
  }
  checks.push({
    name: 'the public list consistent on both apis',
    ok: visible && reads === 1,
    detail: visible
      ? `the confirmed car was in api 2's list on read ${reads}, ${Date.now() - confirmedAt} ms after the change`
      : `not in api 2's list after ${reads} reads`,
  });

  // Exports: three requested at once, never two running together.
  const sets = await Promise.all(
    [1, 2, 3].map((n) =>
      world.admin.persist('POST', '/api/admin/quartett-sets', { title: `Gleichzeitig ${n}` }, 201),
    ),
  );
  let most = 0;
  for (;;) {
    const running = (await deployment.activeJobs()).filter((job) => job.name === 'quartett.export');
    most = Math.max(most, running.length);
    const pending = await deployment.pendingWork();
    if (pending.jobs === 0 && pending.outbox === 0) break;
    await sleep(50);
  }
  const states = await deployment.query<{ status: string }>(
    'select status from quartett_set where id = any($1::uuid[])',
    [sets.map((set) => set.id)],
  );
  checks.push({
    name: 'one quartett export at a time across workers',
    ok: most === 1 && states.every((row) => row.status === 'ready'),
    detail: `at most ${most} running at once; ${states.map((row) => row.status).join(', ')}`,
  });
  checks.push(...(await standardChecks(deployment, world.tally, ZONES)));
  return {
    name: 'two apis and two workers as one',
    figures: `${invitees.length} invitations at once, 3 exports at once, ${statuses.length} wrong passwords across both apis`,
    checks,
  };
}

// 3. The quartett export with its worker killed.

export async function exportKilled(
  deployment: Deployment,
  world: World,
  kills: number,
): Promise<ScenarioResult> {
  const started = Date.now();
  const set = await world.admin.persist(
    'POST',
    '/api/admin/quartett-sets',
    { title: 'Schlosstreffen im Fehlerfall' },
    201,
  );
  let killed = 0;
  const deadline = Date.now() + 5 * 60_000;
  while (killed < kills && Date.now() < deadline) {
    const job = (await deployment.activeJobs()).find(
      (active) => active.name === 'quartett.export' && active.pid,
    );
    const progress = typeof job?.progress === 'number' ? job.progress : 0;
    const victim = job && deployment.workers.find((worker) => worker.pid === job.pid);
    if (victim && progress >= 10) {
      world.kills.byJob.export = (world.kills.byJob.export ?? 0) + 1;
      world.kills.total += 1;
      killed += 1;
      await killAndRestart(victim);
    }
    await sleep(100);
  }
  const drainMs = await deployment.drain();
  const [row] = await deployment.query<{ status: string; card_count: number; version: number }>(
    'select status, card_count, version from quartett_set where id = $1',
    [set.id],
  );
  const exports = await checkExports(deployment);
  return {
    name: 'quartett export with its worker killed',
    figures: `set v${row?.version} of ${row?.card_count} cards: worker killed ${killed}× while rendering, set ${row?.status} after ${seconds(Date.now() - started)} (last ${seconds(drainMs)} waiting for the retry)`,
    checks: [
      {
        name: 'export of 70+ cards ready',
        ok: row?.status === 'ready' && (row?.card_count ?? 0) >= 70 && killed === kills,
        detail: `status ${row?.status}, ${row?.card_count} cards, ${killed} kills`,
      },
      exports,
    ],
  };
}

// 4. An api killed right after a status change committed.

export async function apiKilledAfterCommit(
  deployment: Deployment,
  world: World,
  rounds: number,
): Promise<ScenarioResult> {
  const api = deployment.apis[0]!;
  const pinned = new Client(deployment, world.tally, 0);
  await pinned.persist(
    'POST',
    '/api/auth/login',
    { email: await adminEmail(deployment), password: PASSWORD },
    200,
  );
  const applicants = world.applicants.filter((_, i) => i >= 72 && i < 80);
  let leftBehind = 0;
  for (let round = 0; round < rounds; round++) {
    const applicant = applicants[round % applicants.length]!;
    const current = (await world.admin.persist('GET', `/api/vehicles/${applicant.vehicleId}`, undefined, 200))
      .status;
    const next = current === 'waitlist' ? 'in_review' : 'waitlist';
    const res = await pinned.request('PATCH', `/api/admin/vehicles/${applicant.vehicleId}/status`, {
      status: next,
      oldStatus: current,
    });
    await api.kill('SIGKILL');
    if (res.status !== 200) throw new Error(`status change before the kill answered ${res.status}`);
    const [row] = await deployment.query<{ n: string }>(
      'select count(*) as n from outbox where published_at is null',
    );
    leftBehind += Number(row?.n ?? 0);
    await api.start();
    // The new process signs in anew: sessions live in the database, the cookie still works.
  }
  const drainMs = await deployment.drain();
  return {
    name: 'api killed right after a commit',
    figures: `${rounds} status changes, the api SIGKILLed as each answer arrived; ${leftBehind} outbox rows were still unrelayed at a kill, all relayed ${seconds(drainMs)} later`,
    checks: await standardChecks(deployment, world.tally, ZONES),
  };
}

async function adminEmail(deployment: Deployment): Promise<string> {
  const [row] = await deployment.query<{ email: string }>(
    `select email from users where role = 'admin' order by created_at limit 1`,
  );
  return row!.email;
}

// 5 and 6. PostgreSQL or Redis restarted during traffic.

/** Mixed requests on both apis until `stop()`: public list, own vehicles, logins, status changes. */
function traffic(deployment: Deployment, world: World, tally: Tally): { stop: () => Promise<void> } {
  let running = true;
  const loops = [
    (async () => {
      const anonymous = new Client(deployment, tally);
      while (running) {
        await anonymous.request('GET', '/api/vehicles/public');
        await sleep(20);
      }
    })(),
    (async () => {
      let i = 0;
      while (running) {
        const applicant = world.applicants[i++ % world.applicants.length]!;
        await applicant.client.request('GET', '/api/vehicles');
        await sleep(20);
      }
    })(),
    (async () => {
      let i = 0;
      while (running) {
        const applicant = world.applicants[i++ % world.applicants.length]!;
        const client = new Client(deployment, tally);
        await client.request('POST', '/api/auth/login', { email: applicant.email, password: PASSWORD });
        await sleep(100);
      }
    })(),
    (async () => {
      const flipping = world.applicants.filter((_, i) => i >= 72 && i < 80);
      const admin = new Client(deployment, tally);
      await admin.persist(
        'POST',
        '/api/auth/login',
        { email: await adminEmail(deployment), password: PASSWORD },
        200,
      );
      let i = 0;
      while (running) {
        const applicant = flipping[i++ % flipping.length]!;
        const current = await admin.request('GET', `/api/vehicles/${applicant.vehicleId}`);
        if (current.status === 200) {
          const next = current.data.status === 'waitlist' ? 'in_review' : 'waitlist';
          await admin.request('PATCH', `/api/admin/vehicles/${applicant.vehicleId}/status`, {
            status: next,
            oldStatus: current.data.status,
          });
        }
        await sleep(150);
      }
    })(),
  ];
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Waits until every api answers /readyz with 200; the time it took. */
async function allReady(deployment: Deployment, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const states = await Promise.all(
      deployment.apis.map((api) =>
        fetch(`${api.url}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
          (response) => response.ok,
          () => false,
        ),
      ),
    );
    if (states.every(Boolean)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error('apis not ready again');
    await sleep(100);
  }
}

function noServerErrors(tally: Tally, deployment: Deployment): Check {
  const errors = tally.count((outcome) => typeof outcome === 'number' && outcome >= 500 && outcome !== 503);
  // The apis' error log says what answered 500.
  const logged = deployment.apis
    .map((api) =>
      api.stderr
        .split('\n')
        .filter((line) => line.trim() && !/^503 /.test(line) && !/^\[ioredis\]/.test(line))
        // What the background loops say while the database restarts (they retry by themselves).
        .filter((line) => !/^(public list|outbox relay|scheduler)/.test(line) && !/^ {2}\w+: /.test(line))
        .filter((line) => !/"msg":"(outbox relay failed|pruning expired sessions failed)"/.test(line))
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n')
    .slice(0, 4000);
  return {
    name: '503 while away, never 500',
    ok: errors === 0,
    detail: `${tally.count((outcome) => outcome === 503)} × 503, ${errors} other 5xx${errors ? ` (${tally.serverErrors.join(', ')})` : ''}${errors && logged ? `\n${logged}` : ''}`,
  };
}

async function restartDuringTraffic(
  deployment: Deployment,
  world: World,
  name: string,
  restart: () => Promise<void>,
): Promise<ScenarioResult> {
  // Run on its own (FAULTS_ONLY), the scenario makes the applicants that scenario 3 would have.
  if (world.applicants.length < 80) {
    const missing = Array.from({ length: 80 - world.applicants.length }, (_, i) => 500 + i);
    await inParallel(missing, 6, async (index) => {
      world.applicants.push(await createApplicant(deployment, world.tally, index));
    });
  }
  const tally = new Tally();
  const load = traffic(deployment, world, tally);
  await sleep(5000);
  const down = Date.now();
  await restart();
  const restartMs = Date.now() - down;
  const readyMs = await allReady(deployment);
  await sleep(5000);
  await load.stop();
  const drainMs = await deployment.drain();
  return {
    name,
    figures: `restart took ${seconds(restartMs)}, apis ready ${seconds(readyMs)} later; traffic ${tally.total} requests (${tally.toString()}), all work done ${seconds(drainMs)} after`,
    checks: [noServerErrors(tally, deployment), ...(await standardChecks(deployment, tally, ZONES))],
  };
}

export function postgresRestart(deployment: Deployment, world: World): Promise<ScenarioResult> {
  const command =
    process.env.FAULTS_PG_RESTART ??
    'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -n 1) main restart';
  return restartDuringTraffic(deployment, world, 'PostgreSQL restarted during traffic', async () => {
    await exec('sh', ['-c', command]);
  });
}

/**
 * Restarts the local Redis with append-only persistence on (as production must run it), then
 * restores the setting it had.
 */
export async function redisRestart(deployment: Deployment, world: World): Promise<ScenarioResult> {
  const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  await admin.connect();
  const setting = async (name: string) => ((await admin.config('GET', name)) as string[])[1] ?? '';
  const original = {
    port: await setting('port'),
    bind: await setting('bind'),
    dir: await setting('dir'),
    logfile: await setting('logfile'),
    appendonly: await setting('appendonly'),
    save: await setting('save'),
  };
  await admin.config('SET', 'appendonly', 'yes');
  for (let i = 0; i < 100; i++) {
    const info = await admin.info('persistence');
    if (/aof_enabled:1/.test(info) && /aof_rewrite_in_progress:0/.test(info)) break;
    await sleep(100);
  }
  admin.disconnect();
  try {
    return await restartDuringTraffic(
      deployment,
      world,
      'Redis restarted during traffic (append-only file on)',
      async () => {
        const shutdown = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
        await shutdown.connect();
        await shutdown.call('SHUTDOWN').catch(() => undefined);
        shutdown.disconnect();
        await sleep(1000);
        const args = [
          '--daemonize',
          'yes',
          '--port',
          original.port,
          '--bind',
          ...original.bind.split(' '),
          '--dir',
          original.dir,
          '--save',
          original.save,
          '--appendonly',
          'yes',
          ...(original.logfile ? ['--logfile', original.logfile] : []),
        ];
        await exec('redis-server', args);
        await waitForRedis();
      },
    );
  } finally {
    const restore = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    await restore.connect();
    await restore.config('SET', 'appendonly', original.appendonly);
    restore.disconnect();
  }
}

async function waitForRedis(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(REDIS_URL, {
      maxRetriesPerRequest: 1,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    const ok = await probe.connect().then(
      () => probe.ping(),
      () => undefined,
    );
    probe.disconnect();
    if (ok === 'PONG') return;
    await sleep(100);
  }
  throw new Error('Redis did not come back');
}

// 7. S3 away for 30 s.

export async function storageAway(deployment: Deployment, world: World): Promise<ScenarioResult> {
  const tally = new Tally();
  // Ten images attached just before: their renditions are due while S3 is away.
  const before: Applicant[] = [];
  for (let i = 0; i < 10; i++)
    before.push(await createApplicant(deployment, tally, 200 + i, { photo: true }));
  // Five photos in the bucket, to be attached while it is away.
  const staged: Array<{ applicant: Applicant; objectPath: string }> = [];
  for (let i = 0; i < 5; i++) {
    const applicant = await createApplicant(deployment, tally, 250 + i);
    staged.push({ applicant, objectPath: await stagePhoto(applicant, i) });
  }
  await deployment.s3Proxy.down();
  const away = Date.now();
  const refused: string[] = [];
  for (const { applicant, objectPath } of staged) {
    const res = await applicant.client.request('POST', `/api/vehicles/${applicant.vehicleId}/media`, {
      url: objectPath,
    });
    refused.push(`${res.status} ${res.data.message ?? ''}`);
  }
  // Uploads during the outage: refused clearly, and done once S3 is back.
  const during = inParallel(
    Array.from({ length: 5 }, (_, i) => i),
    5,
    async (i) => {
      const applicant = await createApplicant(deployment, tally, 300 + i);
      await uploadPhoto(applicant, i, 180_000);
      world.applicants.push(applicant);
    },
  );
  await sleep(30_000);
  await deployment.s3Proxy.up();
  const outageMs = Date.now() - away;
  await during;
  for (const { applicant, objectPath } of staged) {
    await applicant.client.persist(
      'POST',
      `/api/vehicles/${applicant.vehicleId}/media`,
      { url: objectPath },
      201,
    );
  }
  world.applicants.push(...before, ...staged.map(({ applicant }) => applicant));
  const drainMs = await deployment.drain();
  const clear = refused.filter((answer) => answer === `503 ${MESSAGES.storageUnavailable}`).length;
  return {
    name: 'S3 away for 30 s',
    figures: `away ${seconds(outageMs)}: 10 images attached just before, 5 attached during, 5 uploads tried during (their PUT to S3 failed; retried and done after its return); all renditions done ${seconds(drainMs)} after its return`,
    checks: [
      {
        name: 'attaching while S3 is away: 503 with a German message',
        ok: clear === staged.length,
        detail: `${clear} of ${staged.length} answered 503 "${MESSAGES.storageUnavailable}"; ${refused.filter((answer) => !answer.startsWith('503 ')).join('; ') || 'no other answer'}; attached once it was back`,
      },
      noServerErrors(tally, deployment),
      ...(await standardChecks(deployment, tally, ZONES)),
    ],
  };
}

// 8. The mail server away for 30 s.

export async function smtpAway(deployment: Deployment, world: World): Promise<ScenarioResult> {
  const tally = new Tally();
  await deployment.smtpProxy.down();
  const away = Date.now();
  const applicants: Applicant[] = [];
  for (let i = 0; i < 10; i++) applicants.push(await createApplicant(deployment, tally, 400 + i));
  for (const applicant of applicants.slice(0, 5)) {
    await setStatus(world.admin, applicant.vehicleId, 'submitted', 'in_review');
    await setStatus(world.admin, applicant.vehicleId, 'in_review', 'waitlist');
  }
  world.applicants.push(...applicants);
  await sleep(Math.max(0, 30_000 - (Date.now() - away)));
  const [pending] = await deployment.query<{ n: string }>(
    `select count(*) as n from email_log where status <> 'sent'`,
  );
  await deployment.smtpProxy.up();
  const outageMs = Date.now() - away;
  const drainMs = await deployment.drain();
  return {
    name: 'mail server away for 30 s',
    figures: `away ${seconds(outageMs)}: 15 mails due meanwhile (${pending?.n} waiting in the email log at its return), all sent ${seconds(drainMs)} after`,
    checks: [noServerErrors(tally, deployment), ...(await standardChecks(deployment, tally, ZONES))],
  };
}
