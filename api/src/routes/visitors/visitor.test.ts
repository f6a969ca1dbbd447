import {
  MESSAGES,
  PRIVACY_MESSAGES,
  VISITOR_NEXT_EDITION_CONSENT,
  VISITOR_NEXT_EDITION_CONSENTED,
  type Role,
} from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unseal } from '../../core/crypto/seal.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import {
  createTestContext,
  registerUser,
  uniqueEmail,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';
import { User } from '../../core/model/user.entity.js';
import { VisitorRegistration } from '../../core/model/visitor-registration.entity.js';
import { confirmedVisitorEmails, createVisitorToken } from '../../core/visitors/visitor.service.js';

let t: TestContext;
beforeAll(async () => {
  // The relay stays off: these tests read the outbox rows the API writes.
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const SIGNED_UP = {
  message: 'Erfolgreich vorgemerkt!',
  description:
    'Bitte bestätige deine Vormerkung über den Link in unserer E-Mail, dann halten wir dich über das Event auf dem Laufenden.',
};
const HOUR = 60 * 60 * 1000;

const visitorBody = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Anna',
  lastName: 'Schmidt',
  email: uniqueEmail('besuch'),
  phone: '0351 123456',
  ...overrides,
});

async function signUp(overrides: Record<string, unknown> = {}) {
  const body = visitorBody(overrides);
  const res = await t.client().post('/api/visitor-registrations', body);
  expect(res.status).toBe(201);
  return { email: String(body.email).toLowerCase(), res };
}

const rowOf = (email: string) => t.orm.em.fork().findOne(VisitorRegistration, { email });
const rowCount = (email: string) => t.orm.em.fork().count(VisitorRegistration, { email });

/** Confirmation mails queued for the address, oldest first. */
async function mailsTo(email: string): Promise<Outbox[]> {
  const rows = await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'asc' } });
  return rows.filter((row) => row.payload.to === email && row.payload.template === 'visitor-confirmation');
}

/** The links of the newest confirmation mail (they travel sealed) and their tokens. */
async function linksFor(email: string) {
  const row = (await mailsTo(email)).at(-1);
  if (!row) throw new Error(`no confirmation mail queued for ${email}`);
  const links = unseal<{ confirmUrl: string; unsubscribeUrl: string; oneClickUrl: string }>(
    t.config.sessionSecret,
    String(row.payload.sealed),
  );
  const tokenOf = (url: string, path: string) => {
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe(`${t.config.publicUrl}${path}`);
    return parsed.searchParams.get('token')!;
  };
  return {
    ...links,
    confirm: tokenOf(links.confirmUrl, '/besucher/bestaetigen'),
    unsubscribe: tokenOf(links.unsubscribeUrl, '/besucher/abmelden'),
    oneClick: tokenOf(links.oneClickUrl, '/api/visitor-registrations/unsubscribe'),
  };
}

/** What the confirm page's button does. */
const confirmWith = (token: string) => t.client().post('/api/visitor-registrations/confirm', { token });
/** What the unsubscribe page's button does. */
const unsubscribeWith = (token: string) =>
  t.client().post('/api/visitor-registrations/unsubscribe', { token });

