import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { BulkStatusPreview, BulkStatusResult } from '@schlosstreffen/shared/api';
import {
  createTestContext,
  insertSubmittedApplications,
  type InsertedApplication,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { listMails, type CaughtMail } from '@schlosstreffen/infra/dev-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A reviewer moves 51 applications to the waitlist at once, one of which someone else has moved on
 * meanwhile: 50 status-log rows and 50 outbox mails, the stale one refused alone. A real worker
 * process sends the mails and is killed (SIGKILL) half-way; a new one finishes: each of the 50
 * applicants gets the mail the preview announced, once. The figures it prints are explained in
 * docs/development.md#organizer-features-measured.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RUN = randomBytes(3).toString('hex');
const SELECTED = 51;
const MOVED = SELECTED - 1;

let t: TestContext;
let reviewer: SignedIn;
let other: SignedIn;
let applications: InsertedApplication[];
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestContext();
  [reviewer, other] = await Promise.all([
    t.signIn('reviewer', { firstName: 'Rita' }),
    t.signIn('admin', { firstName: 'Anna' }),
  ]);
  applications = await insertSubmittedApplications(t, SELECTED, {
    label: `bulk-${RUN}`,
    model: `Corsa${RUN}`,
  });
}, 60_000);

afterAll(async () => {
  for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
  await t?.close();
});

