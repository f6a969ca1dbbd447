import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CURRENT_USER_ELEMENT_ID,
  DEFAULT_SITE_CONFIG,
  parseSiteConfig,
  SITE_CONFIG_ELEMENT_ID,
} from '@schlosstreffen/shared';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdition, makeCurrent } from '../core/editions/editions.js';
import { webAssetKey } from '../core/storage/objects.js';
import { createS3Client, deleteKeys, listKeys } from '../core/storage/s3.js';
import { APPLYING_NOON, createTestContext, registerUser, type TestContext } from '../testing/index.js';
import type { AppState } from './context.js';
import { nonceForRenderedPages, serveWeb } from './serve-web.js';
import { publishWebAssets } from './web-assets.js';

let t: TestContext;
let webBuild: string;
let webDist: string;

/**
 * Stands in for the server build of the web client (web/dist-server/entry-server.js, built with the
 * app; its contract is `WebRenderer` in @schlosstreffen/shared): it echoes what the api hands it,
 * redirects /login of a signed-in user as the login route does, renders the not-found page for a
 * path no page serves, and fails for one path, so the api's part is tested without a client build.
 */
const RENDERER = `
const PAGES = ['/', '/register', '/login', '/visitor-registration', '/forgot-password', '/impressum', '/datenschutz', '/dashboard', '/apply', '/admin/dashboard', '/admin/check-in'];
export function isPage(pathname) {
  return PAGES.includes(pathname) || /^\\/(edit|rueckblick)\\/[^/]+$/.test(pathname);
}
export async function render({ url, nonce, siteConfig, user, lookBack }) {
  if (!isPage(new URL(url, 'http://localhost').pathname)) {
    return {
      kind: 'page',
      status: 404,
      html: '<main id="inhalt"><h1>404 Page Not Found</h1><a href="/">Zur Startseite</a></main><script nonce="' + nonce + '"></script>',
      head: '<title>404 Page Not Found – Schlosstreffen</title><meta name="description" content="Diese Seite gibt es nicht. Zurück zur Startseite des Schlosstreffens."/>',
    };
  }
  if (url.startsWith('/rueckblick/')) {
    const shown = lookBack ? lookBack.edition.year + ': ' + lookBack.vehicles.length + ' Fahrzeuge' : String(lookBack);
    return { kind: 'page', status: lookBack ? 200 : 404, html: '<p id="look-back">' + shown + '</p><script nonce="' + nonce + '"></script>', head: '' };
  }
  if (url.startsWith('/impressum')) throw new Error('render failed');
  if (url.startsWith('/login') && user) return { kind: 'redirect', status: 307, location: '/dashboard' };
  return {
    kind: 'page',
    status: 200,
    html: '<h1>' + siteConfig.eventName + '</h1><p>' + 'Tuning '.repeat(200) + '</p><h1>' + siteConfig.eventName + '</h1><p id="who">' + (user ? user.email : 'anonym') + '</p>' +
      '<div style="position:fixed;font-family:&quot;Inter&quot;"></div>' +
      '<script nonce="' + nonce + '">document.currentScript.remove()</script>',
    head: '<title>Seite ' + url + '</title><meta name="description" content="Beschreibung &lt;' + url + '&gt;"/>' +
      '<link rel="canonical" href="' + siteConfig.publicUrl + url + '"/>',
  };
}`;

