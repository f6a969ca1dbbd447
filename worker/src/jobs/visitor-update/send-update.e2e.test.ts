import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createVisitorToken } from '@schlosstreffen/api/core';
import { createTestContext, type SignedIn, type TestContext } from '@schlosstreffen/api/testing';
import { mailboxOf } from '@schlosstreffen/shared';
import { listMails, type CaughtMail } from '@schlosstreffen/infra/dev-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * An update to 500 confirmed visitors, sent by a real worker process that is killed (SIGKILL)
 * half-way and replaced: every subscribed visitor gets it once, nobody unsubscribed gets it. The
 * figures it prints are explained in docs/development.md#organizer-features-measured.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RUN = randomBytes(3).toString('hex');
const CONFIRMED = 500;
const address = (kind: string, i: number) => `${kind}-${i}-${RUN}@besuch.test`;

let t: TestContext;
let admin: SignedIn;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.signIn('admin', { firstName: 'Anna' });
  // 500 confirmed visitors, 20 who never confirmed, 20 who unsubscribed (older rows kept so).
  const rows: string[] = [];
  const params: unknown[] = [];
  const add = (email: string, confirmed: boolean, unsubscribed: boolean) => {
    rows.push(
      `(?, ?, ?, ?, 'Vera', 'Besuch', ${confirmed ? 'now()' : 'null'}, ${unsubscribed ? 'now()' : 'null'}, now())`,
    );
    params.push(randomUUID(), t.event.edition.id, email, mailboxOf(email));
  };
  for (let i = 0; i < CONFIRMED; i += 1) add(address('ja', i), true, false);
  for (let i = 0; i < 20; i += 1) add(address('offen', i), false, false);
  for (let i = 0; i < 20; i += 1) add(address('ab', i), true, true);
  await t.orm.em.getConnection().execute(
    `insert into visitor_registration (id, edition_id, email, mailbox, first_name, last_name, confirmed_at,
                                       unsubscribed_at, created_at) values ${rows.join(', ')}`,
    params,
  );
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
    env: { ...process.env, ...t.env, VISITOR_UPDATE_RATE: '60', SCHEDULER_TICK_MINUTES: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

async function stateCounts(updateId: string): Promise<Record<string, number>> {
  const rows = await t.orm.em
    .getConnection()
    .execute<Array<{ state: string; n: string }>>(
      `select state, count(*) as n from visitor_update_recipient where update_id = ? group by 1`,
      [updateId],
    );
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
}

const ours = (mail: CaughtMail) => mail.to.some((to) => to.address.endsWith(`-${RUN}@besuch.test`));

describe('sending an update to 500 visitors', () => {
  it('survives a worker killed half-way: each subscribed visitor gets it once, unsubscribed ones nothing', async () => {
    const draft = await admin.client.post('/api/admin/visitor-updates', {
      subject: 'Der Zeitplan steht',
      body: 'Am Samstag öffnen wir die Tore um 10 Uhr.\n\nBesucherparkplätze gibt es am Nordtor.',
    });
    expect(draft.status, draft.text).toBe(201);
    const id = draft.data.id as string;
    const started = await admin.client.post(`/api/admin/visitor-updates/${id}/send`, {});
    expect(started.status, started.text).toBe(202);
    expect(started.data.total).toBe(CONFIRMED);

    const first = startWorker();
    const began = Date.now();
    for (;;) {
      const counts = await stateCounts(id);
      if ((counts.sent ?? 0) >= CONFIRMED / 2) break;
      if (counts.failed || Date.now() - began > 60_000) {
        const [why] = await t.orm.em
          .getConnection()
          .execute<Array<{ error: string }>>(
            `select error from visitor_update_recipient where error is not null limit 1`,
          );
        throw new Error(`no progress: ${JSON.stringify(counts)} ${why?.error ?? ''}`);
      }
      await sleep(50);
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await stateCounts(id);
    // The recipient whose mail was in flight when the process died, if any.
    const inFlight = await t.orm.em.getConnection().execute<Array<{ email: string }>>(
      `select v.email from visitor_update_recipient r join visitor_registration v on v.id = r.registration_id
          where r.update_id = ? and r.state = 'sending'`,
      [id],
    );
    const mailsAtKill = (await listMails(t.services.mailWebUrl)).filter(ours).length;
    console.log(
      `killed after ${atKill.sent} sent (${mailsAtKill} in the catcher), ${JSON.stringify(atKill)}`,
    );

    // A visitor still waiting unsubscribes while no worker runs: they get nothing.
    const [waiting] = await t.orm.em.getConnection().execute<Array<{ email: string; id: string }>>(
      `select v.email, v.id from visitor_update_recipient r join visitor_registration v on v.id = r.registration_id
        where r.update_id = ? and r.state = 'pending' order by r.id desc limit 1`,
      [id],
    );
    expect(waiting).toBeTruthy();
    const unsubscribe = await t.client().post('/api/visitor-registrations/unsubscribe', {
      token: createVisitorToken(t.config.sessionSecret, waiting!.id, 'unsubscribe'),
    });
    expect(unsubscribe.status, unsubscribe.text).toBe(200);

    // A new worker takes the job over once the dead one's lock runs out, and finishes it.
    startWorker();
    const resumed = Date.now();
    for (;;) {
      const view = await admin.client.get(`/api/admin/visitor-updates/${id}`);
      if (view.data.status === 'sent') break;
      if (Date.now() - resumed > 90_000) throw new Error(`not finished: ${JSON.stringify(view.data.counts)}`);
      await sleep(250);
    }
    console.log(`resumed and finished ${((Date.now() - resumed) / 1000).toFixed(1)} s after the restart`);

    const final = await admin.client.get(`/api/admin/visitor-updates/${id}`);
    expect(final.data.counts).toEqual({ pending: 0, sent: CONFIRMED - 1, failed: 0, unsubscribed: 1 });
    expect(final.data.progress).toBe(100);

    const mails = (await listMails(t.services.mailWebUrl)).filter(ours);
    const byRecipient = new Map<string, CaughtMail[]>();
    for (const mail of mails) {
      const to = mail.to[0]!.address;
      byRecipient.set(to, [...(byRecipient.get(to) ?? []), mail]);
    }
    const expected = Array.from({ length: CONFIRMED }, (_, i) => address('ja', i)).filter(
      (email) => email !== waiting!.email,
    );
    // Everyone subscribed got it; nobody unconfirmed, unsubscribed or unsubscribing meanwhile.
    expect([...byRecipient.keys()].sort()).toEqual(expected.sort());
    const twice = [...byRecipient.entries()].filter(([, list]) => list.length > 1);
    console.log(
      `${mails.length} mails to ${byRecipient.size} visitors; received twice: ${twice.length}` +
        ` (in flight at the kill: ${inFlight.map((row) => row.email).join(', ') || 'none'})`,
    );
    // Only a mail the SMTP server accepted in the moment the process died, before its state was
    // written, can go out again, and then under the same Message-ID (mail clients show one).
    for (const [to, list] of twice) {
      expect(inFlight.map((row) => row.email)).toContain(to);
      expect(new Set(list.map((mail) => mail.headers?.['message-id'])).size).toBe(1);
    }
    expect(mails.length).toBeLessThanOrEqual(CONFIRMED - 1 + inFlight.length);
    const sample = byRecipient.get(expected[0]!)![0]!;
    expect(sample.subject).toBe('Der Zeitplan steht – Schlosstreffen');
    expect(sample.headers?.['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // The one-click unsubscribe of a received mail works (RFC 8058: POST to the header's URL).
    const oneClick = /<([^>]+)>/.exec(sample.headers?.['list-unsubscribe'] ?? '')![1]!;
    const oneClickUrl = new URL(oneClick);
    const res = await t
      .client({ origin: '' })
      .request('POST', `${oneClickUrl.pathname}${oneClickUrl.search}`, {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect(res.status).toBe(200);
    const [left] = await t.orm.em
      .getConnection()
      .execute<Array<{ n: string }>>(`select count(*) as n from visitor_registration where email = ?`, [
        expected[0],
      ]);
    expect(Number(left!.n)).toBe(0);
  }, 180_000);
});
