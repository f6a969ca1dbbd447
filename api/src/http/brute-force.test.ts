/**
 * Client addresses behind a trusted proxy, and limits that rotating addresses or accounts do not
 * get around (one proxy hop trusted, as behind a TLS-terminating proxy).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, registerUser, uniqueEmail, type TestContext } from '../testing/index.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false, env: { TRUST_PROXY: '1' } });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

/** A login as it arrives through the proxy: the client's header, then the address the proxy saw. */
const loginFrom = (forwardedFor: string, body: { email: string; password: string }) =>
  t.client().request('POST', '/api/auth/login', { json: body, headers: { 'x-forwarded-for': forwardedFor } });

describe('behind one trusted proxy', () => {
  it('refuses 30 logins to one account from 30 addresses well before the 30th', async () => {
    const { email } = await registerUser(t.client());
    const statuses: number[] = [];
    for (let i = 1; i <= 30; i++) {
      statuses.push((await loginFrom(`203.0.113.${i}`, { email, password: 'rate-mal' })).status);
    }
    const first429 = statuses.indexOf(429) + 1;
    console.log(
      `30 addresses, one account: first 429 at attempt ${first429}; statuses ${statuses.join(' ')}`,
    );
    expect(first429).toBeGreaterThan(0);
    expect(first429).toBeLessThanOrEqual(t.config.rateLimits.loginPerAccount.free + 2);
    expect(statuses.slice(first429 - 1).every((status) => status === 429)).toBe(true);
  });

  it('takes the address the proxy saw, not one the client wrote in front of it', async () => {
    const limit = t.config.rateLimits.loginPerIp.points;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      // A fresh account each time, and a made-up address each time: only the proxy's entry counts.
      const forged = `198.51.100.${i % 250}, 192.0.2.7`;
      statuses.push((await loginFrom(forged, { email: uniqueEmail('rotation'), password: 'x' })).status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await loginFrom('192.0.2.8', { email: uniqueEmail('andere'), password: 'x' })).status).toBe(401);
  });

  it('limits reset mails per account across addresses, answering alike for unknown accounts', async () => {
    const { email } = await registerUser(t.client());
    const forgot = (address: string, body: { email: string }) =>
      t.client().request('POST', '/api/auth/forgot-password', {
        json: body,
        headers: { 'x-forwarded-for': address },
      });
    const limit = t.config.rateLimits.forgotPerAccount.points;
    for (const account of [email, uniqueEmail('unbekannt')]) {
      for (let i = 0; i < limit; i++)
        expect((await forgot(`203.0.113.${100 + i}`, { email: account })).status).toBe(200);
      expect((await forgot('203.0.113.200', { email: account })).status).toBe(429);
    }
  });
});

describe('without the header', () => {
  it('holds the per-address limit', async () => {
    const limit = t.config.rateLimits.loginPerIp.points;
    for (let i = 0; i < limit; i++) {
      expect(
        (await t.client().post('/api/auth/login', { email: uniqueEmail('direkt'), password: 'x' })).status,
      ).toBe(401);
    }
    expect(
      (await t.client().post('/api/auth/login', { email: uniqueEmail('direkt'), password: 'x' })).status,
    ).toBe(429);
  });
});