/** The real worker entry, from source, on this test's database, Redis prefix and mail catcher. */
function startWorker(): ChildProcess {
  // From the worker's folder, so tsx compiles its JSX with the worker's tsconfig.
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'worker'),
    // One mail at a time, so the kill lands half-way.
    env: { ...process.env, ...t.env, WORKER_CONCURRENCY: '1', SCHEDULER_TICK_MINUTES: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

const sql = <T>(query: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute<T[]>(query, params);
const OURS = `bulk-${RUN}-%`;

/** The email log of the mails to addresses starting with `label`-: per state. */
async function logStates(label = `bulk-${RUN}`): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(
    `select status, count(*)::int as n from email_log where recipient like ? group by status`,
    [`${label}-%`],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** Waits until `sent` mails of the label went out; fails after `ms`. */
async function waitForSent(sent: number, ms: number, label = `bulk-${RUN}`): Promise<void> {
  const began = Date.now();
  for (;;) {
    const states = await logStates(label);
    if ((states.sent ?? 0) >= sent) return;
    if (states.failed || Date.now() - began > ms) throw new Error(`no progress: ${JSON.stringify(states)}`);
    await sleep(20);
  }
}

/** The caught mails to addresses starting with `label`-, by recipient. */
async function caughtByRecipient(label = `bulk-${RUN}`): Promise<Map<string, CaughtMail[]>> {
  const mails = (await listMails(t.services.mailWebUrl)).filter((mail) =>
    mail.to.some((to) => to.address.startsWith(`${label}-`)),
  );
  const byRecipient = new Map<string, CaughtMail[]>();
  for (const mail of mails) {
    const to = mail.to[0]!.address;
    byRecipient.set(to, [...(byRecipient.get(to) ?? []), mail]);
  }
  return byRecipient;
}

describe('50 applications to the waitlist at once', () => {
  it('writes 50 log rows and 50 mails, and each applicant gets it once, a worker killed half-way included', async () => {
    const previewed = await reviewer.client.post('/api/admin/vehicles/bulk-status/preview', {
      status: 'waitlist',
      filter: { status: 'submitted', q: `corsa${RUN}` },
    });
    expect(previewed.status, previewed.text).toBe(200);
    const preview = previewed.data as BulkStatusPreview;
    expect(preview).toMatchObject({ selected: SELECTED, mails: SELECTED, skipped: [] });

    // Someone else moves one on between the preview and the change.
    const stale = applications[17]!;
    const moved = await other.client.patch(`/api/admin/vehicles/${stale.id}/status`, {
      status: 'in_review',
      oldStatus: 'submitted',
    });
    expect(moved.status, moved.text).toBe(200);

    const applied = await reviewer.client.post('/api/admin/vehicles/bulk-status', {
      status: 'waitlist',
      changes: preview.changes.map((row) => ({ id: row.id, oldStatus: row.oldStatus })),
      comment: 'Warteliste nach der Vorauswahl',
    });
    expect(applied.status, applied.text).toBe(200);
    const result = applied.data as BulkStatusResult;
    expect(result).toMatchObject({ changed: MOVED, unchanged: 0, refused: 1, mails: MOVED });
    expect(result.rows.filter((row) => row.outcome === 'refused')).toEqual([
      {
        id: stale.id,
        title: `Opel Corsa${RUN} 17`,
        outcome: 'refused',
        status: 'in_review',
        reason: 'Der Status wurde inzwischen geändert: jetzt „In Prüfung“ statt „Eingereicht“.',
        mail: false,
      },
    ]);

    const ids = `{${applications.map((a) => a.id).join(',')}}`;
    const [log] = await sql<{ waitlist: number; by_reviewer: number }>(
      `select count(*)::int as waitlist, count(*) filter (where reviewer_id = ?)::int as by_reviewer
         from review where kind = 'status' and new_status = 'waitlist' and vehicle_id = any(?::uuid[])`,
      [reviewer.id, ids],
    );
    expect(log).toEqual({ waitlist: MOVED, by_reviewer: MOVED });
    const outbox = await sql<{ id: string; to: string }>(
      `select id, payload->>'to' as to from outbox
        where job = 'email.send' and payload->>'template' = 'application-waitlist' and payload->>'to' like ?`,
      [OURS],
    );
    expect(outbox).toHaveLength(MOVED);
    const expected = applications.filter((a) => a !== stale).map((a) => a.email);
    expect(outbox.map((row) => row.to).sort()).toEqual([...expected].sort());

    // A worker sends them one at a time and is killed half-way.
    const first = startWorker();
    await waitForSent(MOVED / 2, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await logStates();
    // The mail whose send was under way when the process died, if any.
    const inFlight = (
      await sql<{ recipient: string }>(
        `select recipient from email_log where recipient like ? and status <> 'sent'`,
        [OURS],
      )
    ).map((row) => row.recipient);
    const mailsAtKill = [...(await caughtByRecipient()).values()].flat().length;
    console.log(
      `killed after ${atKill.sent} sent (${mailsAtKill} in the catcher), ${JSON.stringify(atKill)}`,
    );
    expect(atKill.sent).toBeLessThan(MOVED);

    // A new worker takes over (the dead one's job once its lock runs out) and finishes.
    const second = startWorker();
    const resumed = Date.now();
    await waitForSent(MOVED, 90_000);
    console.log(`finished ${((Date.now() - resumed) / 1000).toFixed(1)} s after the restart`);

    // The email log: one row per outbox mail (its job id), each sent.
    const logs = await sql<{ job_id: string; recipient: string; status: string; subject: string }>(
      `select job_id, recipient, status, subject from email_log where recipient like ?`,
      [OURS],
    );
    expect(logs.map((row) => row.job_id).sort()).toEqual(outbox.map((row) => row.id).sort());
    expect(logs.map((row) => row.recipient).sort()).toEqual([...expected].sort());

    // The catcher: every applicant moved got exactly one mail (one Message-ID); the stale one none.
    const byRecipient = await caughtByRecipient();
    const mails = [...byRecipient.values()].flat();
    expect([...byRecipient.keys()].sort()).toEqual([...expected].sort());
    const twice = [...byRecipient.entries()].filter(([, list]) => list.length > 1);
    console.log(
      `${mails.length} mails to ${byRecipient.size} applicants; delivered twice: ${twice.length}` +
        ` (in flight at the kill: ${inFlight.join(', ') || 'none'})`,
    );
    for (const [to, list] of byRecipient) {
      expect(new Set(list.map((mail) => mail.headers?.['message-id'])).size, to).toBe(1);
    }
    // Only a mail the SMTP server accepted in the moment the process died, before the log recorded
    // it, can arrive again, and then under the same Message-ID (mail clients show it once).
    for (const [to] of twice) expect(inFlight).toContain(to);
    expect(mails.length).toBeLessThanOrEqual(MOVED + inFlight.length);

    // What arrived is what the preview announced: subject, recipient, greeting and car.
    for (const row of preview.changes.filter((change) => change.id !== stale.id)) {
      const [mail] = byRecipient.get(row.owner.email)!;
      expect(mail!.subject).toBe(row.mail!.subject);
      expect(mail!.text).toContain(`Hallo ${row.owner.name.split(' ')[0]},`);
      expect(mail!.text).toContain(row.title);
      expect(`${mail!.html}${mail!.text}`).not.toContain('Vorauswahl');
    }
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }, 180_000);

  it('a worker stopped half-way (SIGTERM) finishes its mail first: each applicant gets exactly one', async () => {
    const label = `stop-${RUN}`;
    const rows = await insertSubmittedApplications(t, MOVED, { label, model: `Astra${RUN}` });
    const previewed = await other.client.post('/api/admin/vehicles/bulk-status/preview', {
      status: 'rejected',
      ids: rows.map((row) => row.id),
    });
    const preview = previewed.data as BulkStatusPreview;
    expect(preview.mails).toBe(MOVED);
    const applied = await other.client.post('/api/admin/vehicles/bulk-status', {
      status: 'rejected',
      changes: preview.changes.map((row) => ({ id: row.id, oldStatus: row.oldStatus })),
    });
    expect(applied.data).toMatchObject({ changed: MOVED, mails: MOVED });

    const first = startWorker();
    await waitForSent(MOVED / 2, 60_000, label);
    first.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) =>
      first.once('exit', (exitCode) => resolve(exitCode)),
    );
    expect(code).toBe(0);
    const atStop = await logStates(label);
    console.log(`stopped after ${atStop.sent} sent, ${JSON.stringify(atStop)}`);
    expect(atStop).toEqual({ sent: atStop.sent });
    expect(atStop.sent).toBeLessThan(MOVED);

    startWorker();
    await waitForSent(MOVED, 60_000, label);
    const byRecipient = await caughtByRecipient(label);
    expect([...byRecipient.keys()].sort()).toEqual(rows.map((row) => row.email).sort());
    expect([...byRecipient.values()].every((list) => list.length === 1)).toBe(true);
    expect([...byRecipient.values()].map((list) => list[0]!.subject)).toEqual(
      Array.from({ length: MOVED }, () => 'Deine Bewerbung beim Schlosstreffen'),
    );
  }, 120_000);
});
