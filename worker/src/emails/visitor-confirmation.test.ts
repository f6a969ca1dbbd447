import { EmailLog, VisitorRegistration } from '@schlosstreffen/api/core';
import { createTestContext, PASSWORD, uniqueEmail, type TestContext } from '@schlosstreffen/api/testing';
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

/** A first name as a stranger types it, with someone else's address: a call to act, an address, markup. */
const STRANGER = 'Max, Konto gesperrt! Sofort bestätigen: https://evil.example/x **fett** [a](https://b)';
/** What of it must not reach the mail (the HTML escapes, so the plain parts are enough). */
const STRANGER_PARTS = ['Max', 'Konto gesperrt', 'Sofort', 'evil.example', 'fett', 'https://b', '[a]'];

const mailTo = (email: string) =>
  waitForMail(t.services.mailWebUrl, (m) => m.to.some((to) => to.address === email), 15_000);

/** Subject, HTML and text of a mail carry nothing of the stranger's words. */
function expectNothingTyped(mail: { subject: string; html?: string; text?: string }) {
  for (const part of [mail.subject, mail.html ?? '', mail.text ?? ''])
    for (const typed of STRANGER_PARTS) expect(part).not.toContain(typed);
}

describe('mails to an address nobody has confirmed', () => {
  it('the visitor confirmation names nobody and repeats nothing typed; its link confirms the registration', async () => {
    const email = uniqueEmail('besuch');
    const signUp = await t.client().post('/api/visitor-registrations', {
      firstName: STRANGER,
      lastName: STRANGER,
      email,
    });
    expect(signUp.status).toBe(201);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Bitte bestätige deine Vormerkung – Schlosstreffen');
    expectNothingTyped(mail);
    expect(mail.html).toContain('Hallo,');
    expect(mail.text).toContain('Hallo,');
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

  it('the account confirmation after registration names nobody and repeats nothing typed', async () => {
    const email = uniqueEmail('konto');
    const res = await t.client().post('/api/auth/register', {
      firstName: STRANGER,
      lastName: STRANGER,
      email,
      password: PASSWORD,
      instagramHandle: '@evil.example',
    });
    expect(res.status, res.text).toBe(201);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse – Schlosstreffen');
    expectNothingTyped(mail);
    expect(mail.text).toContain('Hallo,');
    expect(mail.text).toMatch(/E-Mail-Adresse bestätigen <https?:\/\/\S+\/email-bestaetigen\?token=\S+>/);
  });

  it('a stored text that still greets by name renders without it', async () => {
    // As an admin could save it before the rule: the name in the subject, the text and a link target.
    await t.orm.em.getConnection().execute(
      `insert into mail_template (edition_id, mail, version, subject, body, created_at)
       values (?, 'visitor-confirmation', 1, ?, ?, now())`,
      [
        t.event.edition.id,
        'Hallo {vorname}, bitte bestätigen',
        'Hallo {vorname},\n\n**{vorname}**, siehe https://a.example/{vorname} und [hier]({vorname}).\n\n[Vormerkung bestätigen]({link})\n\n[Hier abmelden]({abmelden_link})',
      ],
    );
    const email = uniqueEmail('alt');
    const signUp = await t.client().post('/api/visitor-registrations', {
      firstName: STRANGER,
      lastName: 'Besuch',
      email,
    });
    expect(signUp.status).toBe(201);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Hallo, bitte bestätigen');
    expectNothingTyped(mail);
    expect(mail.text).toContain('Hallo,');
    expect(mail.text).toContain('siehe https://a.example/ und hier.');
    expect(mail.text).toMatch(/Vormerkung bestätigen <https?:\/\/\S+\/besucher\/bestaetigen\?token=\S+>/);
  });
});
