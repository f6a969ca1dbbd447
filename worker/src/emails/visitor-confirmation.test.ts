import { EmailLog, VisitorRegistration } from '@schlosstreffen/api/core';
import { createTestContext, uniqueEmail, type TestContext } from '@schlosstreffen/api/testing';
import { waitForMail } from '@schlosstreffen/infra/dev-services';
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

describe('visitor confirmation mail', () => {
  it('is delivered after sign-up and its link confirms the registration', async () => {
    const email = uniqueEmail('besuch');
    const signUp = await t.client().post('/api/visitor-registrations', {
      firstName: 'Clara',
      lastName: 'Hoffmann',
      email,
    });
    expect(signUp.status).toBe(201);

    const mail = await waitForMail(
      t.services.mailWebUrl,
      (m) => m.to.some((to) => to.address === email),
      15_000,
    );
    expect(mail.subject).toBe('Bitte bestätige deine Vormerkung – Schlosstreffen');
    expect(mail.html).toContain('Hallo Clara,');
    expect(mail.text).toContain('Hallo Clara,');
    expect(mail.text).toContain('Vormerkung bestätigen');
    expect(mail.text).toContain('Ohne deine Bestätigung schicken wir dir keine weiteren E-Mails.');
    expect(mail.text).toContain('Hier abmelden');

    // The links lead to pages with a button; a GET changes nothing (link scanners).
    const links = (mail.text ?? '').match(/https?:\/\/\S+\/besucher\/\w+\?token=[\w.-]+/g);
    const confirmLink = links?.find((link) => link.includes('/besucher/bestaetigen?'));
    const unsubscribeLink = links?.find((link) => link.includes('/besucher/abmelden?'));
    expect(confirmLink).toBeDefined();
    expect(unsubscribeLink).toBeDefined();
    expect(mail.html).toContain(`href="${unsubscribeLink}"`);
    // Every mail links the privacy notice and the imprint.
    expect(mail.html).toContain(`href="${t.config.publicUrl}/datenschutz"`);
    expect(mail.html).toContain(`href="${t.config.publicUrl}/impressum"`);
    // One-click unsubscribe (RFC 8058) for mail clients.
    const unsubscribeToken = new URL(unsubscribeLink!).searchParams.get('token');
    expect(mail.headers?.['list-unsubscribe']).toBe(
      `<${t.config.publicUrl}/api/visitor-registrations/unsubscribe?token=${unsubscribeToken}>`,
    );
    expect(mail.headers?.['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const token = new URL(confirmLink!).searchParams.get('token');
    const res = await t.client().post('/api/visitor-registrations/confirm', { token });
    expect(res.status).toBe(200);
    const row = await t.orm.em.fork().findOneOrFail(VisitorRegistration, { email });
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect(row.unsubscribedAt).toBeNull();

    const log = await t.orm.em.fork().findOne(EmailLog, { recipient: email });
    expect(log).toMatchObject({ template: 'visitor-confirmation', status: 'sent' });
  });
});
