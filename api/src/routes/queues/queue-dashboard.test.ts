import { MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ORIGIN, type TestClient, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: TestClient;
let reviewer: TestClient;
let user: TestClient;

async function signedIn(role: 'user' | 'reviewer' | 'admin') {
  return (await t.signIn(role)).client;
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

  it('is read-only but for retry and clean, and acts only from our own origin', async () => {
    const own = { headers: { origin: TEST_ORIGIN } };
    // Pausing, adding a job (e.g. a reset mail with a foreign link) and the like are refused.
    const pause = await admin.request('PUT', '/admin/queues/api/queues/email/pause', own);
    expect(pause.status).toBe(403);
    expect(pause.data).toEqual({ message: MESSAGES.queueDashboardReadOnly });
    expect(await t.queues.email.isPaused()).toBe(false);
    const add = await admin.request('POST', '/admin/queues/api/queues/email/add', {
      ...own,
      json: { name: 'email.send', data: { template: 'password-reset', to: 'opfer@example.de' } },
    });
    expect(add.status).toBe(403);
    expect(await t.queues.email.getJobs(['waiting'])).not.toContainEqual(
      expect.objectContaining({ data: expect.objectContaining({ to: 'opfer@example.de' }) }),
    );

    // Cleaning a job works, from our origin only.
    const job = await t.queues.email.add('email.send', {
      template: 'password-reset',
      to: 'y@example.de',
      props: {},
    });
    const path = `/admin/queues/api/queues/email/${job.id}/clean`;
    const foreign = await admin.request('PUT', path, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await t.queues.email.getJob(job.id!)).toBeDefined();
    const clean = await admin.request('PUT', path, own);
    expect(clean.status, clean.text).toBe(204);
    expect(await t.queues.email.getJob(job.id!)).toBeUndefined();
  });
});
