/**
 * The logs of api and worker, read line by line: a person registers, signs in with a wrong password
 * and then the right one, confirms the address, changes it, and the worker sends the mails. Every
 * line is JSON and holds no password, address, session id or link token; each request is one line
 * naming its route as defined; the request id a proxy sends comes back and reaches the mail job's
 * log line. What the lines hold: docs/operations.md#logs.
 */
import { configureLogger } from '@schlosstreffen/api/core';
import {
  createTestContext,
  mailedLinkToken,
  PASSWORD,
  registerUser,
  uniqueEmail,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWorkersWithPeer, type PeerWorkers } from './testing.js';

/** Every line the process's logger writes, as written (synchronously, one line per write). */
const written: string[] = [];
const capture = { write: (line: string) => void written.push(line) };
const lines = () =>
  written
    .join('')
    .split('\n')
    .filter((line) => line.length > 0);
const entries = () => lines().map((line) => JSON.parse(line) as Record<string, unknown>);

const WAIT = { timeout: 20_000, interval: 100 };
const SESSION_COOKIE = 'st.sid';

let t: TestContext;
let workers: PeerWorkers;

beforeAll(async () => {
  configureLogger({ level: 'trace', format: 'json' }, { destination: capture });
  // Behind a trusted proxy, whose X-Request-Id names the request.
  t = await createTestContext({ env: { TRUST_PROXY: '1' } });
  workers = await startWorkersWithPeer(t);
});
afterAll(async () => {
  await workers?.close();
  await t?.close();
  configureLogger({ level: 'silent', format: 'json' }, { destination: { write: () => undefined } });
});

describe('logs', () => {
  it('name the request and its jobs by one id and never the person', async () => {
    const client = t.client();
    const oldEmail = uniqueEmail('Lena.Weber');
    const newEmail = uniqueEmail('lena.neu');
    const wrongPassword = 'falsches-passwort-42';
    const { user } = await registerUser(client, { email: oldEmail });
    const userId = String(user.id);

    // A wrong password, then the right one on a new client (a new session).
    const wrong = await t.client().post('/api/auth/login', { email: oldEmail, password: wrongPassword });
    expect(wrong.status).toBe(401);
    const signedIn = t.client();
    expect((await signedIn.post('/api/auth/login', { email: oldEmail, password: PASSWORD })).status).toBe(
      200,
    );

    // The account's address confirmed by its mailed link, then changed (the new address confirms it).
    await vi.waitFor(
      () => expect(workers.peer.received.some((m) => m.to.includes(oldEmail.toLowerCase()))).toBe(true),
      WAIT,
    );
    const confirmToken = await mailedLinkToken(t, oldEmail.toLowerCase(), 'account-confirm');
    expect((await signedIn.post('/api/auth/confirm-email', { token: confirmToken })).status).toBe(200);

    // Sent through a proxy that names the request.
    const change = await signedIn.request('PATCH', '/api/auth/profile', {
      json: { firstName: 'Lena', lastName: 'Weber', email: newEmail, currentPassword: PASSWORD },
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(change.status).toBe(200);
    expect(change.headers.get('x-request-id')).toBe('abc-123');
    await vi.waitFor(() => {
      const to = workers.peer.received.flatMap((mail) => mail.to);
      expect(to).toContain(newEmail.toLowerCase());
      expect(to.filter((address) => address === oldEmail.toLowerCase()).length).toBeGreaterThanOrEqual(2);
    }, WAIT);
    const changeToken = await mailedLinkToken(t, newEmail.toLowerCase(), 'email-change-confirm');
    expect((await signedIn.post('/api/auth/confirm-email', { token: changeToken })).status).toBe(200);

    // A request id that is no plain token is replaced by one of the api's own.
    const odd = await signedIn.get('/api/auth/user', { 'x-request-id': 'a b<script>' });
    const made = odd.headers.get('x-request-id');
    expect(made).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(made).not.toBe('a b<script>');
    expect(
      (await signedIn.get('/api/auth/user', { 'x-request-id': 'x'.repeat(129) })).headers.get('x-request-id'),
    ).not.toBe('x'.repeat(129));
    // A route with a parameter is named as defined.
    expect((await signedIn.get('/api/vehicles/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    // Both mails of the change went out under the request's id.
    await vi.waitFor(() => {
      const mailJobs = entries().filter(
        (entry) => entry.job === 'email.send' && entry.msg === 'job done' && entry.requestId === 'abc-123',
      );
      expect(mailJobs.map((entry) => entry.outcome)).toEqual(['sent', 'sent']);
    }, WAIT);

    const sessionId = signedIn.cookie(SESSION_COOKIE);
    const sessionSignature = signedIn.cookie(`${SESSION_COOKIE}.sig`);
    expect(sessionId).toBeTruthy();
    const secrets = [
      PASSWORD,
      wrongPassword,
      oldEmail,
      oldEmail.toLowerCase(),
      newEmail,
      newEmail.toLowerCase(),
      sessionId!,
      sessionSignature!,
      confirmToken,
      changeToken,
    ];

    const all = lines();
    expect(all.length).toBeGreaterThan(10);
    for (const line of all) {
      // Each line is one JSON object.
      expect(() => JSON.parse(line), line).not.toThrow();
      for (const secret of secrets) expect(line.includes(secret), `${secret} in ${line}`).toBe(false);
      // No address of anyone (the sender's included).
      expect(line, line).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
      expect(line.toLowerCase(), line).not.toContain('cookie');
    }

    // Every request once, with method, route as defined, status, duration and id.
    const requests = entries().filter((entry) => entry.msg === 'request');
    for (const entry of requests) {
      expect(entry).toMatchObject({
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        durationMs: expect.any(Number),
        requestId: expect.stringMatching(/^[A-Za-z0-9._-]{1,128}$/),
      });
    }
    const ids = requests.map((entry) => entry.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    const line = (method: string, route: string, status: number) =>
      requests.filter((entry) => entry.method === method && entry.route === route && entry.status === status);
    expect(line('POST', '/api/auth/register', 201)).toHaveLength(1);
    expect(line('POST', '/api/auth/login', 401)).toHaveLength(1);
    expect(line('POST', '/api/auth/login', 200)).toHaveLength(1);
    expect(line('POST', '/api/auth/confirm-email', 200)).toHaveLength(2);
    expect(line('GET', '/api/vehicles/:id', 404)).toHaveLength(1);
    const [changed] = line('PATCH', '/api/auth/profile', 200);
    // The person is named by id, and only once signed in.
    expect(changed).toMatchObject({ requestId: 'abc-123', userId });
    expect(line('POST', '/api/auth/login', 401)[0]!.userId).toBeUndefined();
    expect(requests.filter((entry) => entry.requestId === made)).toHaveLength(1);

    // The worker's lines for the change's jobs carry its id, and every job ended with a line.
    const jobs = entries().filter((entry) => typeof entry.job === 'string');
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    for (const entry of jobs) {
      expect(entry).toMatchObject({ jobId: expect.any(String), requestId: expect.any(String) });
    }
  });
});
