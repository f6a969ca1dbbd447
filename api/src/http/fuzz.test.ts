/**
 * The fuzzer: generated requests to every route (read from the routers) as every actor, with wrong
 * types, missing and extra fields, huge strings and numbers, unicode, malformed JSON and paths, bad
 * cookies and tokens and wrong content types. Every answer must be below 500 and tell nothing of
 * the server's insides, and no refusal may carry English text (valibot's, koa's or the body
 * parser's defaults); after each batch the status log still replays onto the projections and no
 * orphan rows exist.
 *
 * FUZZ_RUNS requests (300 in `npm test`, 10,000 with `npm run fuzz`); FUZZ_SEED replays a run (the
 * seed is printed with the figures; the latest figures are in SECURITY.md, "Proof, latest figures").
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { QUEUE_NAMES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rebuildProjections } from '../core/status-log/projections.js';
import { SESSION_COOKIE } from '../app.js';
import {
  ACTORS,
  createTestContext,
  createVehicle,
  createWorld,
  findOrphans,
  PASSWORD,
  routesOf,
  signInAs,
  uniqueEmail,
  type SignedInActor,
  type TestContext,
  type World,
  SUBMISSION_CONSENTS,
} from '../testing/index.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
// A fixed seed in `npm test` (the same requests every run); `npm run fuzz` draws a new one.
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? 20260620);
/** Requests between the checks of the database. */
const BATCH = 250;
/** Requests between looking whether the actors' sessions still live (a request may end one). */
const ACTOR_CHECK = 25;
const TEST_ORIGIN = 'http://localhost:3000';

/** bull-board's routes (it mounts an app of its own): reading, and the changes it refuses or allows. */
const DASHBOARD_ROUTES = [
  'GET /admin/queues',
  'GET /admin/queues/api/queues',
  'GET /admin/queues/api/queues/:queueName/:jobId',
  'PUT /admin/queues/api/queues/:queueName/pause',
  'PUT /admin/queues/api/queues/:queueName/empty',
  'POST /admin/queues/api/queues/:queueName/add',
  'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus',
  'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus',
  'PUT /admin/queues/api/queues/:queueName/:jobId/promote',
  'PUT /admin/queues/api/queues/:queueName/:jobId/retry',
  'PUT /admin/queues/api/queues/:queueName/:jobId/clean',
];

/** A valid body per route: the fuzzer starts from it and breaks it. */
function template(route: string, world: World): Record<string, unknown> {
  const vehicle = {
    brand: 'Porsche',
    model: '911 Turbo',
    year: 1995,
    ps: 408,
    weightKg: 1500,
    topSpeedKmh: 290,
    zeroToHundredS: 4.5,
    name: 'Blauer Blitz',
    color: 'Blau',
    tuningCategories: ['Fahrwerk'],
    descriptionShort: 'Kurz',
  };
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /api/auth/register': {
      firstName: 'Nora',
      lastName: 'Neu',
      email: uniqueEmail('fuzz'),
      password: PASSWORD,
      instagramHandle: '@nora',
    },
    'POST /api/auth/login': { email: world.owner.email, password: PASSWORD },
    'POST /api/auth/forgot-password': { email: world.other.email },
    'POST /api/auth/verify-reset-token': { token: 'a'.repeat(43) },
    'POST /api/auth/reset-password': { token: 'a'.repeat(43), newPassword: 'ein-neues-passwort-2' },
    'PATCH /api/auth/profile': {
      firstName: 'Mara',
      lastName: 'Test',
      email: uniqueEmail('neu'),
      currentPassword: PASSWORD,
    },
    'POST /api/auth/confirm-email': { token: 'a'.repeat(43) },
    'POST /api/auth/resend-confirmation': {},
    'POST /api/auth/cancel-email-change': { token: 'a'.repeat(43) },
    'POST /api/auth/change-password': { currentPassword: PASSWORD, newPassword: 'ein-neues-passwort-2' },
    'POST /api/account/delete': { password: PASSWORD },
    'POST /api/visitor-registrations': {
      firstName: 'Vera',
      lastName: 'Besuch',
      email: uniqueEmail('v'),
      phone: '0351 123',
    },
    'POST /api/visitor-registrations/confirm': { token: 'abc' },
    'POST /api/visitor-registrations/unsubscribe': { token: 'abc' },
    'POST /api/vehicles': { ...vehicle, status: 'submitted', ...SUBMISSION_CONSENTS },
    'PATCH /api/vehicles/:id': { color: 'Rot', ps: 420, zeroToHundredS: '4,2' },
    'PATCH /api/admin/vehicles/:id/status': {
      status: 'in_review',
      oldStatus: 'submitted',
      comment: 'gut',
      score: 7,
    },
    'POST /api/admin/vehicles/bulk-status/preview': {
      status: 'waitlist',
      filter: { status: 'submitted', q: '' },
    },
    'POST /api/admin/vehicles/bulk-status': {
      status: 'in_review',
      changes: [{ id: world.submitted, oldStatus: 'submitted' }],
      comment: 'gut',
    },
    'POST /api/objects/upload': { filename: 'auto.jpg', type: 'image/jpeg', size: 1000 },
    'POST /api/vehicles/:id/media': { url: world.submittedImage, isHero: true, cropX: 50 },
    'PATCH /api/vehicles/:id/media': { updates: [{ id: world.mediaOfSubmitted, cropX: '40', isHero: true }] },
    'POST /api/admin/quartett-sets': { title: 'Satz' },
    'POST /api/invitations/confirm': { token: 'abc.def' },
    'POST /api/admin/check-in': { code: '1' },
    'POST /api/admin/check-in/sync': {
      deviceId: randomUUID(),
      gate: 'Tor F',
      scans: [{ id: randomUUID(), invitationId: randomUUID(), scannedAt: '2000-01-01T00:00:00.000Z' }],
    },
    'POST /admin/queues/api/queues/:queueName/add': {
      name: 'email.send',
      data: { template: 'password-reset' },
    },
  };
  return bodies[route] ?? {};
}

