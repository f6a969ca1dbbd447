import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app.js';
import { configureLogger } from '../../core/logger.js';
import { PublicInputs } from '../../core/public-list/public-inputs.js';
import { publicListReader } from '../../core/public-list/public-vehicle.read.js';
import { createS3Client } from '../../core/storage/s3.js';
import { createTestContext, insertListedVehicle, type TestContext } from '../../testing/index.js';
import { PUBLIC_LIST_PATH, withPublicListFastPath } from './public-list.js';

let t: TestContext;
let changes: PublicInputs;
let stack: Server;
let fast: Server;
/** Requests that reached the middleware (of either server). */
let stackRequests = 0;

const listen = async (server: Server) => {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
let stackUrl: string;
let fastUrl: string;

beforeAll(async () => {
  // Behind a trusted proxy, whose X-Request-Id names the request.
  t = await createTestContext({ relay: false, env: { TRUST_PROXY: '1' } });
  changes = new PublicInputs(t.env.DATABASE_URL!, () => undefined);
  await changes.start(t.orm.em);
  const app = createApp({
    config: t.config,
    em: t.orm.em,
    redis: t.redis,
    s3: createS3Client(t.config.s3),
    redisPrefix: t.prefix,
    publicListChanges: changes,
    log: () => undefined,
  });
  app.middleware.unshift((_ctx, next) => {
    stackRequests += 1;
    return next();
  });
  stack = createServer(app.callback());
  const currentEditionId = async () => t.event.edition.id;
  fast = createServer(
    withPublicListFastPath(app, publicListReader(t.orm.em, currentEditionId, changes), false),
  );
  stackUrl = await listen(stack);
  fastUrl = await listen(fast);
});
afterAll(async () => {
  for (const server of [stack, fast]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await changes?.close();
  await t?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The request id of the last answer `raw` read (X-Request-Id differs from answer to answer). */
let lastRequestId: string | undefined;

/** The answer as sent: raw bytes (no decompression), headers without the per-connection ones. */
function raw(base: string, method: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${PUBLIC_LIST_PATH}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const {
          date: _date,
          connection: _connection,
          'keep-alive': _keepAlive,
          'x-request-id': requestId,
          ...rest
        } = res.headers;
        lastRequestId = typeof requestId === 'string' ? requestId : undefined;
        resolve({ status: res.statusCode!, headers: rest, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const VARIANTS: Record<string, string>[] = [
  { 'accept-encoding': 'identity' },
  {},
  { 'accept-encoding': 'gzip, deflate' },
  { 'accept-encoding': 'gzip, deflate, br, zstd' },
  { 'accept-encoding': 'br;q=0.5, gzip;q=0.9' },
  { 'accept-encoding': 'gzip', 'if-none-match': '"eine-andere-version"' },
];

/** Every variant on both servers: equal answers. Returns how many reached the middleware on the fast one. */
async function compareAll(): Promise<number> {
  let viaStack = 0;
  for (const method of ['GET', 'HEAD']) {
    for (const headers of VARIANTS) {
      const expected = await raw(stackUrl, method, headers);
      expect(expected.status).toBe(200);
      const before = stackRequests;
      const answer = await raw(fastUrl, method, headers);
      viaStack += stackRequests - before;
      expect(answer).toEqual(expected);

      const revalidate = { ...headers, 'if-none-match': String(expected.headers.etag) };
      const notModified = await raw(stackUrl, method, revalidate);
      expect(notModified.status).toBe(304);
      const beforeRevalidation = stackRequests;
      expect(await raw(fastUrl, method, revalidate)).toEqual(notModified);
      viaStack += stackRequests - beforeRevalidation;
    }
  }
  return viaStack;
}

describe('the public list in front of the middleware', () => {
  it('answers with the bytes and headers of the stack, 304 included, and leaves changes to the stack', async () => {
    await insertListedVehicle(t, 'BMW');
    // Cold: the stack answers and the list is kept.
    const before = stackRequests;
    const first = await raw(fastUrl, 'GET');
    expect(stackRequests).toBe(before + 1);
    expect(first.headers['content-security-policy']).toContain("default-src 'self'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');

    expect(await compareAll()).toBe(0);
    // Each answer names its request as the stack's do: a proxy's id, else one of its own; and
    // logs it as one line with the route.
    const written: string[] = [];
    configureLogger(
      { level: 'info', format: 'json' },
      { destination: { write: (line) => void written.push(line) } },
    );
    const viaStack = stackRequests;
    await raw(fastUrl, 'GET', { 'x-request-id': 'abc-123' });
    expect(stackRequests).toBe(viaStack);
    expect(lastRequestId).toBe('abc-123');
    await vi.waitFor(() => expect(written).toHaveLength(1));
    configureLogger({ level: 'silent', format: 'json' }, { destination: { write: () => undefined } });
    expect(JSON.parse(written[0]!)).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: PUBLIC_LIST_PATH,
      status: 200,
      durationMs: expect.any(Number),
      requestId: 'abc-123',
    });
    await raw(fastUrl, 'GET', { 'x-request-id': 'no id, a sentence' });
    const made = lastRequestId;
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    await raw(fastUrl, 'GET');
    expect(lastRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastRequestId).not.toBe(made);

    // Another connection changes the read model: the next answer comes from the stack, with it.
    const version = changes.version;
    await insertListedVehicle(t, 'Audi');
    for (let waited = 0; changes.version === version; waited += 10) {
      if (waited > 5000) throw new Error('no notification');
      await sleep(10);
    }
    const afterChange = stackRequests;
    const changed = await raw(fastUrl, 'GET', { 'accept-encoding': 'identity' });
    expect(stackRequests).toBe(afterChange + 1);
    expect((JSON.parse(changed.body.toString()) as { brand: string }[]).map((v) => v.brand)).toEqual([
      'BMW',
      'Audi',
    ]);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(await compareAll()).toBe(0);
  });

  it('leaves other paths and methods to the stack', async () => {
    for (const [method, path] of [
      ['POST', PUBLIC_LIST_PATH],
      ['GET', `${PUBLIC_LIST_PATH}/`],
      ['GET', '/api/vehicles'],
    ] as const) {
      const before = stackRequests;
      const response = await fetch(`${fastUrl}${path}`, {
        method,
        headers: { origin: 'http://localhost:3000' },
      });
      await response.arrayBuffer();
      expect(stackRequests, `${method} ${path}`).toBe(before + 1);
    }
  });
});
