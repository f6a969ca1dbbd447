import { createHash } from 'node:crypto';
import { MESSAGES, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unseal } from '../../core/crypto/seal.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { SESSION_COOKIE } from '../../app.js';
import {
  createTestContext,
  PASSWORD,
  registerUser,
  uniqueEmail,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';
import { User } from '../../core/model/user.entity.js';

let t: TestContext;
beforeAll(async () => {
  // The relay stays off: these tests read the outbox rows the API writes.
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const sessionCount = async (userId: string) => {
  const rows = await t.orm.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from session where sess->>'userId' = ?`, [userId]);
  return Number(rows[0]?.n);
};

/** The reset token from the newest outbox row for the email (it travels sealed). */
async function resetTokenFor(email: string): Promise<string> {
  const rows = await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'desc' } });
  const row = rows.find((r) => (r.payload as { to: string }).to === email);
  if (!row) throw new Error(`no reset mail queued for ${email}`);
  const { resetUrl } = unseal<{ resetUrl: string }>(t.config.sessionSecret, String(row.payload.sealed));
  return new URL(resetUrl).searchParams.get('token') ?? '';
}

async function signedInClient(): Promise<{ client: TestClient; email: string; userId: string }> {
  const client = t.client();
  const { email, user } = await registerUser(client);
  return { client, email, userId: user.id };
}

describe('POST /api/auth/register', () => {
  it('creates the account, signs in and never returns secrets', async () => {
    const client = t.client();
    const email = uniqueEmail('neu');
    const res = await client.post('/api/auth/register', {
      firstName: 'Max',
      lastName: 'Mustermann',
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ email, firstName: 'Max', lastName: 'Mustermann', role: 'user' });
    expect(res.text).not.toMatch(/passwordHash|resetToken|\$argon2/);
    const me = await client.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.data.email).toBe(email);

    const stored = await t.orm.em.fork().findOneOrFail(User, { email }, { populate: ['passwordHash'] });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it.each([
    ['firstName', { firstName: '' }, 'Vorname ist erforderlich'],
    ['lastName', { lastName: '' }, 'Nachname ist erforderlich'],
    ['email', { email: 'keine-email' }, 'Ungültige Email-Adresse'],
    ['password', { password: 'kurz' }, 'Passwort muss mindestens 8 Zeichen lang sein'],
  ])('rejects an invalid %s with its German message', async (field, override, message) => {
    const body = { firstName: 'A', lastName: 'B', email: uniqueEmail(), password: PASSWORD, ...override };
    const res = await t.client().post('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(message);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('answers a taken email (any case) with a German 409', async () => {
    const { email } = await registerUser(t.client());
    const res = await t.client().post('/api/auth/register', {
      firstName: 'A',
      lastName: 'B',
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(res.data).toEqual({ message: 'Diese Email-Adresse ist bereits registriert.' });
  });

  it('rate-limits registrations per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < t.config.rateLimits.register.points + 1; i++) {
      const res = await t.client().post('/api/auth/register', { email: 'x' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with a new session id and ends the previous session', async () => {
    const { client, email, userId } = await signedInClient();
    const before = client.cookie(SESSION_COOKIE);
    const stale = t.client();
    stale.setCookies(client);

    const res = await client.post('/api/auth/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: userId, email });
    const after = client.cookie(SESSION_COOKIE);
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await stale.get('/api/auth/user')).status).toBe(401);
    expect(await sessionCount(userId)).toBe(1);
  });

  it('sets a httpOnly, SameSite=Lax session cookie', async () => {
    const { email } = await registerUser(t.client());
    const res = await t.client().post('/api/auth/login', { email, password: PASSWORD });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const { email } = await registerUser(t.client());
    const wrong = await t.client().post('/api/auth/login', { email, password: 'falsches-passwort' });
    const unknown = await t.client().post('/api/auth/login', { email: uniqueEmail(), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data).toEqual({ message: 'Falsche Email oder Passwort.' });
    expect(unknown.data).toEqual(wrong.data);
  });

  it.each([
    ['email', { email: 'kaputt', password: 'x' }, 'Ungültige Email-Adresse'],
    ['password', { email: 'a@b.de', password: '' }, 'Passwort ist erforderlich'],
  ])('validates %s', async (field, body, message) => {
    const res = await t.client().post('/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('locks an account with backoff after its free failures, even for the right password', async () => {
    const { email } = await registerUser(t.client());
    const { free } = t.config.rateLimits.loginPerAccount;
    for (let i = 0; i <= free; i++) {
      expect((await t.client().post('/api/auth/login', { email, password: 'falsch-falsch' })).status).toBe(
        401,
      );
    }
    const blocked = await t.client().post('/api/auth/login', { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.data.message).toMatch(/^Zu viele Versuche\. Bitte versuche es in \d+ Sekunden erneut\.$/);
    // An account that does not exist behaves alike: the lock tells nothing.
    const nobody = uniqueEmail('niemand');
    for (let i = 0; i <= free; i++) {
      expect((await t.client().post('/api/auth/login', { email: nobody, password: 'x' })).status).toBe(401);
    }
    expect((await t.client().post('/api/auth/login', { email: nobody, password: 'x' })).status).toBe(429);
  });
});

describe('GET /api/auth/user and POST /api/auth/logout', () => {
  it('answers 401 in German when signed out', async () => {
    const res = await t.client().get('/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ message: MESSAGES.unauthorized });
  });

  it('logout destroys the server session, so a copied cookie is dead too', async () => {
    const { client, userId } = await signedInClient();
    const copy = t.client();
    copy.setCookies(client);
    const res = await client.post('/api/auth/logout', {});
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ message: 'Erfolgreich abgemeldet' });
    expect(await sessionCount(userId)).toBe(0);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await copy.get('/api/auth/user')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('forgot-password answers identically whether or not the account exists', async () => {
    const { email } = await registerUser(t.client());
    const before = await t.orm.em.fork().count(Outbox);
    const known = await t.client().post('/api/auth/forgot-password', { email });
    const unknown = await t.client().post('/api/auth/forgot-password', { email: uniqueEmail('niemand') });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.data).toEqual(known.data);
    expect(known.data).toEqual({
      message: 'Falls die E-Mail-Adresse existiert, wurde ein Reset-Link versendet.',
    });
    // Only the existing account got a mail queued.
    expect(await t.orm.em.fork().count(Outbox)).toBe(before + 1);
  });

  it('validates the email', async () => {
    const res = await t.client().post('/api/auth/forgot-password', { email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe('Ungültige Email-Adresse');
  });

  it('stores the 32-byte token only as a hash and never in clear in the outbox', async () => {
    const { email } = await registerUser(t.client());
    await t.client().post('/api/auth/forgot-password', { email });
    const token = await resetTokenFor(email);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const user = await t.orm.em
      .fork()
      .findOneOrFail(User, { email }, { populate: ['resetToken', 'resetTokenExpiry'] });
    expect(user.resetToken).toBe(createHash('sha256').update(token).digest('hex'));
    const expiresIn = (user.resetTokenExpiry?.getTime() ?? 0) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60 * 1000);
    const outbox = await t.orm.em
      .getConnection()
      .execute<{ payload: unknown }[]>('select payload from outbox');
    expect(JSON.stringify(outbox)).not.toContain(token);
  });

  it('verifies the token, resets once, and ends every session of the account', async () => {
    const { client, email, userId } = await signedInClient();
    await t.client().post('/api/auth/forgot-password', { email });
    const token = await resetTokenFor(email);

    const verified = await t.client().post('/api/auth/verify-reset-token', { token });
    expect(verified.status).toBe(200);
    expect(verified.data).toEqual({ valid: true, email });

    const reset = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'ganz-neues-passwort' });
    expect(reset.status).toBe(200);
    expect(reset.data).toEqual({ message: 'Passwort erfolgreich zurückgesetzt' });
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect(await sessionCount(userId)).toBe(0);

    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect(
      (await t.client().post('/api/auth/login', { email, password: 'ganz-neues-passwort' })).status,
    ).toBe(200);

    const reused = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'noch-ein-passwort' });
    expect(reused.status).toBe(400);
    expect(reused.data).toEqual({ message: 'Der Reset-Link ist nicht mehr gültig.' });
    expect((await t.client().post('/api/auth/verify-reset-token', { token })).status).toBe(400);
  });

  it('refuses an expired token', async () => {
    const { email } = await registerUser(t.client());
    await t.client().post('/api/auth/forgot-password', { email });
    const token = await resetTokenFor(email);
    await t.orm.em.fork().nativeUpdate(User, { email }, { resetTokenExpiry: new Date(Date.now() - 1000) });
    const verify = await t.client().post('/api/auth/verify-reset-token', { token });
    expect(verify.status).toBe(400);
    expect(verify.data.message).toBe('Der Reset-Link ist nicht mehr gültig.');
    const reset = await t
      .client()
      .post('/api/auth/reset-password', { token, newPassword: 'ganz-neues-passwort' });
    expect(reset.status).toBe(400);
  });

  it('only the newest token works', async () => {
    const { email } = await registerUser(t.client());
    await t.client().post('/api/auth/forgot-password', { email });
    const first = await resetTokenFor(email);
    await t.client().post('/api/auth/forgot-password', { email });
    const second = await resetTokenFor(email);
    expect((await t.client().post('/api/auth/verify-reset-token', { token: first })).status).toBe(400);
    expect((await t.client().post('/api/auth/verify-reset-token', { token: second })).status).toBe(200);
  });

  it.each([
    ['/api/auth/verify-reset-token', {}, 'token', 'Reset-Token ist erforderlich'],
    [
      '/api/auth/reset-password',
      { token: 'abc', newPassword: 'kurz' },
      'newPassword',
      'Passwort muss mindestens 8 Zeichen lang sein',
    ],
  ])('%s validates its body', async (path, body, field, message) => {
    const res = await t.client().post(path, body);
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('rate-limits forgot-password', async () => {
    const limit = t.config.rateLimits.forgotPassword.points;
    for (let i = 0; i < limit; i++) {
      expect((await t.client().post('/api/auth/forgot-password', { email: uniqueEmail() })).status).toBe(200);
    }
    const blocked = await t.client().post('/api/auth/forgot-password', { email: uniqueEmail() });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('PATCH /api/auth/profile', () => {
  it('changes names at once; a new email needs the password and takes effect once its link is opened', async () => {
    const { client, email: old, userId } = await signedInClient();
    const other = t.client();
    expect((await other.post('/api/auth/login', { email: old, password: PASSWORD })).status).toBe(200);
    const email = uniqueEmail('neu');

    const names = await client.patch('/api/auth/profile', {
      firstName: 'Jonas',
      lastName: 'Becker',
      email: old,
    });
    expect(names.status).toBe(200);
    expect(names.data).toMatchObject({
      firstName: 'Jonas',
      lastName: 'Becker',
      email: old,
      pendingEmail: null,
    });

    const unproven = await client.patch('/api/auth/profile', {
      firstName: 'Jonas',
      lastName: 'Becker',
      email,
    });
    expect(unproven.status).toBe(400);
    expect(unproven.data.issues).toContainEqual({
      field: 'currentPassword',
      message: PRIVACY_MESSAGES.passwordRequiredForEmail,
    });
    const wrong = await client.patch('/api/auth/profile', {
      firstName: 'Jonas',
      lastName: 'Becker',
      email,
      currentPassword: 'falsch-falsch',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.message).toBe(MESSAGES.wrongCurrentPassword);

    const res = await client.patch('/api/auth/profile', {
      firstName: 'Jonas',
      lastName: 'Becker',
      email,
      currentPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ email: old, pendingEmail: email });
    expect((await client.get('/api/auth/user')).data.email).toBe(old);

    // The new address gets the link (sealed in the queue), the old one is told.
    const mails = await t.orm.em.fork().find(Outbox, { job: 'email.send' });
    const notice = mails.find(
      (row) => row.payload.to === old && row.payload.template === 'email-change-notice',
    );
    expect(notice?.payload.props).toEqual({ firstName: 'Jonas', newEmail: email });
    const confirm = mails.find(
      (row) => row.payload.to === email && row.payload.template === 'email-change-confirm',
    );
    const { confirmUrl } = unseal<{ confirmUrl: string }>(
      t.config.sessionSecret,
      String(confirm?.payload.sealed),
    );
    expect(confirmUrl.startsWith(`${t.config.publicUrl}/email-bestaetigen?token=`)).toBe(true);
    const token = new URL(confirmUrl).searchParams.get('token')!;

    // A reset link asked for before the change is void afterwards.
    await t.client().post('/api/auth/forgot-password', { email: old });
    const before = await t.orm.em.fork().findOneOrFail(User, userId, { populate: ['resetToken'] });
    expect(before.resetToken).not.toBeNull();

    expect((await t.client().post('/api/auth/confirm-email', { token: `${token}x` })).status).toBe(400);
    const confirmed = await client.post('/api/auth/confirm-email', { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data).toEqual({ message: PRIVACY_MESSAGES.emailChanged });
    expect((await client.get('/api/auth/user')).data).toMatchObject({ email, pendingEmail: null });
    expect((await other.get('/api/auth/user')).status).toBe(401);
    const after = await t.orm.em.fork().findOneOrFail(User, userId, { populate: ['resetToken'] });
    expect(after.resetToken).toBeNull();
    // The link works once.
    expect((await client.post('/api/auth/confirm-email', { token })).status).toBe(400);
  });

  it('refuses an email that belongs to another account', async () => {
    const { email: taken } = await registerUser(t.client());
    const { client } = await signedInClient();
    const res = await client.patch('/api/auth/profile', {
      firstName: 'A',
      lastName: 'B',
      email: taken,
      currentPassword: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe('Diese Email-Adresse ist bereits registriert.');
  });

  it.each([
    ['firstName', { firstName: '' }, 'Vorname ist erforderlich'],
    ['lastName', { lastName: '' }, 'Nachname ist erforderlich'],
    ['email', { email: 'x' }, 'Ungültige Email-Adresse'],
  ])('validates %s', async (field, override, message) => {
    const { client } = await signedInClient();
    const res = await client.patch('/api/auth/profile', {
      firstName: 'A',
      lastName: 'B',
      email: uniqueEmail(),
      ...override,
    });
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('needs a signed-in user', async () => {
    const res = await t
      .client()
      .patch('/api/auth/profile', { firstName: 'A', lastName: 'B', email: uniqueEmail() });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  it('changes the password and ends the other sessions, keeping this one', async () => {
    const { client, email, userId } = await signedInClient();
    const other = t.client();
    expect((await other.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    expect(await sessionCount(userId)).toBe(2);

    const res = await client.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'neues-passwort-2',
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ message: 'Passwort geändert' });
    expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect(await sessionCount(userId)).toBe(1);
    expect((await t.client().post('/api/auth/login', { email, password: 'neues-passwort-2' })).status).toBe(
      200,
    );
  });

  it('refuses a wrong current password', async () => {
    const { client } = await signedInClient();
    const res = await client.post('/api/auth/change-password', {
      currentPassword: 'falsch-falsch',
      newPassword: 'neues-passwort-2',
    });
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({
      field: 'currentPassword',
      message: 'Das aktuelle Passwort ist falsch.',
    });
  });

  it.each([
    [
      'currentPassword',
      { currentPassword: '', newPassword: 'neues-passwort-2' },
      'Aktuelles Passwort ist erforderlich',
    ],
    [
      'newPassword',
      { currentPassword: PASSWORD, newPassword: 'kurz' },
      'Neues Passwort muss mindestens 8 Zeichen lang sein',
    ],
  ])('validates %s', async (field, body, message) => {
    const { client } = await signedInClient();
    const res = await client.post('/api/auth/change-password', body);
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('needs a signed-in user', async () => {
    const res = await t
      .client()
      .post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'neues-passwort-2' });
    expect(res.status).toBe(401);
  });
});
