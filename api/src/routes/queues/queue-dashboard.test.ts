import { MESSAGES } from '@schlosstreffen/shared';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ORIGIN, type TestClient, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: TestClient;
let reviewer: TestClient;
let user: TestClient;

/** A mail job taken by a worker and finished as failed or completed, without running it. */
async function finishedJob(state: 'failed' | 'completed') {
  const job = await t.queues.email.add(
    'email.send',
    { template: 'password-reset', to: `${state}@example.de`, props: {} },
    { attempts: 1, lifo: true },
  );
  const worker = new Worker('email', null, { connection: t.redis, prefix: t.prefix, autorun: false });
  try {
    // Added last in, first out: the job just added is taken first.
    const taken = await worker.getNextJob('test-token');
    if (taken?.id !== job.id) throw new Error(`took ${taken?.id} instead of ${job.id}`);
    if (state === 'failed') await taken.moveToFailed(new Error('SMTP weg'), 'test-token');
    else await taken.moveToCompleted('ok', 'test-token', false);
  } finally {
    await worker.close();
  }
  return job;
}

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
    // Its scripts come from beside it.
    const script = /src="(static\/js\/main[^"]+)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    expect((await admin.get(`/admin/queues/${script}`)).status).toBe(200);

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

    // Cleaning a finished job works, from our origin only.
    const job = await finishedJob('failed');
    const path = `/admin/queues/api/queues/email/${job.id}/clean`;
    const foreign = await admin.request('PUT', path, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await t.queues.email.getJob(job.id!)).toBeDefined();
    const clean = await admin.request('PUT', path, own);
    expect(clean.status, clean.text).toBe(204);
    expect(await t.queues.email.getJob(job.id!)).toBeUndefined();
  });

  it('touches only failed and completed jobs: waiting, delayed and active ones stay as the outbox sent them', async () => {
    const own = { headers: { origin: TEST_ORIGIN } };
    await t.queues.email.obliterate({ force: true });
    // A waiting invitation mail (its outbox row counts as published) and a delayed one.
    const waiting = await t.queues.email.add('email.send', {
      template: 'invitation',
      to: 'w@example.de',
      props: {},
    });
    const delayed = await t.queues.email.add(
      'email.send',
      { template: 'invitation', to: 'd@example.de', props: {} },
      { delay: 3600_000 },
    );
    const refused = [
      `/admin/queues/api/queues/email/${waiting.id}/clean`,
      `/admin/queues/api/queues/email/${delayed.id}/clean`,
      `/admin/queues/api/queues/email/${delayed.id}/promote`,
      `/admin/queues/api/queues/email/${waiting.id}/retry`,
      '/admin/queues/api/queues/email/clean/waiting',
      '/admin/queues/api/queues/email/clean/delayed',
      '/admin/queues/api/queues/email/clean/active',
      '/admin/queues/api/queues/email/clean/paused',
      '/admin/queues/api/queues/email/retry/waiting',
      '/admin/queues/api/queues/email/empty',
      '/admin/queues/api/queues/email/promote',
    ];
    for (const path of refused) {
      const res = await admin.request('PUT', path, own);
      expect(res.status, path).toBe(403);
      expect(res.data, path).toEqual({ message: MESSAGES.queueDashboardFinishedOnly });
    }
    expect(await t.queues.email.getJobState(waiting.id!)).toBe('waiting');
    expect(await t.queues.email.getJobState(delayed.id!)).toBe('delayed');

    // Failed and completed ones: retried, or cleaned one by one and all at once.
    const failed = await finishedJob('failed');
    const retry = await admin.request('PUT', `/admin/queues/api/queues/email/${failed.id}/retry`, own);
    expect(retry.status, retry.text).toBe(204);
    expect(await t.queues.email.getJobState(failed.id!)).toBe('waiting');
    const completed = await finishedJob('completed');
    const cleanOne = await admin.request('PUT', `/admin/queues/api/queues/email/${completed.id}/clean`, own);
    expect(cleanOne.status, cleanOne.text).toBe(204);
    expect(await t.queues.email.getJob(completed.id!)).toBeUndefined();
    // All of a finished state at once (bull-board spares the last 5 seconds' jobs).
    const cleanAll = await admin.request('PUT', '/admin/queues/api/queues/email/clean/completed', own);
    expect(cleanAll.status, cleanAll.text).toBe(200);
    const again = await finishedJob('failed');
    const retryAll = await admin.request('PUT', '/admin/queues/api/queues/email/retry/failed', own);
    expect(retryAll.status, retryAll.text).toBe(200);
    expect(await t.queues.email.getJobState(again.id!)).toBe('waiting');
    expect(await t.queues.email.getJobState(waiting.id!)).toBe('waiting');
  });
});

/** The audit rows written after `seq`, oldest first. */
async function auditRowsAfter(seq: string) {
  return t.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string; target: string | null; details: Record<string, unknown>; route: string }[]>(
      'select action, target, details, route from audit_log where seq > ?::bigint order by seq',
      [seq],
    );
}
async function lastAuditSeq(): Promise<string> {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ seq: string | null }[]>('select max(seq)::text as seq from audit_log');
  return row?.seq ?? '0';
}

