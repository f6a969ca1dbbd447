import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../app.js';
import { createTestContext, type TestContext } from '../testing/index.js';
import { KEPT_FILE_BYTES, withStaticFastPath } from './fast-path.js';

/**
 * The built files kept in memory in front of the middleware, on the app with a built client of a few
 * files: kept per file and coding, never per spelling of the request or its Accept-Encoding, and
 * within their byte cap.
 */

const SCRIPT = `console.log(${JSON.stringify('Schloss '.repeat(500))});`;
const STYLE = 'body { margin: 0 }';
const APP = '/assets/app-Ab12.js';
const PLAIN = '/assets/plain-Cd34.css';
const ROBOTS = '/robots.txt';

let t: TestContext;
let webDist: string;
const servers: Server[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'fast-path-'));
  await mkdir(path.join(webDist, 'assets'));
  // A script with the .br and .gz the build writes beside it; a style sheet and robots.txt without.
  await writeFile(path.join(webDist, APP), SCRIPT);
  await writeFile(path.join(webDist, `${APP}.br`), brotliCompressSync(SCRIPT));
  await writeFile(path.join(webDist, `${APP}.gz`), gzipSync(SCRIPT));
  await writeFile(path.join(webDist, PLAIN), STYLE);
  await writeFile(path.join(webDist, ROBOTS), 'User-agent: *\n');
  for (const name of ['a', 'b', 'c']) {
    await writeFile(path.join(webDist, 'assets', `${name}.js`), `// ${name}\n${'x'.repeat(20_000)}`);
  }
  t = await createTestContext({ relay: false, env: { WEB_DIST: webDist } });
});
afterAll(async () => {
  agent.destroy();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

/** The test's app behind the fast path for built files, as main.ts puts it in front in production. */
async function serve(maxBytes?: number) {
  let stackRequests = 0;
  const callback = t.app.callback();
  const listener = withStaticFastPath(
    t.app,
    (req, res) => {
      stackRequests += 1;
      void callback(req, res);
    },
    { files: { root: webDist, all: true, maxBytes }, sessionCookie: SESSION_COOKIE, requireHttps: false },
  );
  const server = createServer(listener).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, stats: listener.stats, stackRequests: () => stackRequests };
}

/** A GET of exactly this request target (no client normalises it), the raw bytes back. */
function get(port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** The i-th spelling of a file's path: now and then its own name, else one of many others. */
function spelling(file: string, i: number): string {
  const slash = file.lastIndexOf('/');
  const dir = file.slice(0, slash);
  const name = file.slice(slash + 1);
  const at = i % name.length;
  const hex = name.charCodeAt(at).toString(16);
  const encoded = `${name.slice(0, at)}%${i % 2 ? hex.toUpperCase() : hex}${name.slice(at + 1)}`;
  switch (i % 6) {
    case 0:
      return file;
    case 1:
      return `${dir}/${encoded}`;
    case 2:
      return `${dir}/x${i}/../${encoded}`;
    case 3:
      return `${dir}${'/'.repeat(2 + (i % 5))}${name}`;
    case 4:
      return `${dir}/${'./'.repeat(1 + (i % 7))}${name}`;
    default:
      return `${file}?v=${i}`;
  }
}

/** The i-th Accept-Encoding: a value no other request sent, negotiating Brotli, gzip or none. */
function acceptEncoding(i: number): string {
  const q = `0.${1 + (i % 9)}`;
  switch (i % 5) {
    case 0:
      return `gzip, deflate, br, x-${i}`;
    case 1:
      return `gzip;q=${q}, x-${i}`;
    case 2:
      return `identity, x-${i};q=${q}`;
    case 3:
      return `br;q=${q}, gzip;q=0.05, x-${i}`;
    default:
      return `x-${i}, *;q=${q}`;
  }
}

describe('built files kept in memory', () => {
  it('holds one entry per file and coding, whatever the spellings and Accept-Encoding values', async () => {
    const { port, stats, stackRequests } = await serve();
    const files = [APP, PLAIN, ROBOTS];
    const answered: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < 10_000; i = next++) {
          const target = spelling(files[i % 3]!, Math.floor(i / 3));
          const { status } = await get(port, target, { 'accept-encoding': acceptEncoding(i) });
          // Every spelling is answered as the stack answers it: the file, or the pages' 404 where an
          // encoded dot hides the extension.
          expect(status).toBe(/%2e[a-z]+$/i.test(target) ? 404 : 200);
          answered.push(status);
        }
      }),
    );
    expect(answered).toHaveLength(10_000);
    // The bytes of the last answers kept are read once they are out.
    await sleep(100);
    const { entries, bytes } = stats();
    expect(Object.fromEntries(entries)).toEqual({ [APP]: 3, [PLAIN]: 3, [ROBOTS]: 3 });
    expect(bytes).toBeGreaterThan(SCRIPT.length);
    expect(bytes).toBeLessThan(KEPT_FILE_BYTES);

    // A file's own name is answered from memory in each coding.
    const before = stackRequests();
    for (const [header, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, x-again', 'gzip'],
      ['identity', undefined],
    ]) {
      const answer = await get(port, APP, { 'accept-encoding': header! });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(coding);
    }
    const plain = await get(port, PLAIN, { 'accept-encoding': 'br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(STYLE);
    expect(stackRequests()).toBe(before);

    // Without a trusted proxy an answer from memory names its request itself.
    const named = await get(port, APP, { 'x-request-id': 'abc-123' });
    expect(named.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('holds at most its bytes, the least recently asked for file out first', async () => {
    const { port, stats, stackRequests } = await serve(60_000);
    const ask = async (name: string) => {
      expect((await get(port, `/assets/${name}.js`, { 'accept-encoding': 'identity' })).status).toBe(200);
      await sleep(50);
    };
    await ask('a');
    await ask('b');
    const kept = stats();
    expect([...kept.entries.keys()]).toEqual(['/assets/a.js', '/assets/b.js']);
    // a from memory: the most recent now; c pushes out b.
    const before = stackRequests();
    await ask('a');
    expect(stackRequests()).toBe(before);
    await ask('c');
    expect([...stats().entries.keys()].sort()).toEqual(['/assets/a.js', '/assets/c.js']);
    expect(stats().bytes).toBeLessThanOrEqual(60_000);
    expect(stats().bytes).toBeGreaterThan(40_000);
    await ask('b');
    expect(stackRequests()).toBe(before + 2);
  });
});