beforeAll(async () => {
  webBuild = await mkdtemp(path.join(tmpdir(), 'web-build-'));
  webDist = path.join(webBuild, 'dist');
  await mkdir(webDist);
  await mkdir(path.join(webBuild, 'dist-server'));
  await writeFile(path.join(webBuild, 'dist-server', 'entry-server.js'), RENDERER);
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(webDist, 'robots.txt'), 'User-agent: *\n');
  t = await createTestContext({
    relay: false,
    env: {
      WEB_DIST: webDist,
      EVENT_NAME: 'Schlosstreffen 2027',
      EVENT_START: '2027-06-19T10:00:00+02:00',
      EVENT_END: '2027-06-19T19:00:00+02:00',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await rm(webBuild, { recursive: true, force: true });
});

function dataBlock(html: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
}

function siteConfigOf(html: string) {
  const match = new RegExp(
    `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  return match ? parseSiteConfig(match[1]) : null;
}

describe('web client', () => {
  it('serves index.html for client routes with the configured event facts', async () => {
    for (const route of ['/', '/login', '/dashboard', '/edit/123']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const config = siteConfigOf(await res.text());
      expect(config).toMatchObject({
        eventName: 'Schlosstreffen 2027',
        eventStart: '2027-06-19T08:00:00.000Z',
        eventEnd: '2027-06-19T17:00:00.000Z',
        // The app's clock when the page was written: the browser runs its phase and countdown from it.
        now: APPLYING_NOON.toISOString(),
      });
    }
  });

  it('serves files as they are and leaves /api to the API', async () => {
    expect(await (await fetch(`${t.baseUrl}/robots.txt`)).text()).toBe('User-agent: *\n');
    expect((await fetch(`${t.baseUrl}/api/nothing-here`)).status).toBe(404);
  });
});

describe('server-rendered public pages', () => {
  it('renders the page into index.html with its head, and allows its scripts by a nonce of its own', async () => {
    const nonces = new Set<string>();
    for (const route of ['/', '/register', '/visitor-registration']) {
      const res = await fetch(`${t.baseUrl}${route}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<h1>Schlosstreffen 2027</h1><p id="who">anonym</p>');
      // The page's head tags, as the renderer rendered them, in the document's head, and no other title.
      const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? '';
      expect(head).toContain(`<title>Seite ${route}</title>`);
      expect(head).toContain(`<meta name="description" content="Beschreibung &lt;${route}&gt;"/>`);
      expect(head).toContain(`<link rel="canonical" href="http://localhost:3000${route}"/>`);
      expect(html.match(/<title>/g)).toHaveLength(1);
      const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
      expect(nonce).toBeTruthy();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`script-src 'self' 'nonce-${nonce}';`);
      // The rendered style attribute, and nothing else inline, is allowed by its hash.
      const styleHash = createHash('sha256').update('position:fixed;font-family:"Inter"').digest('base64');
      expect(csp).toContain(`style-src 'self' 'unsafe-hashes' 'sha256-${styleHash}';`);
      expect(res.headers.get('vary')).toContain('Cookie');
      // Pages go out compressed (fetch decodes them).
      expect(res.headers.get('content-encoding')).toBe('br');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
  });

  it("renders 'Rückblick {Jahr}' with the look back it reads, once a later edition is current", async () => {
    const before = await fetch(`${t.baseUrl}/rueckblick/2027`);
    expect(before.status).toBe(404);
    expect(await before.text()).toContain('<p id="look-back">null</p>');
    expect(siteConfigOf(await (await fetch(`${t.baseUrl}/`)).text())?.lookBackYear).toBeNull();

    const em = t.orm.em.fork();
    await createEdition(em, { year: 2028 });
    await makeCurrent(em, 2028, new Date(APPLYING_NOON.getTime() - 1000));
    const after = await fetch(`${t.baseUrl}/rueckblick/2027`);
    expect(after.status).toBe(200);
    const html = await after.text();
    expect(html).toContain('<p id="look-back">2027: 0 Fahrzeuge</p>');
    // Rendered pages carry their nonce.
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(after.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);
    // The landing page links to the edition before the current one.
    expect(siteConfigOf(await (await fetch(`${t.baseUrl}/`)).text())?.lookBackYear).toBe(2027);
    await makeCurrent(em, 2027, new Date(APPLYING_NOON.getTime() - 500));
  });

  it("renders for the signed-in user and passes the router's redirects on", async () => {
    const client = t.client();
    const { email } = await registerUser(client);
    const page = await client.get('/');
    expect(page.text).toContain(`<p id="who">${email}</p>`);
    const login = await fetch(`${t.baseUrl}/login`, {
      headers: { cookie: client.cookieHeader },
      redirect: 'manual',
    });
    expect(login.status).toBe(307);
    expect(login.headers.get('location')).toBe('/dashboard');
  });

  it('falls back to index.html rendered in the browser when a page cannot be rendered', async () => {
    const res = await fetch(`${t.baseUrl}/impressum`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(siteConfigOf(html)?.eventName).toBe('Schlosstreffen 2027');
  });

  it('gives every other page the current user as data, so the browser need not ask', async () => {
    const anonymous = await (await fetch(`${t.baseUrl}/dashboard`)).text();
    expect(dataBlock(anonymous, CURRENT_USER_ELEMENT_ID)).toBeNull();
    expect(anonymous).not.toContain('nonce');

    const client = t.client();
    const { email } = await registerUser(client);
    const signedIn = await client.get('/dashboard');
    const user = dataBlock(signedIn.text, CURRENT_USER_ELEMENT_ID) as Record<string, unknown>;
    expect(user).toMatchObject({ email, role: 'user' });
    expect(user).not.toHaveProperty('passwordHash');
    expect(user).toEqual((await client.get('/api/auth/user')).data);
    // The check-in page is kept offline by the service worker: it carries no user.
    const checkIn = await client.get('/admin/check-in');
    expect(dataBlock(checkIn.text, CURRENT_USER_ELEMENT_ID)).toBeUndefined();
  });

  it('lets no cache keep a page that names the signed-in user; anonymous pages stay cacheable', async () => {
    for (const route of ['/', '/register', '/dashboard', '/edit/123']) {
      const anonymous = await fetch(`${t.baseUrl}${route}`);
      expect(anonymous.headers.get('cache-control'), route).toBe('no-cache');
    }
    const client = t.client();
    const { email } = await registerUser(client);
    for (const route of ['/', '/register', '/dashboard', '/edit/123']) {
      const page = await client.get(route);
      expect(page.status, route).toBe(200);
      expect(page.text, route).toContain(email);
      expect(page.headers.get('cache-control'), route).toBe('private, no-store');
    }
    // The router's redirect of a signed-in visitor depends on who asks, too.
    const login = await fetch(`${t.baseUrl}/login`, {
      headers: { cookie: client.cookieHeader },
      redirect: 'manual',
    });
    expect(login.status).toBe(307);
    expect(login.headers.get('cache-control')).toBe('private, no-store');
    // The check-in page carries no user and is kept offline: it stays as it was.
    expect((await client.get('/admin/check-in')).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('paths no page serves', () => {
  it('answers 404 with the not-found page rendered on the server; the pages answer 200', async () => {
    const res = await fetch(`${t.baseUrl}/gibt-es-nicht`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<h1>404 Page Not Found</h1><a href="/">Zur Startseite</a>');
    expect(html).toContain('<title>404 Page Not Found – Schlosstreffen</title>');
    expect(html).toContain('Diese Seite gibt es nicht. Zurück zur Startseite des Schlosstreffens.');
    expect(siteConfigOf(html)?.eventName).toBe('Schlosstreffen 2027');
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(res.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);

    for (const route of ['/', '/login', '/dashboard', '/edit/123', '/admin/dashboard']) {
      expect((await fetch(`${t.baseUrl}${route}`)).status, route).toBe(200);
    }
    // The FAQ is a part of the landing page (/#faq), not a page of its own.
    expect((await fetch(`${t.baseUrl}/faq`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/admin/gibt-es-nicht`)).status).toBe(404);
    // The API and stored objects answer in JSON.
    for (const route of ['/api/gibt-es-nicht', '/objects/gibt-es-nicht']) {
      const other = await fetch(`${t.baseUrl}${route}`);
      expect(other.status, route).toBe(404);
      expect(other.headers.get('content-type'), route).toContain('application/json');
    }
  });

  it('lets no cache keep the not-found page, for anyone, also where the build is read once', async () => {
    const anonymous = await fetch(`${t.baseUrl}/gibt-es-nicht`);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const client = t.client();
    await registerUser(client);
    const signedIn = await client.get('/gibt-es-nicht');
    expect(signedIn.status).toBe(404);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');

    // As in production: index.html and the renderer are read once.
    const app = new Koa<AppState>();
    app.use(nonceForRenderedPages);
    app.use(
      serveWeb({
        root: webDist,
        siteConfig: () => Promise.resolve(DEFAULT_SITE_CONFIG),
        cache: true,
        em: t.orm.em,
        staffSecondFactor: false,
        presentUser: () => Promise.reject(new Error('nobody is signed in')),
      }),
    );
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      for (let i = 0; i < 2; i++) {
        const missing = await fetch(`http://127.0.0.1:${port}/gibt-es-nicht`);
        expect(missing.status).toBe(404);
        expect(missing.headers.get('cache-control')).toBe('no-store');
        expect(await missing.text()).toContain('404 Page Not Found');
        const page = await fetch(`http://127.0.0.1:${port}/`);
        expect(page.status).toBe(200);
        expect(page.headers.get('cache-control')).toBe('no-cache');
      }
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('hashed assets of another release', () => {
  it("are served from the bucket once this build lacks them, with the build's immutable caching", async () => {
    // A build's assets, as the release before this one had them (names unique in the shared bucket).
    const tag = randomBytes(4).toString('hex');
    const chunk = `route-${tag}.js`;
    const font = `font-${tag}.woff2`;
    const script = `export const route = '${'x'.repeat(2000)}';`;
    const assets = path.join(webDist, 'assets');
    await mkdir(assets, { recursive: true });
    await writeFile(path.join(assets, chunk), script);
    await writeFile(path.join(assets, `${chunk}.br`), brotliCompressSync(script));
    await writeFile(path.join(assets, font), 'wOF2');
    const s3 = createS3Client(t.config.s3);
    const bucket = t.config.s3.bucket;
    const keys = [chunk, `${chunk}.br`, font].map(webAssetKey);
    try {
      // Published at the api's start: what the bucket lacks, once.
      expect(await publishWebAssets(s3, bucket, assets)).toBe(3);
      expect(await listKeys(s3, bucket, webAssetKey(`route-${tag}`))).toEqual(keys.slice(0, 2));
      expect(await publishWebAssets(s3, bucket, assets)).toBe(0);
      const local = await fetch(`${t.baseUrl}/assets/${chunk}`);
      expect(local.status).toBe(200);

      // The next release's build: its assets directory no longer holds them.
      await rm(assets, { recursive: true });
      const compressed = await fetch(`${t.baseUrl}/assets/${chunk}`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(compressed.status).toBe(200);
      expect(compressed.headers.get('content-encoding')).toBe('br');
      expect(compressed.headers.get('content-type')).toBe(local.headers.get('content-type'));
      expect(compressed.headers.get('cache-control')).toBe(local.headers.get('cache-control'));
      expect(compressed.headers.get('cache-control')).toBe('max-age=31536000,immutable');
      expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
      expect(await compressed.text()).toBe(script);

      const plain = await fetch(`${t.baseUrl}/assets/${chunk}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('content-length')).toBe(String(script.length));
      expect(await plain.text()).toBe(script);
      const etag = plain.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await fetch(`${t.baseUrl}/assets/${chunk}`, {
        // As a browser revalidates (fetch would add `no-cache` to a conditional request otherwise).
        headers: { 'accept-encoding': 'identity', 'if-none-match': etag!, 'cache-control': 'max-age=0' },
      });
      expect(again.status).toBe(304);

      const stored = await fetch(`${t.baseUrl}/assets/${font}`, {
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe('font/woff2');
      expect(await stored.text()).toBe('wOF2');

      // What no release stored, and any other path below /assets/, is not found.
      for (const missing of [`route-${tag}-other.js`, `sub/${chunk}`, `..%2F${chunk}`]) {
        expect((await fetch(`${t.baseUrl}/assets/${missing}`)).status, missing).toBe(404);
      }
    } finally {
      await deleteKeys(s3, bucket, keys);
      s3.destroy();
    }
  });
});
