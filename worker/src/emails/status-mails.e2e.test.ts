import { EmailLog } from '@schlosstreffen/api/core';
import {
  createTestContext,
  signInConfirmed,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '@schlosstreffen/api/testing';
import { listMails, waitForMail } from '@schlosstreffen/infra/dev-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../adapters/mailer.js';
import type { RunningWorkers } from '../worker.js';
import { createTestMailer, startTestWorkers } from '../testing.js';

let t: TestContext;
let running: RunningWorkers | undefined;
let mailer: Mailer;

beforeAll(async () => {
  t = await createTestContext();
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer });
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  await t?.close();
});

describe('status mails through outbox, queue and SMTP', () => {
  it('a reviewer’s change reaches the applicant once, without the internal note', async () => {
    const { client: owner, email } = await signInConfirmed(t, { firstName: 'Jonas' });
    const { client: reviewer } = await t.signIn('reviewer', { firstName: 'Rita' });

    const created = await owner.post('/api/vehicles', {
      brand: 'Audi',
      model: 'Sport quattro',
      year: 1985,
      ps: 306,
      weightKg: 1300,
      topSpeedKmh: 250,
      zeroToHundredS: 4.8,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(created.status).toBe(201);
    const toOwner = (subject: string) => (mail: { to: { address: string }[]; subject: string }) =>
      mail.to.some((to) => to.address === email) && mail.subject === subject;
    const received = await waitForMail(
      t.services.mailWebUrl,
      toOwner('Deine Bewerbung ist eingegangen – Schlosstreffen'),
      15_000,
    );
    expect(received.text).toContain('Audi Sport quattro');

    const change = await reviewer.patch(`/api/admin/vehicles/${created.data.id}/status`, {
      status: 'waitlist',
      oldStatus: 'submitted',
      comment: 'NUR-INTERN',
    });
    expect(change.status).toBe(200);
    const waitlist = await waitForMail(
      t.services.mailWebUrl,
      toOwner('Du stehst auf der Warteliste – Schlosstreffen'),
      15_000,
    );
    expect(waitlist.html).toContain('Hallo Jonas,');
    expect(`${waitlist.html}${waitlist.text}`).not.toContain('NUR-INTERN');

    // Each event sent exactly one mail, and the log recorded it.
    const mine = (await listMails(t.services.mailWebUrl)).filter((mail) =>
      mail.to.some((to) => to.address === email),
    );
    expect(mine).toHaveLength(2);
    const logs = await t.orm.em.fork().find(EmailLog, { recipient: email });
    expect(logs.map((log) => [log.template, log.status, log.attempts]).sort()).toEqual([
      ['application-received', 'sent', 1],
      ['application-waitlist', 'sent', 1],
    ]);
  });
});
