import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, SESSION_COOKIE } from '../app.js';
import { EditionEvents } from '../core/editions/edition-events.js';
import { PublicInputs } from '../core/public-list/public-inputs.js';
import { createS3Client } from '../core/storage/s3.js';
import {
  APPLYING_NOON,
  createTestContext,
  insertCar,
  insertListedVehicle,
  testClock,
  type TestContext,
} from '../testing/index.js';
import { withStaticFastPath } from './fast-path.js';
import { PageCache } from './page-cache.js';
import { ANONYMOUS_RENDERS } from './serve-web.js';
import { withPublicListFastPath } from '../routes/vehicles/public-list.js';
import { publicListReader } from '../core/public-list/public-vehicle.read.js';

/**
 * Pages kept for visitors who are not signed in, in two api processes on one database (each with
 * its own connections, change notifications, cache and fast path, as two processes have): a change
 * committed anywhere reaches the other's kept landing page within its notification time, and no
 * signed-in content is ever served from the cache.
 */

/**
 * Stands in for the server build of the web client: writes what the api hands it into the page,
 * with an inline script (a nonce only when given one) and a style attribute, as the real one does.
 */
const RENDERER = `
export function isPage(pathname) {
  return ['/', '/impressum', '/datenschutz', '/login'].includes(pathname) || /^\\/rueckblick\\/\\d+$/.test(pathname) ||
    /^\\/fahrzeuge\\/\\d+\\/\\d+$/.test(pathname);
}
let renders = 0;
let running = 0;
globalThis.maxLoginRenders = 0;
export async function render({ url, nonce, siteConfig, user, lookBack, carPage, listedVehicles }) {
  renders += 1;
  if (url.startsWith('/login')) {
    // A render that takes a while, so visits overlap.
    running += 1;
    globalThis.maxLoginRenders = Math.max(globalThis.maxLoginRenders, running);
    await new Promise((resolve) => setTimeout(resolve, 30));
    running -= 1;
  }
  const script = '<script' + (nonce ? ' nonce="' + nonce + '"' : '') + '>self.$_rendered = ' + renders + ';</script>';
  if (url.startsWith('/fahrzeuge/')) {
    if (!carPage) return { kind: 'page', status: 404, head: '', html: '<h1>404</h1>' + script };
    return {
      kind: 'page',
      status: 200,
      head: '<meta property="og:title" content="Nr. ' + carPage.startNumber + '">' +
        '<meta name="award" content="' + (carPage.award ? carPage.award.state : 'none') + '">',
      html: '<p id="car">' + (carPage.vehicle ? carPage.vehicle.name : carPage.brand) + '</p>' +
        '<p id="model">' + carPage.model + '</p>' + script,
    };
  }
  if (url.startsWith('/rueckblick/')) {
    if (!lookBack) return { kind: 'page', status: 404, head: '', html: '<h1>404</h1>' + script };
    return { kind: 'page', status: 200, head: '', html: '<p id="look-back">' + lookBack.vehicles.length + ' Fahrzeuge</p>' + script };
  }
  return {
    kind: 'page',
    status: 200,
    head: '<title>Seite</title>',
    html:
      '<h1>' + siteConfig.eventName + '</h1>' +
      '<p id="phase">' + siteConfig.phase + '</p>' +
      '<div id="intro">' + (siteConfig.texts && siteConfig.texts.introduction || '-') + '</div>' +
      '<p id="cars">' + (listedVehicles === 0 ? 'keine' : listedVehicles === undefined ? '?' : 'Bestätigte Fahrzeuge') + '</p>' +
      '<p id="who">' + (user ? user.email : 'anonym') + '</p>' +
      '<p>' + 'Schloss '.repeat(300) + '</p>' +
      '<div style="position:fixed"></div>' + script,
  };
}`;

/** A hashed asset of the build, with the .br and .gz the build writes beside it. */
const SCRIPT = `console.log(${JSON.stringify('Schloss '.repeat(500))});`;

let t: TestContext;
let webBuild: string;
const clock = testClock(APPLYING_NOON);

interface Process {
  url: string;
  server: Server;
  inputs: PublicInputs;
  pages: PageCache;
  /** Requests the Koa stack answered (the rest the fast path did). */
  stackRequests: number;
}
const processes: Process[] = [];

