import { MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  registerUser,
  TEST_ORIGIN,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';
import { User } from '../users/user.entity.js';

let t: TestContext;
let admin: TestClient;
let reviewer: TestClient;
let user: TestClient;

async function signedIn(role: 'user' | 'reviewer' | 'admin') {
  const client = t.client();
  const { user } = await registerUser(client);
  if (role !== 'user') {
    await t.orm.em.fork().nativeUpdate(User, { id: (user as { id: string }).id }, { role });
  }
  return client;
}

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await signedIn('admin');
  reviewer = await signedIn('reviewer');
  user = await signedIn('user');
});
afterAll(() => t?.close());

describe('queue dashboard at /admin/queues', () => {
  it('sends signed-out visitors to /login and back', async () => {
    const res = await t.client().get('/admin/queues');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fqueues');
    const api = await t.client().get('/admin/queues/api/queues');
    expect(api.status).toBe(401);
    expect(api.data.message).toBe(MESSAGES.unauthorized);
  });

  it('refuses reviewers and users with 403', async () => {
    for (const client of [reviewer, user]) {
      for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
        const res = await client.get(path);
        expect(res.status).toBe(403);
        expect(res.data.message).toBe(MESSAGES.forbidden);
      }
    }
  });

  it('shows admins every queue', async () => {
    const page = await admin.get('/admin/queues');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    await t.queues.email.add('email.send', { template: 'password-reset', to: 'x@example.de', props: {} });
    const res = await admin.get('/admin/queues/api/queues?activeQueue=email&status=waiting&page=1');
    expect(res.status, res.text).toBe(200);
    const names = (res.data.queues as Array<{ name: string }>).map((queue) => queue.name).sort();
    expect(names).toEqual(Object.keys(t.queues).sort());
    const email = (res.data.queues as Array<{ name: string; counts: Record<string, number> }>).find(
      (queue) => queue.name === 'email',
    );
    expect(email?.counts.waiting).toBe(1);
  });

  it('lets admins act only from our own origin', async () => {
    const foreign = await admin.request('PUT', '/admin/queues/api/queues/email/pause', {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(await t.queues.email.isPaused()).toBe(false);
    const own = await admin.request('PUT', '/admin/queues/api/queues/email/pause', {
      headers: { origin: TEST_ORIGIN },
    });
    expect(own.status).toBe(200);
    expect(await t.queues.email.isPaused()).toBe(true);
    await t.queues.email.resume();
  });
});