/** A plain GET of an old API link, as a link scanner sends it: a redirect to the page, no change. */
async function follow(path: string): Promise<string | null> {
  const res = await t.client().get(path);
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

async function clientWithRole(role: Role): Promise<TestClient> {
  const client = t.client();
  const { email } = await registerUser(client);
  await t.orm.em.fork().nativeUpdate(User, { email }, { role });
  return client;
}

describe('POST /api/visitor-registrations', () => {
  it.each([
    ['firstName', { firstName: 'A' }, 'Vorname muss mindestens 2 Zeichen lang sein'],
    ['firstName', { firstName: undefined }, 'Vorname muss mindestens 2 Zeichen lang sein'],
    ['lastName', { lastName: ' B ' }, 'Nachname muss mindestens 2 Zeichen lang sein'],
    ['email', { email: 'keine-email' }, 'Ungültige E-Mail-Adresse'],
    ['email', { email: undefined }, 'Ungültige E-Mail-Adresse'],
    ['phone', { phone: 12345 }, 'Telefon muss ein Text sein'],
    ['phone', { phone: '1'.repeat(41) }, 'Telefon darf höchstens 40 Zeichen lang sein'],
  ])('rejects an invalid %s with its German message', async (field, override, message) => {
    const body = visitorBody(override);
    const res = await t.client().post('/api/visitor-registrations', body);
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(message);
    expect(res.data.issues).toContainEqual({ field, message });
    if (typeof body.email === 'string') expect(await rowCount(body.email)).toBe(0);
  });

  it('stores the sign-up unconfirmed and queues the confirmation mail with sealed links', async () => {
    const email = uniqueEmail('neu');
    const res = await t.client().post('/api/visitor-registrations', {
      firstName: ' Anna ',
      lastName: 'Schmidt',
      email: `  ${email.toUpperCase()} `,
      phone: '',
    });
    expect(res.status).toBe(201);
    expect(res.data).toEqual(SIGNED_UP);

    const row = await rowOf(email);
    expect(row).toMatchObject({
      firstName: 'Anna',
      lastName: 'Schmidt',
      email,
      phone: null,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(row?.confirmationSentAt).toBeInstanceOf(Date);

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.payload).toMatchObject({
      template: 'visitor-confirmation',
      // The address is not confirmed: the mail names nobody.
      props: {},
    });
    // Pages with a button, and the address for one-click unsubscribe (linksFor checks the paths).
    const links = await linksFor(email);
    for (const token of [links.confirm, links.unsubscribe]) expect(token).toMatch(/^[\w.-]+$/);
    expect(links.oneClick).toBe(links.unsubscribe);
    // Tokens never sit in clear in the outbox.
    expect(JSON.stringify(mails[0]?.payload)).not.toContain(links.confirm);
    expect(JSON.stringify(mails[0]?.payload)).not.toContain(links.unsubscribe);
  });

  it('answers a repeated address (any case) identically, with one row and one mail', async () => {
    const { email, res: first } = await signUp({ firstName: 'Erste' });
    const again = await t
      .client()
      .post('/api/visitor-registrations', visitorBody({ email: email.toUpperCase(), firstName: 'Zweite' }));
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(await rowCount(email)).toBe(1);
    expect(await mailsTo(email)).toHaveLength(1);
    // An anonymous repeat does not overwrite a live registration.
    expect((await rowOf(email))?.firstName).toBe('Erste');
  });

  it('resends the confirmation at most hourly, and never once confirmed', async () => {
    const { email } = await signUp();
    const backdate = () =>
      t.orm.em
        .fork()
        .nativeUpdate(
          VisitorRegistration,
          { email },
          { confirmationSentAt: new Date(Date.now() - HOUR - 1000) },
        );

    await backdate();
    await signUp({ email });
    expect(await mailsTo(email)).toHaveLength(2);
    await signUp({ email });
    expect(await mailsTo(email)).toHaveLength(2);

    expect((await confirmWith((await linksFor(email)).confirm)).status).toBe(200);
    await backdate();
    await signUp({ email });
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it('lets the unique index decide between concurrent sign-ups of one address', async () => {
    const email = uniqueEmail('gleichzeitig');
    const variants = Array.from({ length: 12 }, (_, i) => (i % 2 ? email.toUpperCase() : ` ${email}`));
    // Warm the connection pool, so the requests overlap instead of queueing behind its first connect.
    await Promise.all(variants.map(() => t.client().get('/api/visitor-registrations/confirm')));
    const results = await Promise.all(
      variants.map((variant) =>
        t.client().post('/api/visitor-registrations', visitorBody({ email: variant })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(variants.map(() => 201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(await rowCount(email)).toBe(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('answers 429 with Retry-After after the per-IP limit', async () => {
    const limit = t.config.rateLimits.visitorSignUp.points;
    for (let i = 0; i < limit; i++) {
      expect((await t.client().post('/api/visitor-registrations', { email: 'x' })).status).toBe(400);
    }
    const blocked = await t.client().post('/api/visitor-registrations', visitorBody());
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(blocked.data.message).toMatch(/^Zu viele Versuche\./);
  });
});

describe('double opt-in links', () => {
  it("a link scanner's GET changes nothing; the confirm button sets confirmedAt once", async () => {
    const { email } = await signUp();
    const { confirm } = await linksFor(email);
    expect(await follow(`/api/visitor-registrations/confirm?token=${confirm}`)).toBe(
      `${t.config.publicUrl}/besucher/bestaetigen?token=${confirm}`,
    );
    expect((await rowOf(email))?.confirmedAt).toBeNull();
    expect(await confirmedVisitorEmails(t.orm.em.fork(), t.event.edition.id)).not.toContain(email);

    const res = await confirmWith(confirm);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ message: PRIVACY_MESSAGES.visitorConfirmed });
    const confirmedAt = (await rowOf(email))?.confirmedAt;
    expect(confirmedAt).toBeInstanceOf(Date);
    expect(await confirmedVisitorEmails(t.orm.em.fork(), t.event.edition.id)).toContain(email);

    expect((await confirmWith(confirm)).status).toBe(200);
    expect((await rowOf(email))?.confirmedAt).toEqual(confirmedAt);
  });

  it('unsubscribing deletes the registration; an old confirm link cannot bring it back', async () => {
    const { email } = await signUp();
    const { confirm, unsubscribe } = await linksFor(email);
    await confirmWith(confirm);

    expect(await follow(`/api/visitor-registrations/unsubscribe?token=${unsubscribe}`)).toBe(
      `${t.config.publicUrl}/besucher/abmelden?token=${unsubscribe}`,
    );
    expect(await rowCount(email)).toBe(1);

    const res = await unsubscribeWith(unsubscribe);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ message: MESSAGES.visitorUnsubscribed });
    expect(await rowCount(email)).toBe(0);
    expect((await unsubscribeWith(unsubscribe)).status).toBe(200);

    const late = await confirmWith(confirm);
    expect(late.status).toBe(400);
    expect(await rowCount(email)).toBe(0);
    expect(await confirmedVisitorEmails(t.orm.em.fork(), t.event.edition.id)).not.toContain(email);
  });

  it('signing up again after unsubscribing needs a new confirmation', async () => {
    const { email } = await signUp({ firstName: 'Alt' });
    const { confirm, unsubscribe } = await linksFor(email);
    await confirmWith(confirm);
    await unsubscribeWith(unsubscribe);

    const again = await signUp({ email: email.toUpperCase(), firstName: 'Neu' });
    expect(again.res.data).toEqual(SIGNED_UP);
    expect(await rowCount(email)).toBe(1);
    expect(await rowOf(email)).toMatchObject({ firstName: 'Neu', confirmedAt: null, unsubscribedAt: null });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.payload.props).toEqual({});
    expect(await confirmedVisitorEmails(t.orm.em.fork(), t.event.edition.id)).not.toContain(email);

    expect((await confirmWith((await linksFor(email)).confirm)).status).toBe(200);
    expect(await confirmedVisitorEmails(t.orm.em.fork(), t.event.edition.id)).toContain(email);
  });

  it('refuses tampered, foreign and missing tokens', async () => {
    const { email } = await signUp();
    const { confirm, unsubscribe } = await linksFor(email);
    const tampered = confirm.slice(0, -1) + (confirm.endsWith('A') ? 'B' : 'A');
    const row = await rowOf(email);
    const otherSecret = createVisitorToken('ein-anderes-geheimnis-mit-genug-zeichen', row!.id, 'confirm');

    for (const token of [tampered, otherSecret, unsubscribe]) {
      const res = await confirmWith(token);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ message: 'Der Link ist ungültig.' });
    }
    expect((await t.client().post('/api/visitor-registrations/confirm', {})).status).toBe(400);
    // A confirm token does not unsubscribe.
    expect((await unsubscribeWith(confirm)).status).toBe(400);
    expect(await rowOf(email)).toMatchObject({ confirmedAt: null, unsubscribedAt: null });
  });

  it('one-click unsubscribe (RFC 8058) posts a form to the link with the token in the query', async () => {
    const { email } = await signUp();
    const { oneClick } = await linksFor(email);
    const res = await t
      .client({ origin: '' })
      .request('POST', `/api/visitor-registrations/unsubscribe?token=${oneClick}`, {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect(res.status).toBe(200);
    expect(await rowCount(email)).toBe(0);

    const bad = await t.client().post('/api/visitor-registrations/unsubscribe', { token: `${oneClick}x` });
    expect(bad.status).toBe(400);
    expect(bad.data).toEqual({ message: 'Der Link ist ungültig.' });
    expect((await t.client().post('/api/visitor-registrations/unsubscribe', {})).status).toBe(400);
  });
});

describe("the next edition's consent", () => {
  /** Consent mails queued for the address, oldest first. */
  async function consentMailsTo(email: string): Promise<Outbox[]> {
    const rows = await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'asc' } });
    return rows.filter(
      (row) => row.payload.to === email && row.payload.template === 'visitor-next-edition-consent',
    );
  }

  /** The token of the newest consent link mailed to the address (it travels sealed). */
  async function consentTokenFor(email: string): Promise<string> {
    const row = (await consentMailsTo(email)).at(-1);
    if (!row) throw new Error(`no consent mail queued for ${email}`);
    const { consentUrl, unsubscribeUrl } = unseal<{ consentUrl: string; unsubscribeUrl: string }>(
      t.config.sessionSecret,
      String(row.payload.sealed),
    );
    const parsed = new URL(consentUrl);
    expect(parsed.origin + parsed.pathname).toBe(`${t.config.publicUrl}/besucher/naechstes-treffen`);
    expect(unsubscribeUrl).toContain('/besucher/abmelden?token=');
    return parsed.searchParams.get('token')!;
  }

  const consentWith = (token: unknown) =>
    t.client().post('/api/visitor-registrations/next-edition', { token });

  async function confirmedSignUp(overrides: Record<string, unknown> = {}) {
    const { email } = await signUp(overrides);
    expect((await confirmWith((await linksFor(email)).confirm)).status).toBe(200);
    return email;
  }

  it('a sign-up that creates the registration records it with its wording, confirmed by the same link', async () => {
    const { email } = await signUp({ nextEdition: true });
    expect(await rowOf(email)).toMatchObject({
      nextEditionConsentAt: expect.any(Date),
      nextEditionConsentVersion: VISITOR_NEXT_EDITION_CONSENT.version,
      confirmedAt: null,
    });
    expect(await consentMailsTo(email)).toHaveLength(0);
  });

  it("a stranger's repeated sign-up does not add it to a confirmed registration: a link mailed to the address does", async () => {
    const email = await confirmedSignUp({ firstName: 'Vera' });
    expect((await rowOf(email))?.nextEditionConsentAt).toBeNull();

    // Anyone who knows the address signs it up again, ticked, under another name.
    const plain = await t.client().post('/api/visitor-registrations', visitorBody({ email }));
    const ticked = await t
      .client()
      .post('/api/visitor-registrations', visitorBody({ email, firstName: 'Fremd', nextEdition: true }));
    expect(ticked.status).toBe(201);
    expect(ticked.text).toBe(plain.text);
    expect(await rowOf(email)).toMatchObject({
      firstName: 'Vera',
      nextEditionConsentAt: null,
      nextEditionConsentVersion: null,
    });

    // The address gets the link, naming nobody; no second confirmation.
    const mails = await consentMailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.payload.props).toEqual({});
    expect(JSON.stringify(mails[0]!.payload)).not.toContain('Fremd');
    expect(await mailsTo(email)).toHaveLength(1);

    // Asked again within the hour: no further mail.
    await t.client().post('/api/visitor-registrations', visitorBody({ email, nextEdition: true }));
    expect(await consentMailsTo(email)).toHaveLength(1);

    // The link's button adds it, with the wording's version, once.
    const token = await consentTokenFor(email);
    const res = await consentWith(token);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ message: VISITOR_NEXT_EDITION_CONSENTED });
    const given = await rowOf(email);
    expect(given).toMatchObject({
      nextEditionConsentAt: expect.any(Date),
      nextEditionConsentVersion: VISITOR_NEXT_EDITION_CONSENT.version,
    });
    expect((await consentWith(token)).status).toBe(200);
    expect((await rowOf(email))?.nextEditionConsentAt).toEqual(given?.nextEditionConsentAt);

    // Given: a further ticked sign-up asks nothing, even after the hour.
    await t.orm.em
      .fork()
      .nativeUpdate(
        VisitorRegistration,
        { email },
        { nextEditionConsentMailedAt: new Date(Date.now() - 2 * HOUR) },
      );
    await t.client().post('/api/visitor-registrations', visitorBody({ email, nextEdition: true }));
    expect(await consentMailsTo(email)).toHaveLength(1);
  });

  it('asks again after an hour, also for a registration not confirmed yet, without adding it', async () => {
    const { email } = await signUp();
    await signUp({ email, nextEdition: true });
    expect((await rowOf(email))?.nextEditionConsentAt).toBeNull();
    expect(await consentMailsTo(email)).toHaveLength(1);

    await t.orm.em
      .fork()
      .nativeUpdate(
        VisitorRegistration,
        { email },
        { nextEditionConsentMailedAt: new Date(Date.now() - HOUR - 1000) },
      );
    await signUp({ email, nextEdition: true });
    expect(await consentMailsTo(email)).toHaveLength(2);
    expect((await rowOf(email))?.nextEditionConsentAt).toBeNull();

    // The link adds it; the registration itself still waits for its confirmation.
    expect((await consentWith(await consentTokenFor(email))).status).toBe(200);
    expect(await rowOf(email)).toMatchObject({ nextEditionConsentAt: expect.any(Date), confirmedAt: null });
  });

  it('refuses tokens of another purpose, tampered and missing ones, and a registration that is gone', async () => {
    const email = await confirmedSignUp();
    await signUp({ email, nextEdition: true });
    const token = await consentTokenFor(email);
    const { confirm, unsubscribe } = await linksFor(email);
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

    for (const bad of [confirm, unsubscribe, tampered, undefined, 42]) {
      const res = await consentWith(bad);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ message: 'Der Link ist ungültig.' });
    }
    // The consent token confirms nothing and unsubscribes nothing.
    expect((await confirmWith(token)).status).toBe(400);
    expect((await unsubscribeWith(token)).status).toBe(400);
    expect((await rowOf(email))?.nextEditionConsentAt).toBeNull();

    await unsubscribeWith(unsubscribe);
    expect((await consentWith(token)).status).toBe(400);
    expect(await rowCount(email)).toBe(0);
  });
});