/** Makes every insert of `action` into the audit log fail, for the time of `fn`. */
async function auditFailing<T>(action: string, fn: () => Promise<T>): Promise<T> {
  const sql = (statement: string) => t.orm.em.fork().getConnection().execute(statement);
  await sql(`alter table audit_log add constraint audit_fails check (action <> '${action}') not valid`);
  try {
    return await fn();
  } finally {
    await sql('alter table audit_log drop constraint audit_fails');
  }
}

describe('the queue dashboard in the audit log', () => {
  const own = { headers: { origin: TEST_ORIGIN } };

  it('records each read of job data (the job list of a queue, a job, its logs); other reads leave none', async () => {
    const job = await finishedJob('failed');
    const before = await lastAuditSeq();
    expect((await admin.get('/admin/queues')).status).toBe(200);
    expect((await admin.get('/admin/queues/api/queues')).status).toBe(200);
    expect((await admin.get('/admin/queues/api/redis/stats')).status).toBe(200);
    expect(await auditRowsAfter(before)).toEqual([]);

    const list = await admin.get('/admin/queues/api/queues?activeQueue=email&status=failed&page=1');
    expect(list.status, list.text).toBe(200);
    const email = (list.data.queues as Array<{ name: string; jobs: Array<{ id: string }> }>).find(
      (queue) => queue.name === 'email',
    );
    expect(email?.jobs.map((listed) => listed.id)).toContain(job.id);
    const one = await admin.get(`/admin/queues/api/queues/email/${job.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.data.job.data.to).toBe('failed@example.de');
    expect((await admin.get(`/admin/queues/api/queues/email/${job.id}/logs`)).status).toBe(200);

    expect(await auditRowsAfter(before)).toEqual([
      {
        action: 'queues.jobs',
        target: 'email',
        details: { state: 'failed', page: '1' },
        route: 'GET /admin/queues/api/queues',
      },
      {
        action: 'queues.job',
        target: 'email',
        details: { job: job.id },
        route: 'GET /admin/queues/api/queues/:queueName/:jobId',
      },
      {
        action: 'queues.job_logs',
        target: 'email',
        details: { job: job.id },
        route: 'GET /admin/queues/api/queues/:queueName/:jobId/logs',
      },
    ]);
  });

  it('leaves no row for a refused or failed action, or a read of a job that is not there', async () => {
    const waiting = await t.queues.email.add('email.send', {
      template: 'invitation',
      to: 'w@example.de',
      props: {},
    });
    const failed = await finishedJob('failed');
    const before = await lastAuditSeq();
    // Refused: no admin, a change the dashboard does not allow, a job that is not finished, another origin.
    expect((await reviewer.get(`/admin/queues/api/queues/email/${failed.id}`)).status).toBe(403);
    expect((await admin.request('PUT', '/admin/queues/api/queues/email/pause', own)).status).toBe(403);
    expect(
      (await admin.request('PUT', `/admin/queues/api/queues/email/${waiting.id}/retry`, own)).status,
    ).toBe(403);
    expect(
      (
        await admin.request('PUT', `/admin/queues/api/queues/email/${failed.id}/clean`, {
          headers: { origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
    // Failed: bull-board knows no such job.
    expect((await admin.request('PUT', '/admin/queues/api/queues/email/kein-job/clean', own)).status).toBe(
      404,
    );
    expect((await admin.get('/admin/queues/api/queues/email/kein-job')).status).toBe(404);
    expect(await auditRowsAfter(before)).toEqual([]);
    expect(await t.queues.email.getJobState(failed.id!)).toBe('failed');
  });

  it('does not act, and shows no job data, when its audit row cannot be written', async () => {
    const failed = await finishedJob('failed');
    const before = await lastAuditSeq();
    const clean = await auditFailing('queues.clean', () =>
      admin.request('PUT', `/admin/queues/api/queues/email/${failed.id}/clean`, own),
    );
    expect(clean.status).toBe(500);
    expect(await t.queues.email.getJobState(failed.id!)).toBe('failed');

    const read = await auditFailing('queues.job', () =>
      admin.get(`/admin/queues/api/queues/email/${failed.id}`),
    );
    expect(read.status).toBe(500);
    expect(read.text).not.toContain('failed@example.de');
    expect(await auditRowsAfter(before)).toEqual([]);
  });

  it('serves its routes in their one spelling: other spellings and other paths answer 404', async () => {
    const job = await finishedJob('failed');
    for (const path of [
      '/admin/queues/api/Queues',
      '/admin/queues/api/queues/',
      `/admin/queues/api/queues/EMAIL/${job.id}`,
      `/admin/queues/api/queues/email/${job.id}/`,
      `/admin/queues/api/queues/email/${job.id}/Logs`,
      '/Admin/Queues/api/queues',
      '/admin/queues/api/unknown',
      '/admin/queues/nothing-here',
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('failed@example.de');
    }
    const retry = await admin.request('PUT', `/admin/queues/api/queues/email/${job.id}/Retry`, own);
    expect(retry.status).toBe(404);
    expect(await t.queues.email.getJobState(job.id!)).toBe('failed');
    // Signed out, the dashboard's paths ask for a sign-in first.
    expect((await t.client().get('/admin/queues/api/unknown')).status).toBe(401);
  });
});
