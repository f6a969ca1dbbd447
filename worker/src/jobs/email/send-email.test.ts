import { EmailLog } from '@schlosstreffen/api/core';
import {
  createTestContext,
  insertConfirmedUser,
  PASSWORD,
  registerUser,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { eventFacts } from '@schlosstreffen/shared';
import { listMails, waitForMail, type CaughtMail } from '@schlosstreffen/infra/dev-services';
import type { Job } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import type { RunningWorkers } from '../../worker.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import { createSendEmail } from './send-email.js';
import { dispatch } from '../dispatch.js';

let t: TestContext;
let running: RunningWorkers | undefined;
let mailer: Mailer;

beforeAll(async () => {
  t = await createTestContext();
  mailer = createTestMailer(t);
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});
afterAll(async () => {
  mailer?.close();
  await t?.close();
});

function start(withMailer: Mailer = mailer) {
  running = startTestWorkers(t, { mailer: withMailer });
  return running;
}

const mailsTo = async (email: string) =>
  (await listMails(t.services.mailWebUrl)).filter((mail) => mail.to.some((to) => to.address === email));
const toAddress = (email: string) => (mail: CaughtMail) => mail.to.some((to) => to.address === email);
const logFor = (recipient: string) => t.orm.em.fork().findOne(EmailLog, { recipient });

describe('email worker', () => {
  it('delivers the reset mail whose link sets a new password', async () => {
    start();
    const { email } = await insertConfirmedUser(t, { firstName: 'Sophie' });
    expect((await t.client().post('/api/auth/forgot-password', { email })).status).toBe(200);

    const mail = await waitForMail(t.services.mailWebUrl, toAddress(email), 15_000);
    expect(mail.subject).toBe('Passwort zurücksetzen – Schlosstreffen');
    // Anyone can ask for it: it names nobody, even for a confirmed account.
    expect(mail.html).toContain('Hallo,');
    expect(mail.html).not.toContain('Sophie');
    expect(mail.text).toContain('Neues Passwort setzen');
    const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link?.startsWith(`${t.config.publicUrl}/reset-password?token=`)).toBe(true);
    const token = new URL(link!).searchParams.get('token')!;

    // Follow the link as the reset page does: verify, then set the new password.
    const verified = await t.client().post('/api/auth/verify-reset-token', { token });
    expect(verified.data).toEqual({ valid: true, email });
    const reset = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'aus-der-mail-gesetzt' });
    expect(reset.status).toBe(200);
    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect(
      (await t.client().post('/api/auth/login', { email, password: 'aus-der-mail-gesetzt' })).status,
    ).toBe(200);

    const log = await logFor(email);
    expect(log).toMatchObject({ template: 'password-reset', status: 'sent', attempts: 1, lastError: null });
    expect(log?.sentAt).toBeInstanceOf(Date);
  });

  it('mails an unconfirmed address nothing but its confirmation, which names nobody', async () => {
    start();
    const { email } = await registerUser(t.client(), { firstName: 'Eindringling' });
    const mail = await waitForMail(t.services.mailWebUrl, toAddress(email), 15_000);
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse – Schlosstreffen');
    expect(mail.html).toContain('Hallo,');
    expect(mail.html).not.toContain('Eindringling');
    const link = /https?:\/\/\S+\/email-bestaetigen\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link?.startsWith(`${t.config.publicUrl}/email-bestaetigen?token=`)).toBe(true);

    const send = createSendEmail({
      em: t.orm.em,
      mailer,
      secret: t.config.sessionSecret,
      event: eventFacts(t.config.event),
      site: { publicUrl: t.config.publicUrl },
    });
    const applicationMail = {
      template: 'application-received' as const,
      to: email,
      props: {
        firstName: 'Eindringling',
        vehicleTitle: 'Text des Absenders',
        dashboardUrl: t.config.publicUrl,
      },
    };
    const job = (id: string) => ({ id, updateProgress: async () => undefined });
    await expect(send(applicationMail, job(`unbestaetigt-${email}`))).resolves.toEqual({
      status: 'unconfirmed',
    });
    expect(
      await t.orm.em.fork().count(EmailLog, { recipient: email, template: 'application-received' }),
    ).toBe(0);

    // The link opened: the address is the account's, and its mails go out.
    const token = new URL(link!).searchParams.get('token')!;
    expect((await t.client().post('/api/auth/confirm-email', { token })).status).toBe(200);
    await expect(send(applicationMail, job(`bestaetigt-${email}`))).resolves.toMatchObject({
      status: 'sent',
    });
    expect((await mailsTo(email)).map((caught) => caught.subject)).toHaveLength(2);
  });

  it('a retried job sends its mail once', async () => {
    // The first delivery attempt fails before reaching SMTP; BullMQ retries the job.
    let calls = 0;
    const flaky: Mailer = {
      async send(mail) {
        calls += 1;
        if (calls === 1) throw new Error('SMTP connection reset');
        return mailer.send(mail);
      },
      close: () => undefined,
    };
    start(flaky);
    const { email } = await insertConfirmedUser(t);
    await t.client().post('/api/auth/forgot-password', { email });
    await waitForMail(t.services.mailWebUrl, toAddress(email), 15_000);

    await expect.poll(async () => (await logFor(email))?.status, { timeout: 10_000 }).toBe('sent');
    const log = await logFor(email);
    expect(log?.attempts).toBe(2);

    // Delivering the same job again (a retry after the send, or a re-delivery) sends nothing.
    const job = (await t.queues.email.getJob(log!.jobId)) as Job;
    const processor = dispatch({
      'email.send': createSendEmail({
        em: t.orm.em,
        mailer,
        secret: t.config.sessionSecret,
        event: eventFacts(t.config.event),
        site: { publicUrl: t.config.publicUrl },
      }),
    });
    await expect(processor(job)).resolves.toEqual({ status: 'skipped' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mailsTo(email)).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('records a send that did not go through with its error, as deferred (retried)', async () => {
    const broken: Mailer = {
      send: () => Promise.reject(new Error('550 mailbox unavailable')),
      close: () => undefined,
    };
    start(broken);
    const { email } = await insertConfirmedUser(t);
    await t.client().post('/api/auth/forgot-password', { email });
    await expect
      .poll(async () => (await logFor(email))?.lastError, { timeout: 10_000 })
      .toBe('550 mailbox unavailable');
    // No SMTP reply code: nothing says the address is wrong, so the job is retried.
    expect((await logFor(email))?.status).toBe('deferred');
  });

  it('closing the worker (SIGTERM) lets a running job finish', async () => {
    let markActive: () => void = () => undefined;
    const active = new Promise<void>((resolve) => (markActive = resolve));
    const slow: Mailer = {
      async send(mail) {
        markActive();
        await new Promise((resolve) => setTimeout(resolve, 700));
        return mailer.send(mail);
      },
      close: () => undefined,
    };
    const workers = start(slow);
    const { email } = await insertConfirmedUser(t);
    await t.client().post('/api/auth/forgot-password', { email });
    await active;
    await workers.close();
    running = undefined;
    expect(await mailsTo(email)).toHaveLength(1);
    expect((await logFor(email))?.status).toBe('sent');
  });
});