/** One api process as main.ts assembles it: its own notifications, page cache and fast paths. */
async function startProcess(options: { files?: boolean } = {}): Promise<Process> {
  const inputs = new PublicInputs(t.env.DATABASE_URL!, () => undefined);
  await inputs.start(t.orm.em);
  const pages = new PageCache({ listening: () => inputs.listening, clock: () => clock.now().getTime() });
  const events = new EditionEvents(t.orm.em);
  const app = createApp({
    config: t.config,
    em: t.orm.em,
    redis: t.redis,
    s3: createS3Client(t.config.s3),
    redisPrefix: t.prefix,
    publicListChanges: inputs,
    pages: { cache: pages, inputs },
    now: clock.now,
    events,
    log: () => undefined,
  });
  const process: Process = {
    url: '',
    server: undefined as unknown as Server,
    inputs,
    pages,
    stackRequests: 0,
  };
  app.middleware.unshift((_ctx, next) => {
    process.stackRequests += 1;
    return next();
  });
  const currentEditionId = async () => (await events.at(clock.now())).edition.id;
  process.server = createServer(
    withStaticFastPath(
      app,
      withPublicListFastPath(app, publicListReader(t.orm.em, currentEditionId, inputs), false),
      {
        pages,
        files: options.files ? { root: path.join(webBuild, 'dist'), all: false } : undefined,
        sessionCookie: SESSION_COOKIE,
        requireHttps: false,
      },
    ),
  );
  process.server.listen(0, '127.0.0.1');
  await new Promise((resolve) => process.server.once('listening', resolve));
  process.url = `http://127.0.0.1:${(process.server.address() as AddressInfo).port}`;
  processes.push(process);
  return process;
}

beforeAll(async () => {
  webBuild = await mkdtemp(path.join(tmpdir(), 'kept-pages-'));
  await mkdir(path.join(webBuild, 'dist'));
  await mkdir(path.join(webBuild, 'dist-server'));
  await writeFile(path.join(webBuild, 'dist-server', 'entry-server.js'), RENDERER);
  await mkdir(path.join(webBuild, 'dist', 'assets'));
  await writeFile(path.join(webBuild, 'dist', 'robots.txt'), 'User-agent: *\n');
  await writeFile(path.join(webBuild, 'dist', 'assets', 'app-Ab12.js'), SCRIPT);
  await writeFile(path.join(webBuild, 'dist', 'assets', 'app-Ab12.js.br'), brotliCompressSync(SCRIPT));
  await writeFile(path.join(webBuild, 'dist', 'assets', 'app-Ab12.js.gz'), gzipSync(SCRIPT));
  await writeFile(
    path.join(webBuild, 'dist', 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /></head><body><div id="root"></div></body></html>',
  );
  t = await createTestContext({
    relay: false,
    now: clock.now,
    env: { WEB_DIST: path.join(webBuild, 'dist') },
  });
});
afterAll(async () => {
  for (const { server, inputs, pages } of processes) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    pages.clear();
    await inputs.close();
  }
  await t?.close();
  await rm(webBuild, { recursive: true, force: true });
});

const text = (html: string, id: string) => new RegExp(`<[a-z]+ id="${id}">([^<]*)<`).exec(html)?.[1];

async function visit(process: Process, pagePath = '/', headers: Record<string, string> = {}) {
  const res = await fetch(`${process.url}${pagePath}`, { headers });
  return { res, html: await res.text() };
}

/** Polls a process's page (the landing page) until `done`; the time it took, or a failure after `timeoutMs`. */
async function untilPage(
  process: Process,
  done: (html: string, status: number) => boolean,
  timeoutMs = 5000,
  pagePath = '/',
) {
  const started = performance.now();
  for (;;) {
    const { res, html } = await visit(process, pagePath);
    if (done(html, res.status)) return performance.now() - started;
    if (performance.now() - started > timeoutMs)
      throw new Error(`page not changed in ${timeoutMs} ms: ${html.slice(0, 400)}`);
    await sleep(20);
  }
}

/** A GET as a browser sends it, without fetch's additions; the raw bytes. */
function plainGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const sha256 = (value: string) => `'sha256-${createHash('sha256').update(value).digest('base64')}'`;

