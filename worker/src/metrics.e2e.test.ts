import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createApp } from '@schlosstreffen/api/app';
import { createS3Client } from '@schlosstreffen/api/core';
import {
  createTestContext,
  insertSubmittedApplications,
  sampleValue,
  type InsertedApplication,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { waitForMail } from '@schlosstreffen/infra/dev-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Both metrics endpoints around one status change and its mail: an admin moves an application to
 * the waitlist, the mail job waits in the email queue (held, so the scrape sees it) and then a real
 * worker process sends it. The api's request histogram has the change under its route, the
 * worker's queue gauge showed the job and its mail counter moved by one; without the token, or
 * with another, both answer 401; with none configured the api answers 404.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUN = randomBytes(3).toString('hex');
const TOKEN = randomBytes(24).toString('base64url');
const STATUS_ROUTE = '/api/admin/vehicles/:id/status';

let t: TestContext;
let admin: SignedIn;
let application: InsertedApplication;
let worker: ChildProcess | undefined;
let workerOutput = '';
let workerUrl: string;
let plain: Server | undefined;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const scrape = (base: string, authorization: string | null = `Bearer ${TOKEN}`) =>
  fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

async function metricsOf(base: string): Promise<string> {
  const res = await scrape(base);
  expect(res.status, base).toBe(200);
  return res.text();
}

/** Polls until `check` holds; fails after `ms` with what the worker printed. */
async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${workerOutput}`);
    await sleep(50);
  }
}

beforeAll(async () => {
  t = await createTestContext({ env: { METRICS_TOKEN: TOKEN } });
  admin = await t.signIn('admin', { firstName: 'Anna' });
  application = (await insertSubmittedApplications(t, 1, { label: `metrics-${RUN}` }))[0]!;
  // The real worker entry, from source, on this test's database, Redis prefix and mail catcher.
  const port = await freePort();
  workerUrl = `http://127.0.0.1:${port}`;
  worker = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'worker'),
    env: { ...process.env, ...t.env, WORKER_METRICS_PORT: String(port), SCHEDULER_TICK_MINUTES: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [worker.stdout!, worker.stderr!]) {
    stream.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  }
  await until(
    () =>
      scrape(workerUrl).then(
        (res) => res.ok,
        () => false,
      ),
    'the worker serves its metrics',
    60_000,
  );
}, 90_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (worker.exitCode === null) worker.kill('SIGKILL');
  }
  plain?.closeAllConnections();
  await new Promise((resolve) => (plain ? plain.close(resolve) : resolve(undefined)));
  await t?.close();
});

const MAILS = 'schlosstreffen_mails_total';
const SENT = { queue: 'email', name: 'email.send' };
const jobs = (text: string, state: string) =>
  sampleValue(text, 'schlosstreffen_queue_jobs', { queue: 'email', state });

describe('metrics of a status change and its mail', () => {
  it('moves the request histogram, shows the job in the email queue and counts the mail delivered', async () => {
    // What came before (the admin's registration mail) is sent and counted first.
    let workerBefore = '';
    await until(async () => {
      workerBefore = await metricsOf(workerUrl);
      const busy =
        jobs(workerBefore, 'waiting') + jobs(workerBefore, 'active') + jobs(workerBefore, 'delayed');
      return busy === 0 && sampleValue(workerBefore, 'schlosstreffen_outbox_oldest_pending_seconds') === 0;
    }, 'the earlier mails are out');
    const apiBefore = await metricsOf(t.baseUrl);
    // Every fate is there from the start.
    for (const fate of ['zugestellt', 'abgelehnt', 'fehlgeschlagen', 'zurückgehalten']) {
      expect(workerBefore, fate).toMatch(new RegExp(`^${MAILS}\\{fate="${fate}"\\} \\d+$`, 'm'));
    }
    const delivered = sampleValue(workerBefore, MAILS, { fate: 'zugestellt' });
    const runs = sampleValue(workerBefore, 'schlosstreffen_job_duration_seconds_count', SENT);

    // The email queue holds its jobs for a moment, so a scrape sees the mail's job waiting.
    await t.queues.email.pause();
    const changed = await admin.client.patch(`/api/admin/vehicles/${application.id}/status`, {
      status: 'waitlist',
      oldStatus: 'submitted',
    });
    expect(changed.status, changed.text).toBe(200);
    let waiting = '';
    await until(async () => {
      waiting = await metricsOf(workerUrl);
      return jobs(waiting, 'waiting') === 1;
    }, 'the job waits in the email queue');
    expect(jobs(waiting, 'active')).toBe(0);
    expect(jobs(waiting, 'failed')).toBe(0);
    // The relay handed the outbox row over at once.
    expect(sampleValue(waiting, 'schlosstreffen_outbox_oldest_pending_seconds')).toBeLessThan(60);
    expect(sampleValue(waiting, MAILS, { fate: 'zugestellt' })).toBe(delivered);

    await t.queues.email.resume();
    const mail = await waitForMail(
      t.services.mailWebUrl,
      (caught) => caught.to.some((to) => to.address === application.email),
      20_000,
    );
    expect(mail.subject).toBeTruthy();
    let after = '';
    await until(async () => {
      after = await metricsOf(workerUrl);
      return sampleValue(after, MAILS, { fate: 'zugestellt' }) > delivered;
    }, 'the mail is counted');
    // Moved by one, and no other fate moved.
    expect(sampleValue(after, MAILS, { fate: 'zugestellt' })).toBe(delivered + 1);
    expect(sampleValue(after, MAILS)).toBe(sampleValue(workerBefore, MAILS) + 1);
    expect(jobs(after, 'waiting') + jobs(after, 'active')).toBe(0);
    expect(sampleValue(after, 'schlosstreffen_job_duration_seconds_count', SENT)).toBe(runs + 1);
    expect(sampleValue(after, 'schlosstreffen_job_failures_total')).toBe(0);
    // No backup has run under this prefix.
    expect(after).toMatch(/^schlosstreffen_last_backup_timestamp_seconds 0$/m);

    const apiAfter = await metricsOf(t.baseUrl);
    const labels = { method: 'PATCH', route: STATUS_ROUTE, status_class: '2xx' };
    const count = 'schlosstreffen_http_request_duration_seconds_count';
    expect(sampleValue(apiAfter, count, labels) - sampleValue(apiBefore, count, labels)).toBe(1);
    expect(apiAfter).not.toContain(application.id);
  });

  it('answers 401 on both endpoints without the token and with another one', async () => {
    for (const base of [t.baseUrl, workerUrl]) {
      for (const authorization of [null, `Bearer ${randomBytes(24).toString('base64url')}`]) {
        const res = await scrape(base, authorization);
        expect(res.status, `${base} ${authorization ?? 'without'}`).toBe(401);
        expect(await res.text()).not.toContain('schlosstreffen_');
      }
    }
  });

  it('answers 404 at the api with no token configured', async () => {
    const app = createApp({
      config: { ...t.config, metricsToken: undefined },
      em: t.orm.em,
      redis: t.redis,
      s3: createS3Client(t.config.s3),
      redisPrefix: t.prefix,
      log: () => undefined,
    });
    plain = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => plain!.once('listening', resolve));
    const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    expect((await scrape(base)).status).toBe(404);
    expect((await scrape(base, null)).status).toBe(404);
  });
});
