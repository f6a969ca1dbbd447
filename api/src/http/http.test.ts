import Koa from 'koa';
import { MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TestClient, type TestContext } from '../testing/index.js';
import { errorHandler } from './error-handler.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

describe('HTTP layer', () => {
  it('serves health and readiness', async () => {
    expect((await t.client().get('/healthz')).data).toEqual({ status: 'ok' });
    const ready = await t.client().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.data).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok', storage: 'ok' } });
  });

  it('refuses a mutation from a foreign origin', async () => {
    const res = await t.client({ origin: 'https://evil.example' }).post('/api/auth/forgot-password', {
      email: 'a@b.de',
    });
    expect(res.status).toBe(403);
    expect(res.data).toEqual({ message: MESSAGES.foreignOrigin });
  });

  it('refuses a cross-site request without Origin', async () => {
    const res = await t
      .client({ origin: '' })
      .post('/api/auth/logout', {}, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
  });

  it('accepts JSON only for mutations', async () => {
    const res = await t.client().request('POST', '/api/auth/login', {
      body: 'email=a%40b.de&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.data).toEqual({ message: MESSAGES.jsonOnly });
  });

  it('answers malformed JSON with a German 400', async () => {
    const res = await t.client().request('POST', '/api/auth/login', {
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ message: MESSAGES.malformedJson });
  });

  it('answers a body that is not an object with a German 400', async () => {
    const res = await t.client().request('POST', '/api/auth/login', {
      body: '"text"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.data.message).toBe('string');
  });

  it('refuses a NUL character anywhere in a body, which the database could not store', async () => {
    const { client } = await t.signIn('admin');
    for (const body of [
      { code: 'a\u0000b' },
      { code: '1', ['x\u0000']: 1 },
      { code: '1', list: [['\u0000']] },
    ]) {
      const res = await client.post('/api/admin/check-in', body);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ message: MESSAGES.nulCharacter });
    }
  });

  it('answers unknown API routes with JSON 404', async () => {
    const res = await t.client().get('/api/gibt-es-nicht');
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ message: MESSAGES.notFound });
  });

  it('sends security headers with a strict CSP', async () => {
    const res = await t.client().get('/api/auth/user');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the request id', () => {
  it("is a proxy's X-Request-Id only behind a trusted proxy, else the api's own", async () => {
    const sent = { 'x-request-id': 'abc-123' };
    const direct = (await t.client().get('/healthz', sent)).headers.get('x-request-id');
    expect(direct).toMatch(/^[0-9a-f-]{36}$/);
    const proxied = await createTestContext({ relay: false, env: { TRUST_PROXY: '1' } });
    try {
      expect((await proxied.client().get('/healthz', sent)).headers.get('x-request-id')).toBe('abc-123');
      // Not a plain token: a new one even from the proxy.
      const odd = await proxied.client().get('/healthz', { 'x-request-id': 'a b<script>' });
      expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await proxied.close();
    }
  });
});

describe('errorHandler', () => {
  it('hides internal errors behind a German 500 without stack traces', async () => {
    const logged: unknown[] = [];
    const app = new Koa();
    app.use(errorHandler((error) => logged.push(error)));
    app.use(() => {
      throw new Error('connection string postgres://secret@db leaked');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const res = await new TestClient(`http://127.0.0.1:${port}`).get('/');
    server.close();
    expect(res.status).toBe(500);
    expect(res.data).toEqual({ message: MESSAGES.internal });
    expect(res.text).not.toMatch(/secret|at \w|Error/);
    expect(logged).toHaveLength(1);
  });
});