describe('pages kept for visitors who are not signed in', () => {
  let a: Process;
  let b: Process;

  beforeAll(async () => {
    a = await startProcess();
    b = await startProcess();
  });

  it('renders a page once and answers later visits from memory, with ETag, 304 and a CSP of hashes', async () => {
    const first = await visit(b, '/', { 'accept-encoding': 'identity' });
    expect(first.res.status).toBe(200);
    expect(text(first.html, 'phase')).toBe('open');
    const before = b.stackRequests;
    const visits = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${b.url}/`, { headers: { 'accept-encoding': 'br, gzip' } })),
    );
    // The fast path answered them: the stack saw none.
    expect(b.stackRequests).toBe(before);
    const res = visits[0]!;
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // fetch decodes the coding it was sent.
    const body = await res.text();
    expect(body).toBe(first.html);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect(new Set(visits.map((visit) => visit.headers.get('etag')))).toEqual(new Set([etag]));

    // The inline script is allowed by its hash, no nonce and nothing inline beyond it.
    const csp = res.headers.get('content-security-policy')!;
    const script = /<script>([^<]*)<\/script>/.exec(body)![1]!;
    expect(csp).toContain(`script-src 'self' ${sha256(script)}`);
    expect(csp).toContain(`'unsafe-hashes' ${sha256('position:fixed')}`);
    expect(csp).not.toMatch(/nonce|unsafe-inline/);
    expect(body).not.toContain('nonce=');

    // As a browser revalidates (fetch would add 'Cache-Control: no-cache' to a conditional request).
    const again = await plainGet(`${b.url}/`, { 'accept-encoding': 'br, gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['content-security-policy']).toBe(csp);
    expect(again.body.length).toBe(0);

    const gzip = await fetch(`${b.url}/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(first.html);
    // HEAD: the headers alone.
    const head = await fetch(`${b.url}/`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.headers.get('etag')).toBe(etag);
  });

  it('brings a change of a text, the public list or the phase, committed by another process, to the kept page', async () => {
    await visit(a);
    const before = await visit(b);
    expect(text(before.html, 'intro')).toBe('-');
    expect(text(before.html, 'cars')).toBe('keine');
    const admin = await t.signIn('admin');
    const wait: Record<string, number> = {};

    // A text, saved through a third app (the harness's), not a or b.
    expect(
      (await admin.client.put('/api/admin/texts', { introduction: 'Willkommen am Schloss' })).status,
    ).toBe(200);
    wait.text = await untilPage(b, (html) => html.includes('<p>Willkommen am Schloss</p>'));
    await untilPage(a, (html) => html.includes('<p>Willkommen am Schloss</p>'));

    // The public list: the first confirmed car.
    await insertListedVehicle(t, 'Porsche');
    wait.list = await untilPage(b, (html) => text(html, 'cars') === 'Bestätigte Fahrzeuge');

    // The edition's phase: its deadline moved before today (another connection, as psql would).
    const db = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`update edition set application_deadline = '2026-03-01' where id = $1`, [
        t.event.edition.id,
      ]);
      wait.phase = await untilPage(b, (html) => text(html, 'phase') === 'closed');
      await db.query(`update edition set application_deadline = $2 where id = $1`, [
        t.event.edition.id,
        t.event.applicationDeadline,
      ]);
      await untilPage(b, (html) => text(html, 'phase') === 'open');
    } finally {
      await db.end();
    }
    // Notification, at most one render per second, the render itself.
    for (const ms of Object.values(wait)) expect(ms).toBeLessThan(2500);
    console.info(
      `kept page changed after: ${JSON.stringify(Object.fromEntries(Object.entries(wait).map(([k, v]) => [k, Math.round(v)])))} ms`,
    );
  });

  it('lets no visit see the page as it was once a change after a quiet second is heard', async () => {
    const admin = await t.signIn('admin');
    for (const [round, introduction] of ['Erste Fassung', 'Zweite Fassung'].entries()) {
      await visit(b);
      // More than the render interval since the last render: the change renders at once.
      await sleep(1100);
      const heard = b.inputs.versions.get('texts') ?? 0;
      expect((await admin.client.put('/api/admin/texts', { introduction })).status).toBe(200);
      const deadline = Date.now() + 5000;
      while ((b.inputs.versions.get('texts') ?? 0) === heard && Date.now() < deadline) await sleep(1);
      // Heard: the very next visit waits for the render rather than getting the old page.
      const { html } = await visit(b);
      expect(html, `round ${round}`).toContain(`<p>${introduction}</p>`);
    }
  });

  it('renders a page again when the calendar moves on, with nothing announced', async () => {
    expect(text((await visit(b)).html, 'phase')).toBe('open');
    const deadline = t.event.applicationDeadline;
    // The day after the deadline at noon: applications have closed.
    const closed = new Date(`${deadline}T12:00:00+02:00`);
    closed.setUTCDate(closed.getUTCDate() + 1);
    clock.set(closed);
    try {
      expect(text((await visit(b)).html, 'phase')).toBe('closed');
    } finally {
      clock.set(APPLYING_NOON);
    }
    expect(text((await visit(b)).html, 'phase')).toBe('open');
  });

  it('never serves signed-in content from the cache, nor a kept page to a signed-in visitor', async () => {
    const owner = await t.signIn('user');
    const cookie = owner.client.cookieHeader;
    expect(cookie).toContain(`${SESSION_COOKIE}=`);

    // Anonymous first, then signed in: the signed-in visit is rendered for its user.
    const anonymous = await visit(a, '/impressum');
    expect(text(anonymous.html, 'who')).toBe('anonym');
    const signedIn = await visit(a, '/impressum', { cookie });
    expect(text(signedIn.html, 'who')).toBe(owner.email);
    expect(signedIn.res.headers.get('cache-control')).toBe('private, no-store');
    expect(signedIn.res.headers.get('etag')).toBeNull();
    expect(signedIn.res.headers.get('content-security-policy')).toMatch(/'nonce-/);

    // Signed in first (on a page nobody has asked for yet), then anonymous.
    const first = await visit(b, '/datenschutz', { cookie });
    expect(text(first.html, 'who')).toBe(owner.email);
    for (const process of [a, b]) {
      for (const pagePath of ['/', '/impressum', '/datenschutz']) {
        const { res, html } = await visit(process, pagePath);
        expect(text(html, 'who')).toBe('anonym');
        expect(html).not.toContain(owner.email);
        expect(res.headers.get('cache-control')).toBe('no-cache');
      }
    }
    // A session cookie that names no session: rendered by the stack, the kept page as anyone gets it.
    const stale = await visit(b, '/', { cookie: `${SESSION_COOKIE}=nothing` });
    expect(text(stale.html, 'who')).toBe('anonym');
    // A query the page does not read (a shared link's tracking): the kept page, from memory.
    const kept = await visit(b, '/');
    const before = b.stackRequests;
    const tracked = await visit(b, '/?fbclid=IwAR0abc&utm_source=ig');
    expect(tracked.res.headers.get('etag')).toBe(kept.res.headers.get('etag'));
    expect(b.stackRequests).toBe(before);
    // One the page reads (where to go after signing in): rendered for the request, never kept.
    const queried = await visit(b, '/login?redirect=%2Fdashboard');
    expect(text(queried.html, 'who')).toBe('anonym');
    expect(queried.res.headers.get('etag')).toBeNull();
    expect(b.stackRequests).toBe(before + 1);
  });

  it('renders few single visits of visitors who are not signed in at once, the rest in the browser', async () => {
    const g = globalThis as { maxLoginRenders?: number };
    g.maxLoginRenders = 0;
    const visits = await Promise.all(
      Array.from({ length: 20 }, (_, index) => visit(b, `/login?redirect=%2F${index}`)),
    );
    expect(g.maxLoginRenders).toBe(ANONYMOUS_RENDERS);
    const inBrowser = visits.filter(({ res }) => res.headers.get('x-rendered-by') === 'browser');
    expect(inBrowser.length).toBeGreaterThan(0);
    for (const { res, html } of visits) {
      expect(res.status).toBe(200);
      // Either way the page with the site's facts; the browser renders the rest from index.html.
      expect(html).toContain('id="site-config"');
    }
    for (const { html } of inBrowser) expect(html).toContain('<div id="root"></div>');

    // Signed in: always rendered on the server.
    const owner = await t.signIn('user');
    g.maxLoginRenders = 0;
    const signedIn = await Promise.all(
      Array.from({ length: 6 }, () =>
        visit(b, '/login?redirect=%2Fdashboard', { cookie: owner.client.cookieHeader }),
      ),
    );
    for (const { res } of signedIn) expect(res.headers.get('x-rendered-by')).toBeNull();
  });

  it("keeps a car's page like the landing page, brings its changes, and no page for a number nobody holds", async () => {
    const owner = await t.signIn('user');
    const car = await insertCar(t, { ownerId: owner.id, name: 'Kept Käfer', photos: 1 });
    const carPath = `/fahrzeuge/${t.event.edition.year}/${car.startNumber}`;
    const first = await visit(b, `${carPath}?fbclid=abc`);
    expect(first.res.status).toBe(200);
    expect(text(first.html, 'car')).toBe('Kept Käfer');
    expect(first.html).toContain(`<meta property="og:title" content="Nr. ${car.startNumber}">`);
    // A second visit, with or without a shared link's query, from memory; the browser's copy: 304.
    const before = b.stackRequests;
    const second = await fetch(`${b.url}${carPath}`, { headers: { 'accept-encoding': 'br' } });
    expect(await second.text()).toBe(first.html);
    await visit(b, `${carPath}?utm_source=whatsapp`);
    expect(b.stackRequests).toBe(before);
    const etag = second.headers.get('etag')!;
    const again = await plainGet(`${b.url}${carPath}`, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);

    // The owner withdraws the consent to show the car (in another process): its page shows its brand only.
    const consent = (
      await t.orm.em
        .getConnection()
        .execute<{ id: string }[]>(`select id from consent where vehicle_id = ? and kind = 'media'`, [
          car.vehicleId,
        ])
    )[0]!;
    const withdrawn = await owner.client.post(`/api/account/consents/${consent.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    await expect
      .poll(async () => text((await visit(b, carPath)).html, 'car'), { timeout: 5000 })
      .toBe('Audi');

    // A number nobody holds: 404, and no page kept for it.
    const unknownPath = `/fahrzeuge/${t.event.edition.year}/9876`;
    const missing = await visit(b, unknownPath);
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get('etag')).toBeNull();
    const stack = b.stackRequests;
    await visit(b, unknownPath);
    expect(b.stackRequests).toBe(stack + 1);
  });

  it("brings a change of a car shown without its images to its kept page, and its given-up place's 404", async () => {
    const owner = await t.signIn('user');
    const car = await insertCar(t, { ownerId: owner.id, model: 'Ur-Quattro', withoutMedia: true });
    const carPath = `/fahrzeuge/${t.event.edition.year}/${car.startNumber}`;
    const first = await visit(b, carPath);
    expect(first.res.status).toBe(200);
    expect(text(first.html, 'car')).toBe('Audi');
    expect(text(first.html, 'model')).toBe('Ur-Quattro');
    const before = b.stackRequests;
    await visit(b, carPath);
    expect(b.stackRequests).toBe(before);
    const wait: Record<string, number> = {};

    // Staff correct the model (through a third app): it is not on the public list, yet its page follows.
    await sleep(1100);
    const admin = await t.signIn('admin');
    const corrected = await admin.client.patch(`/api/vehicles/${car.vehicleId}`, {
      model: 'Sport Quattro S1',
    });
    expect(corrected.status, corrected.text).toBe(200);
    wait.model = await untilPage(b, (html) => text(html, 'model') === 'Sport Quattro S1', 5000, carPath);
    await untilPage(a, (html) => text(html, 'model') === 'Sport Quattro S1', 5000, carPath);

    // Its place given up (another connection, as psql would; the car's status stays): the number
    // answers 404 and no page is kept for it any more.
    await sleep(1100);
    const db = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(
        `update invitation set released_at = now(), release_reason = 'revoked' where vehicle_id = $1`,
        [car.vehicleId],
      );
    } finally {
      await db.end();
    }
    wait.released = await untilPage(b, (_html, status) => status === 404, 5000, carPath);
    const gone = await visit(b, carPath);
    expect(gone.res.status).toBe(404);
    expect(gone.res.headers.get('etag')).toBeNull();
    // Notification and the render itself, well within the 10 s a kept page lives unannounced.
    for (const ms of Object.values(wait)) expect(ms).toBeLessThan(1500);
    console.info(
      `kept car page changed after: ${JSON.stringify(Object.fromEntries(Object.entries(wait).map(([k, v]) => [k, Math.round(v)])))} ms`,
    );
  });

  it('keeps no page the router redirects or does not know', async () => {
    const missing = await visit(b, '/rueckblick/1999');
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get('etag')).toBeNull();
    const again = b.stackRequests;
    await visit(b, '/rueckblick/1999');
    expect(b.stackRequests).toBe(again + 1);
  });

  it("brings the opening of voting and the meeting's end to a kept car page", async () => {
    const owner = await t.signIn('user');
    const car = await insertCar(t, { ownerId: owner.id, photos: 1 });
    const year = t.event.edition.year;
    const carPath = `/fahrzeuge/${year}/${car.startNumber}`;
    const awardOn = async (process: Process) =>
      /<meta name="award" content="([^"]*)">/.exec((await visit(process, carPath)).html)?.[1];
    expect(await awardOn(b)).toBe('not_open');
    const before = b.stackRequests;
    expect(await awardOn(b)).toBe('not_open');
    expect(b.stackRequests).toBe(before);

    // An admin opens voting (through a third app): both processes' kept pages follow.
    const admin = await t.signIn('admin');
    const opened = await admin.client.post(`/api/admin/award/${year}/open`, {});
    expect(opened.status, opened.text).toBe(200);
    await expect.poll(() => awardOn(b), { timeout: 5000 }).toBe('open');
    await expect.poll(() => awardOn(a), { timeout: 5000 }).toBe('open');
    const kept = b.stackRequests;
    await awardOn(b);
    expect(b.stackRequests).toBe(kept);

    // A set closing takes effect at its moment, with nothing written then: the kept page is rendered
    // anew at it (the tick records it later).
    const closesAt = new Date(APPLYING_NOON.getTime() + 3600_000);
    const scheduled = await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: null,
      closesAt: closesAt.toISOString(),
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    await sleep(1500);
    expect(await awardOn(b)).toBe('open');
    clock.set(new Date(closesAt.getTime() + 1000));
    try {
      expect(await awardOn(b)).toBe('closed');
    } finally {
      clock.set(APPLYING_NOON);
    }
    expect(await awardOn(b)).toBe('open');

    // The meeting's end closes it with nothing written: the kept page is rendered anew then.
    clock.set(new Date(t.event.end.getTime() + 60_000));
    try {
      expect(await awardOn(b)).toBe('closed');
    } finally {
      clock.set(APPLYING_NOON);
    }
    expect(await awardOn(b)).toBe('open');
  });
});

describe('built files', () => {
  it('are answered from memory after the stack served them once, with its headers, ETag and 304', async () => {
    const process = await startProcess({ files: true });
    const url = `${process.url}/assets/app-Ab12.js`;
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const first = await plainGet(url, headers);
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.body).toEqual(brotliCompressSync(SCRIPT));
    // The bytes are read once the stack's answer is out.
    await sleep(50);
    const before = process.stackRequests;
    const again = await plainGet(url, headers);
    expect(process.stackRequests).toBe(before);
    expect(again.body).toEqual(first.body);
    const own = (answer: typeof first) =>
      Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !['date', 'x-request-id'].includes(name)),
      );
    expect(own(again)).toEqual(own(first));
    expect(again.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(again.headers['cache-control']).toBe('max-age=31536000,immutable');
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers['content-security-policy']).toContain("default-src 'self'");

    const notModified = await plainGet(url, { ...headers, 'if-none-match': again.headers.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(process.stackRequests).toBe(before);

    // Another Accept-Encoding is the stack's once, then kept as well.
    const plain = await plainGet(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(plain.headers.etag).not.toBe(again.headers.etag);
    expect(process.stackRequests).toBe(before + 1);

    // Outside production a file that is not a hashed asset may be rebuilt: always the stack's.
    await plainGet(`${process.url}/index.html`, headers);
    await plainGet(`${process.url}/assets/../index.html`, headers);
    const stack = process.stackRequests;
    await sleep(50);
    await plainGet(`${process.url}/robots.txt`, headers);
    await plainGet(`${process.url}/robots.txt`, headers);
    expect(process.stackRequests).toBe(stack + 2);
  });
});