// The generated parts of a request. Everything random is drawn here, so a seed replays a run.

const text = fc.string({ unit: 'binary', maxLength: 40 });
const WEIRD_PATHS = [
  '%',
  '%E0%A4%A',
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(3000),
  '-1',
  '0',
  '99999999999999999999',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  "'%20or%201=1%20--",
  '%ff%fe',
  '%C0%AE',
];
const param = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((known) => ({ known })) },
  { weight: 2, arbitrary: fc.uuid().map((value) => ({ value })) },
  { weight: 2, arbitrary: text.map((value) => ({ value })) },
  { weight: 2, arbitrary: fc.constantFrom(...WEIRD_PATHS).map((raw) => ({ raw })) },
);
type Param = { known: number } | { value: string } | { raw: string };

const WEIRD_VALUES: unknown[] = [
  1e308,
  -1e308,
  2 ** 53 + 2,
  -0,
  5e-324,
  4294967296,
  -2147483649,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'NaN',
  '1e999',
  '0x10',
  '4,2',
  true,
  false,
  null,
  [],
  {},
  [[[[]]]],
  '\u202eabc',
  '😀'.repeat(60),
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '/objects/uploads/x/y.jpg',
  '/objects/../uploads/x.jpg',
  { $ne: null },
  { __proto__: { admin: true } },
];
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom(...WEIRD_VALUES),
  fc.integer(),
  fc.double(),
  fc.nat({ max: 300_000 }).map((n) => 'ä'.repeat(n)),
);
const mutation = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), n: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), n: fc.nat(), value }),
  fc.record({
    op: fc.constant('extra' as const),
    key: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'id',
        'userId',
        'role',
        'status',
        'isAdmin',
        'user',
      ),
    ),
    value,
  }),
);
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('template' as const),
      mutations: fc.array(mutation, { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      value: fc.string({ unit: 'binary', maxLength: 200 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncated' as const), cut: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      size: fc.constantFrom(10_000, 99_000, 101_000, 400_000),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/merge-patch+json',
      'application/xml',
      '',
    ),
  },
);
const credential = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...ACTORS).map((actor) => ({ actor })) },
  { weight: 1, arbitrary: fc.record({ garbage: fc.string({ maxLength: 200 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      tamper: fc.constantFrom<SignedInActor>('owner', 'other', 'reviewer', 'admin'),
      how: fc.constantFrom(
        'sig' as const,
        'swap' as const,
        'hash' as const,
        'unsigned' as const,
        'long' as const,
      ),
    }),
  },
);
const query = fc.option(
  fc.array(
    fc.tuple(
      fc.constantFrom(
        'token',
        'download',
        'redirect',
        'q',
        'page',
        'limit',
        '__proto__[x]',
        'a[]',
        'status',
        'key',
      ),
      fc.oneof(text, fc.constantFrom('', '1', '-1', 'true', '%E0%A4%A')),
    ),
    { maxLength: 4 },
  ),
);
const headers = fc.record(
  {
    'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 40 })),
    'accept-encoding': fc.constantFrom(
      'br',
      'gzip',
      'identity',
      '*',
      'br;q=0, gzip;q=0, identity;q=0',
      'xyz',
    ),
    'if-none-match': fc.oneof(fc.string({ maxLength: 60 }), fc.constant('*')),
    range: fc.constantFrom('bytes=0-0', 'bytes=5-1', 'bytes=garbage', 'bytes=-1'),
    accept: fc.constantFrom('text/html', '*/*', 'application/json', 'image/webp'),
    'x-http-method-override': fc.constantFrom('DELETE', 'PUT'),
  },
  { requiredKeys: [] },
);
const spec = fc.record({
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant('route') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
  ),
  params: fc.array(param, { minLength: 1, maxLength: 4 }),
  knownKey: fc.option(fc.nat()),
  query,
  body,
  contentType,
  credential,
  origin: fc.oneof(
    { weight: 8, arbitrary: fc.constant('ok') },
    { weight: 1, arbitrary: fc.constantFrom('none', 'https://evil.example', 'null') },
  ),
  headers,
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

// Turning a spec into a request.

let t: TestContext;
let world: World;
let routes: string[];
/** Ids and object keys seen so far: a parameter often names something that exists. */
const pool = { ids: [] as string[], keys: [] as string[] };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const OBJECT_PATH = /\/objects\/([\w./-]+)/g;

const encode = (value: string) => encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

function paramValue(choice: Param, name: string): string {
  if ('raw' in choice) return choice.raw;
  if ('value' in choice) return encode(choice.value);
  if (name === 'queueName') return pick(QUEUE_NAMES, choice.known);
  if (name === 'queueStatus')
    return pick(['failed', 'completed', 'waiting', 'delayed', 'active'], choice.known);
  return pick(pool.ids, choice.known);
}

function pathOf(route: string, s: Spec): string {
  let index = 0;
  const next = () => s.params[index++ % s.params.length]!;
  return route
    .split(' ')[1]!
    .replace(/\{\*(\w+)\}/g, () =>
      s.knownKey !== null ? pick(pool.keys, s.knownKey) : s.params.map((p) => paramValue(p, 'key')).join('/'),
    )
    .replace(/:(\w+)/g, (_match, name: string) => paramValue(next(), name));
}

function bodyOf(route: string, s: Spec): string | undefined {
  const base = template(route, world);
  switch (s.body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return JSON.stringify(s.body.value);
    case 'text':
      return s.body.value;
    case 'truncated': {
      const json = JSON.stringify(base);
      return json.slice(0, s.body.cut % json.length);
    }
    case 'huge':
      return JSON.stringify({ ...base, [Object.keys(base)[0] ?? 'x']: 'x'.repeat(s.body.size) });
    case 'template': {
      const object: Record<string, unknown> = { ...base };
      for (const change of s.body.mutations) {
        const keys = Object.keys(object);
        if (change.op === 'extra') object[change.key] = change.value;
        else if (!keys.length) object.x = change.op === 'set' ? change.value : undefined;
        else if (change.op === 'drop') delete object[pick(keys, change.n)];
        else object[pick(keys, change.n)] = change.value;
      }
      return JSON.stringify(object);
    }
  }
}

/** koa-session's cookie signature (keygrip: HMAC-SHA1, URL-safe base64 without padding). */
function sign(value: string): string {
  return createHmac('sha1', t.config.sessionSecret)
    .update(`${SESSION_COOKIE}=${value}`)
    .digest('base64')
    .replace(/\//g, '_')
    .replace(/\+/g, '-')
    .replace(/=+$/, '');
}

function sessionOf(actor: SignedInActor): { sid: string; sig: string } {
  const client = world[actor].client;
  return { sid: client.cookie(SESSION_COOKIE) ?? '', sig: client.cookie(`${SESSION_COOKIE}.sig`) ?? '' };
}

function cookieOf(s: Spec): string | undefined {
  const c = s.credential;
  if ('actor' in c) return c.actor === 'anon' ? undefined : world[c.actor].client.cookieHeader;
  if ('garbage' in c) {
    const garbage = encode(c.garbage);
    return `${SESSION_COOKIE}=${garbage}; ${SESSION_COOKIE}.sig=${garbage}`;
  }
  const { sid, sig } = sessionOf(c.tamper);
  switch (c.how) {
    case 'sig':
      return `${SESSION_COOKIE}=${sid}; ${SESSION_COOKIE}.sig=${sig.slice(1)}A`;
    case 'swap': {
      const other = sessionOf(c.tamper === 'admin' ? 'owner' : 'admin');
      return `${SESSION_COOKIE}=${sid}; ${SESSION_COOKIE}.sig=${other.sig}`;
    }
    case 'hash': {
      // What a copy of the session table holds, correctly signed: still no session.
      const stored = createHash('sha256').update(sid).digest('hex');
      return `${SESSION_COOKIE}=${stored}; ${SESSION_COOKIE}.sig=${sign(stored)}`;
    }
    case 'unsigned':
      return `${SESSION_COOKIE}=${sid}`;
    case 'long':
      return `${SESSION_COOKIE}=${'a'.repeat(4000)}; ${SESSION_COOKIE}.sig=${sign('a'.repeat(4000))}`;
  }
}

/** Header values as HTTP allows them (visible ASCII), whatever was generated. */
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e]/g, '');

interface Sent {
  method: string;
  path: string;
  status: number;
  body: string;
  contentType: string;
}

async function send(route: string, s: Spec): Promise<Sent> {
  const routeMethod = route.split(' ')[0]!;
  const method = s.method === 'route' ? (routeMethod === 'ALL' ? 'GET' : routeMethod) : s.method;
  let path = pathOf(route, s);
  if (s.query) path += `?${s.query.map(([key, v]) => `${key}=${encode(v)}`).join('&')}`;
  const requestHeaders: Record<string, string> = {};
  for (const [name, v] of Object.entries(s.headers)) requestHeaders[name] = headerSafe(v);
  const cookie = cookieOf(s);
  if (cookie) requestHeaders.cookie = cookie;
  if (s.origin === 'ok') requestHeaders.origin = TEST_ORIGIN;
  else if (s.origin !== 'none') requestHeaders.origin = s.origin;
  const payload = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(route, s);
  if (payload !== undefined && s.contentType) requestHeaders['content-type'] = s.contentType;
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: requestHeaders,
    body: payload,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return {
    method,
    path,
    status: response.status,
    body: text,
    contentType: response.headers.get('content-type') ?? '',
  };
}

// What every answer must hold.

const STACK = [/\n\s+at [\w.<>$]+ \(/, /node_modules\//, /\.[cm]?[jt]s:\d+:\d+/];
const INSIDES = [
  /\b(select|insert into|update|delete from)\b[^"]{0,200}\b(from|values|set|where)\b/i,
  /violates|duplicate key|syntax error at|relation "|column "|PostgreSQL|MikroORM|DriverException|ECONNREFUSED|TypeError|ReferenceError|Cannot read prop/,
];

/**
 * English a refusal must not carry: valibot's default messages ('Invalid length: Expected <=500 but
 * received 501'), the status texts koa and its body parser answer with, JSON.parse's errors.
 */
const ENGLISH = [
  /\bInvalid [a-z]+( [a-z]+)?:/i,
  /\b(Expected|Received|but received)\b/,
  /\b(Bad Request|Not Found|Unauthorized|Forbidden|Method Not Allowed|Payload Too Large|Request Entity Too Large|Unsupported Media Type|Unprocessable Entity|Too Many Requests|Internal Server Error|Not Implemented)\b/i,
  /\b(invalid JSON|Unexpected (token|end|character)|is not valid JSON|must be|is required|not allowed)\b/i,
];

/** Answers with a refusal in English: counted, and a failure of the run. */
let english = 0;

function checkAnswer(route: string, s: Spec, sent: Sent): void {
  const where = () =>
    `${sent.method} ${sent.path.slice(0, 200)} (${route}) → ${sent.status}: ${sent.body.slice(0, 300)}\n` +
    `spec: ${JSON.stringify(s).slice(0, 600)}`;
  if (sent.status >= 500) throw new Error(`server error: ${where()}`);
  const patterns = sent.status >= 400 ? [...STACK, ...INSIDES] : STACK;
  const leak = patterns.find((pattern) => pattern.test(sent.body));
  if (leak) throw new Error(`answer shows the server's insides (${leak}): ${where()}`);
  // Refusals of the API and of stored objects are JSON with a German message.
  if (sent.status >= 400 && /^\/(api|objects)\//.test(sent.path) && sent.method !== 'HEAD') {
    let message: unknown;
    try {
      message = (JSON.parse(sent.body) as { message?: unknown }).message;
    } catch {
      message = undefined;
    }
    if (typeof message !== 'string' || !message) throw new Error(`refusal without a message: ${where()}`);
  }
  // No refusal speaks English: the API's (JSON), and any other that is not a page of the app.
  if (sent.status >= 400 && !/text\/html/.test(sent.contentType)) {
    const found = ENGLISH.find((pattern) => pattern.test(sent.body));
    if (found) {
      english++;
      throw new Error(`refusal in English (${found}): ${where()}`);
    }
  }
}

function remember(sent: Sent): void {
  if (sent.status >= 300) return;
  for (const id of sent.body.match(UUID) ?? []) if (!pool.ids.includes(id)) pool.ids.push(id);
  for (const [, key] of sent.body.matchAll(OBJECT_PATH))
    if (key && !pool.keys.includes(key)) pool.keys.push(key);
  if (pool.ids.length > 400) pool.ids.splice(40, pool.ids.length - 400);
  if (pool.keys.length > 200) pool.keys.splice(20, pool.keys.length - 200);
}

/** A request may end an actor's session or account: such an actor gets a new account. */
async function reviveActors(): Promise<number> {
  let revived = 0;
  for (const actor of ['owner', 'other', 'reviewer', 'admin'] as const) {
    const res = await world[actor].client.get('/api/auth/user');
    const role = { owner: 'user', other: 'user', reviewer: 'reviewer', admin: 'admin' }[actor];
    if (res.status === 200 && res.data.role === role) continue;
    world[actor] = await signInAs(t, actor);
    revived++;
    if (actor === 'owner') {
      const draft = await createVehicle(world.owner.client);
      const submitted = await createVehicle(world.owner.client, { status: 'submitted' });
      pool.ids.push(draft.id, submitted.id);
    }
  }
  return revived;
}

/** The database after a batch: the log replays onto the projections, nothing is orphaned. */
async function checkDatabase(): Promise<void> {
  const replay = await rebuildProjections(t.orm.em.fork(), { write: false });
  expect(replay.mismatches, 'status log and projections disagree').toEqual([]);
  expect(replay.publicListDrift, 'public list drifted from the log').toBe(0);
  const orphans = await findOrphans(t.orm.em.fork());
  expect(orphans, 'orphan rows').toEqual(Object.fromEntries(Object.keys(orphans).map((name) => [name, 0])));
  expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(200);
}

beforeAll(async () => {
  // Limits would turn most requests into 429s; they have tests of their own.
  t = await createTestContext({ relay: false, env: { RATE_LIMIT_FACTOR: '100000' } });
  world = await createWorld(t);
  routes = [...routesOf(t.app as never).map((route) => `${route.method} ${route.path}`), ...DASHBOARD_ROUTES];
  pool.ids.push(world.draft, world.submitted, world.confirmed, world.mediaOfSubmitted, world.quartettSet);
  for (const path of [
    world.submittedImage,
    world.confirmedImage,
    world.quartettPdf,
    world.accountExport,
    world.rawUpload,
  ]) {
    pool.keys.push(path.slice('/objects/'.length));
  }
});
afterAll(() => t?.close());

it(
  `answers ${RUNS} generated requests to every route as every actor without a server error`,
  async () => {
    const started = Date.now();
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const perCredential = new Map<string, number>();
    let sent = 0;
    let batches = 0;
    let revived = 0;
    await fc.assert(
      fc.asyncProperty(spec, async (s) => {
        const route = routes[sent % routes.length]!;
        const answer = await send(route, s);
        sent++;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
        const c = s.credential;
        const who = 'actor' in c ? c.actor : 'garbage' in c ? 'bad cookie' : `forged ${c.how}`;
        perCredential.set(who, (perCredential.get(who) ?? 0) + 1);
        checkAnswer(route, s, answer);
        remember(answer);
        if (sent % ACTOR_CHECK === 0) revived += await reviveActors();
        if (sent % BATCH === 0) {
          await checkDatabase();
          batches++;
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    await checkDatabase();
    batches++;

    const seconds = (Date.now() - started) / 1000;
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.log(
      [
        `fuzz: ${sent} requests, ${routes.length} routes, seed ${SEED}, ${seconds.toFixed(1)} s ` +
          `(${(sent / seconds).toFixed(0)} req/s), ${batches} database checks, ${revived} actors renewed`,
        `statuses: ${histogram.join(', ')}`,
        `as: ${[...perCredential].map(([who, n]) => `${who} ${n}`).join(', ')}`,
        `5xx: ${[...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0)}`,
        `refusals in English: ${english}`,
      ].join('\n'),
    );
    expect(sent).toBe(RUNS);
    if (RUNS >= routes.length) expect([...perRoute.keys()].sort()).toEqual([...routes].sort());
  },
  Math.max(120_000, RUNS * 100),
);