describe('admin visitor list and export', () => {
  it.each(['/api/admin/visitors', '/api/admin/visitors.csv'])(
    '%s: anonymous 401, user 403, reviewer 403, admin 200',
    async (path) => {
      expect((await t.client().get(path)).status).toBe(401);
      expect((await (await clientWithRole('user')).get(path)).status).toBe(403);
      expect((await (await clientWithRole('reviewer')).get(path)).status).toBe(403);
      expect((await (await clientWithRole('admin')).get(path)).status).toBe(200);
    },
  );

  it('lists every registration newest first with its state and the counts', async () => {
    const { email: pending } = await signUp({ lastName: 'Offen' });
    const { email: confirmed } = await signUp({ lastName: 'Bestätigt' });
    const { email: unsubscribed } = await signUp({ lastName: 'Weg', phone: undefined });
    const { email: gone } = await signUp({ lastName: 'Gelöscht' });
    await confirmWith((await linksFor(confirmed)).confirm);
    // Unsubscribing deletes; rows from before that rule keep their unsubscribe time.
    await unsubscribeWith((await linksFor(gone)).unsubscribe);
    await t.orm.em
      .fork()
      .nativeUpdate(VisitorRegistration, { email: unsubscribed }, { unsubscribedAt: new Date() });

    const res = await (await clientWithRole('admin')).get('/api/admin/visitors');
    expect(res.status).toBe(200);
    const { visitors, counts } = res.data as {
      visitors: Array<Record<string, unknown>>;
      counts: Record<string, number>;
    };
    expect(visitors.some((v) => v.email === gone)).toBe(false);
    const mine = visitors.filter((v) => [pending, confirmed, unsubscribed].includes(String(v.email)));
    expect(mine.map((v) => v.email)).toEqual([unsubscribed, confirmed, pending]);
    expect(mine[0]).toEqual({
      id: expect.any(String),
      firstName: 'Anna',
      lastName: 'Weg',
      email: unsubscribed,
      phone: null,
      createdAt: expect.any(String),
      confirmedAt: null,
      unsubscribedAt: expect.any(String),
      state: 'unsubscribed',
    });
    expect(mine[1]).toMatchObject({ state: 'confirmed', confirmedAt: expect.any(String) });
    expect(mine[2]).toMatchObject({ state: 'pending', phone: '0351 123456' });

    const times = visitors.map((v) => Date.parse(String(v.createdAt)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const byState = (state: string) => visitors.filter((v) => v.state === state).length;
    expect(counts).toEqual({
      total: visitors.length,
      pending: byState('pending'),
      confirmed: byState('confirmed'),
      unsubscribed: byState('unsubscribed'),
    });
    expect(counts.total).toBe(counts.pending! + counts.confirmed! + counts.unsubscribed!);
  });

  it('exports a BOM-prefixed, semicolon-separated German CSV that spreadsheets cannot execute', async () => {
    const { email } = await signUp({
      firstName: '=HYPERLINK("http://example.com";"klick")',
      lastName: '@Müller; "Sohn"',
      phone: '+49 351 123456',
    });
    await confirmWith((await linksFor(email)).confirm);
    const admin = await clientWithRole('admin');

    const res = await fetch(new URL('/api/admin/visitors.csv', t.baseUrl), {
      headers: { cookie: admin.cookieHeader },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="besucher-${today}.csv"`);

    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('"Vorname";"Nachname";"E-Mail";"Telefon";"Angemeldet am";"Bestätigt am";"Status"');
    expect(lines.at(-1)).toBe('');

    const line = lines.find((l) => l.includes(email));
    const row = await rowOf(email);
    const format = (date: Date) =>
      new Intl.DateTimeFormat('de-DE', {
        timeZone: 'Europe/Berlin',
        dateStyle: 'medium',
        timeStyle: 'short',
      }).format(date);
    expect(format(row!.createdAt)).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(line).toBe(
      [
        `"'=HYPERLINK(""http://example.com"";""klick"")"`,
        `"'@Müller; ""Sohn"""`,
        `"${email}"`,
        `"'+49 351 123456"`,
        `"${format(row!.createdAt)}"`,
        `"${format(row!.confirmedAt!)}"`,
        '"Bestätigt"',
      ].join(';'),
    );
  });
});
