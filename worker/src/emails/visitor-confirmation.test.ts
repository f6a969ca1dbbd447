import { EmailLog, VisitorRegistration } from '@schlosstreffen/api/db';
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

/** A link from the mail text, which points at PUBLIC_URL, opened on the test server instead. */
function onTestServer(link: string): URL {
  expect(link.startsWith(`${t.config.publicUrl}/`)).toBe(true);
  const url = new URL(link);
  return new URL(url.pathname + url.search, t.baseUrl);
}

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

    const links = (mail.text ?? '').match(/https?:\/\/\S+\/api\/visitor-registrations\/\w+\?token=[\w.-]+/g);
    const confirmLink = links?.find((link) => link.includes('/confirm?'));
    const unsubscribeLink = links?.find((link) => link.includes('/unsubscribe?'));
    expect(confirmLink).toBeDefined();
    expect(unsubscribeLink).toBeDefined();
    expect(mail.html).toContain(`href="${unsubscribeLink}"`);

    const res = await fetch(onTestServer(confirmLink!), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${t.config.publicUrl}/visitor-registration?bestaetigt=1`);
    const row = await t.orm.em.fork().findOneOrFail(VisitorRegistration, { email });
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect(row.unsubscribedAt).toBeNull();

    const log = await t.orm.em.fork().findOne(EmailLog, { recipient: email });
    expect(log).toMatchObject({ template: 'visitor-confirmation', status: 'sent' });
  });
});
