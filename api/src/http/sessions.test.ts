import { createHash } from 'node:crypto';
import { MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../core/accounts/roles.js';
import { systemAuditActor } from '../core/audit/audit.js';
import { createTestContext, PASSWORD, type TestContext } from '../testing/index.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

const sessionRows = (userId: string) =>
  t.orm.em
    .getConnection()
    .execute<{ sid: string; sess: { signedInAt?: number } }[]>(
      `select sid, sess from session where sess->>'userId' = ?`,
      [userId],
    );

describe('sessions', () => {
  it('are stored as hashes of their ids only', async () => {
    const { client, id } = await t.signIn();
    const cookie = /st\.sid=([^;]+)/.exec(client.cookieHeader)?.[1];
    expect(cookie).toBeTruthy();
    const rows = await sessionRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sid).not.toBe(cookie);
    expect(rows[0]!.sid).toBe(createHash('sha256').update(cookie!).digest('hex'));
    // The table's content does not work as a cookie.
    const thief = t.client();
    thief.setCookies(client);
    const stolen = thief.cookieHeader.replace(cookie!, rows[0]!.sid);
    const res = await fetch(`${t.baseUrl}/api/auth/user`, { headers: { cookie: stolen } });
    expect(res.status).toBe(401);
  });

  it('end after their absolute lifetime however active they are', async () => {
    const { client, id } = await t.signIn();
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const [row] = await sessionRows(id);
    expect(row!.sess.signedInAt).toBeGreaterThan(Date.now() - 60_000);
    const old = Date.now() - 31 * 24 * 3600 * 1000;
    await t.orm.em
      .getConnection()
      .execute(`update session set sess = jsonb_set(sess, '{signedInAt}', ?::jsonb) where sid = ?`, [
        String(old),
        row!.sid,
      ]);
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('end when the account gets another role, so privileges come with a new sign-in', async () => {
    const { client, email } = await t.signIn();
    const other = t.client();
    expect((await other.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    await setRole(t.orm.em, email, 'reviewer', { actor: systemAuditActor('Kommandozeile') });
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).data.role).toBe(
      'reviewer',
    );
  });
});

describe('a site served over HTTPS', () => {
  let https: TestContext;
  beforeAll(async () => {
    https = await createTestContext({
      relay: false,
      env: {
        PUBLIC_URL: 'https://schlosstreffen.example',
        TRUST_PROXY: '1',
        ALLOWED_ORIGINS: 'http://localhost:3000',
      },
    });
  });
  afterAll(() => https?.close());

  it('answers plain HTTP clearly instead of failing on the Secure cookie', async () => {
    const res = await https.client().post('/api/auth/login', { email: 'a@b.de', password: 'x' });
    expect(res.status).toBe(403);
    expect(res.data).toEqual({ message: MESSAGES.httpsRequired });
    const page = await fetch(`${https.baseUrl}/dashboard?x=1`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('https://schlosstreffen.example/dashboard?x=1');
    expect((await fetch(`${https.baseUrl}/healthz`)).status).toBe(200);
  });

  it('sets a Secure cookie for requests the TLS proxy forwarded', async () => {
    const client = https.client();
    const res = await client.request('POST', '/api/auth/register', {
      json: {
        firstName: 'Sina',
        lastName: 'Sicher',
        email: `sicher-${Date.now()}@example.de`,
        password: PASSWORD,
      },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('set-cookie')).toMatch(/st\.sid=[^;]+;.*secure/i);
  });
});
