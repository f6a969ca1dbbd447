/**
 * Confirmed addresses: a new account confirms its email by link before anything trusts it, and an
 * email change can be stopped by the old address, a password reset or a password change.
 */
import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmAddressByOperator } from '../../core/accounts/auth.service.js';
import { User } from '../../core/model/user.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import {
  createTestContext,
  mailedLinkToken,
  PASSWORD,
  registerUser,
  uniqueEmail,
  type TestClient,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';

let t: TestContext;
beforeAll(async () => {
  // The relay stays off: these tests read the outbox rows the API writes.
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const application = {
  brand: 'Audi',
  model: 'Sport quattro',
  year: 1985,
  ps: 306,
  weightKg: 1300,
  topSpeedKmh: 250,
  zeroToHundredS: 4.8,
};

const mailsTo = async (to: string) =>
  (await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'asc', id: 'asc' } }))
    .map((row) => row.payload as { template: string; to: string; props: Record<string, unknown> })
    .filter((payload) => payload.to === to);

const userRow = (id: string) => t.orm.em.fork().findOneOrFail(User, id);

async function unconfirmed(): Promise<{ client: TestClient; email: string; id: string }> {
  const client = t.client();
  const { email, user } = await registerUser(client, { firstName: 'Fremd', lastName: 'Text' });
  return { client, email, id: (user as { id: string }).id };
}

describe('a new account', () => {
  it('is sent a confirmation link that names nobody, and nothing else', async () => {
    const { client, email, id } = await unconfirmed();
    expect((await client.get('/api/auth/user')).data).toMatchObject({ email, emailVerified: false });
    const mails = await mailsTo(email);
    expect(mails.map((mail) => mail.template)).toEqual(['account-confirm']);
    expect(mails[0]!.props).toEqual({});
    expect(JSON.stringify(mails)).not.toContain('Fremd');
    expect((await userRow(id)).emailConfirmToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps drafts but submits no application until its address is confirmed', async () => {
    const { client, email } = await unconfirmed();
    const refused = await client.post('/api/vehicles', {
      ...application,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(refused.status).toBe(403);
    expect(refused.data.message).toBe(PRIVACY_MESSAGES.emailUnconfirmed);
    const draft = await client.post('/api/vehicles', application);
    expect(draft.status).toBe(201);
    const submit = await client.patch(`/api/vehicles/${draft.data.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(submit.status).toBe(403);
    expect(submit.data.message).toBe(PRIVACY_MESSAGES.emailUnconfirmed);
    expect((await mailsTo(email)).map((mail) => mail.template)).toEqual(['account-confirm']);

    const token = await mailedLinkToken(t, email, 'account-confirm');
    expect((await t.client().post('/api/auth/confirm-email', { token: `${token}x` })).status).toBe(400);
    // The link works signed out too (another device), and only once.
    const confirmed = await t.client().post('/api/auth/confirm-email', { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data).toEqual({ message: PRIVACY_MESSAGES.emailConfirmed });
    expect((await t.client().post('/api/auth/confirm-email', { token })).status).toBe(400);
    expect((await client.get('/api/auth/user')).data.emailVerified).toBe(true);

    expect(
      (await client.patch(`/api/vehicles/${draft.data.id}`, { status: 'submitted', ...SUBMISSION_CONSENTS }))
        .status,
    ).toBe(200);
    expect((await mailsTo(email)).map((mail) => mail.template)).toEqual([
      'account-confirm',
      'application-received',
    ]);
  });

  it('asks for a new link, limited per account and per address; only the newest works', async () => {
    const { client, email } = await unconfirmed();
    const first = await mailedLinkToken(t, email, 'account-confirm');
    const resent = await client.post('/api/auth/resend-confirmation', {});
    expect(resent.status).toBe(200);
    expect(resent.data).toEqual({ message: PRIVACY_MESSAGES.confirmationSent(email) });
    const second = await mailedLinkToken(t, email, 'account-confirm');
    expect(second).not.toBe(first);
    expect((await t.client().post('/api/auth/confirm-email', { token: first })).status).toBe(400);

    const perAddress = t.config.rateLimits.addressMailsPerAddress.points;
    const statuses: number[] = [];
    for (let i = 1; i < perAddress + 2; i++) {
      statuses.push((await client.post('/api/auth/resend-confirmation', {})).status);
    }
    expect(statuses.slice(0, perAddress - 1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Registration's own link, and as many more as the address may be sent.
    expect((await mailsTo(email)).filter((mail) => mail.template === 'account-confirm')).toHaveLength(
      1 + perAddress,
    );

    expect((await t.client().post('/api/auth/confirm-email', { token: second })).status).toBe(400);
    const newest = await mailedLinkToken(t, email, 'account-confirm');
    expect((await t.client().post('/api/auth/confirm-email', { token: newest })).status).toBe(200);
    const done = await client.post('/api/auth/resend-confirmation', {});
    expect(done.data).toEqual({ message: PRIVACY_MESSAGES.alreadyConfirmed });
  });

  it('an operator confirms an address checked by other means', async () => {
    const { client, email } = await unconfirmed();
    expect(await confirmAddressByOperator(t.orm.em.fork(), email.toUpperCase())).toBe(true);
    expect(await confirmAddressByOperator(t.orm.em.fork(), uniqueEmail('niemand'))).toBe(false);
    expect((await client.get('/api/auth/user')).data.emailVerified).toBe(true);
    expect(
      (await client.post('/api/vehicles', { ...application, status: 'submitted', ...SUBMISSION_CONSENTS }))
        .status,
    ).toBe(201);
  });
});

describe('accounts from before confirmation', () => {
  it('are asked at their next sign-in, once while the link is valid', async () => {
    const { email, id } = await unconfirmed();
    // As the migration leaves them: unconfirmed, no link sent.
    await t.orm.em.fork().nativeUpdate(User, { id }, { emailConfirmToken: null, emailConfirmExpiry: null });
    await t.orm.em.fork().nativeDelete(Outbox, { job: 'email.send' });

    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    expect((await mailsTo(email)).map((mail) => mail.template)).toEqual(['account-confirm']);
  });
});

describe('a password reset of an unconfirmed account', () => {
  it('greets nobody by name and confirms the address its link reached', async () => {
    const { email, id } = await unconfirmed();
    expect((await t.client().post('/api/auth/forgot-password', { email })).status).toBe(200);
    const reset = (await mailsTo(email)).find((mail) => mail.template === 'password-reset');
    expect(reset?.props).toEqual({});
    const token = await mailedLinkToken(t, email, 'password-reset', 'resetUrl');
    const res = await t.client().post('/api/auth/reset-password', { token, newPassword: 'neu-und-sicher-1' });
    expect(res.status).toBe(200);
    expect((await userRow(id)).emailVerified).toBe(true);
  });
});

describe('an email change', () => {
  async function startChange(client: TestClient, to = uniqueEmail('neu')) {
    const res = await client.patch('/api/auth/profile', {
      firstName: 'Mara',
      lastName: 'Test',
      email: to,
      currentPassword: PASSWORD,
    });
    expect(res.status, res.text).toBe(200);
    return to;
  }

  it('mails the new address without a name and the old one a link that cancels it', async () => {
    const { client, email } = await t.signIn('user', { firstName: 'Mara', lastName: 'Test' });
    const to = await startChange(client);
    const [confirm] = (await mailsTo(to)).filter((mail) => mail.template === 'email-change-confirm');
    expect(confirm?.props).toEqual({});
    const cancelToken = await mailedLinkToken(t, email, 'email-change-notice', 'cancelUrl');

    const cancelled = await t.client().post('/api/auth/cancel-email-change', { token: cancelToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.data).toEqual({ message: PRIVACY_MESSAGES.emailChangeCancelled });
    expect((await client.get('/api/auth/user')).data).toMatchObject({ email, pendingEmail: null });
    const changeToken = await mailedLinkToken(t, to, 'email-change-confirm');
    expect((await t.client().post('/api/auth/confirm-email', { token: changeToken })).status).toBe(400);
    expect((await t.client().post('/api/auth/cancel-email-change', { token: cancelToken })).status).toBe(400);
  });

  it('is cancelled by a password reset, so an attacker’s link no longer takes the account', async () => {
    const { client, email } = await t.signIn('user', { firstName: 'Mara', lastName: 'Test' });
    const attacker = await startChange(client);
    await t.client().post('/api/auth/forgot-password', { email });
    const resetToken = await mailedLinkToken(t, email, 'password-reset', 'resetUrl');
    expect(
      (
        await t
          .client()
          .post('/api/auth/reset-password', { token: resetToken, newPassword: 'zurueck-geholt-1' })
      ).status,
    ).toBe(200);
    const changeToken = await mailedLinkToken(t, attacker, 'email-change-confirm');
    const taken = await t.client().post('/api/auth/confirm-email', { token: changeToken });
    expect(taken.status).toBe(400);
    expect(taken.data.message).toBe(PRIVACY_MESSAGES.emailLinkInvalid);
    const owner = t.client();
    expect((await owner.post('/api/auth/login', { email, password: 'zurueck-geholt-1' })).status).toBe(200);
    expect((await owner.get('/api/auth/user')).data).toMatchObject({ email, pendingEmail: null });
  });

  it('is cancelled by a password change and by entering the current address again', async () => {
    const { client, email } = await t.signIn('user', { firstName: 'Mara', lastName: 'Test' });
    const first = await startChange(client);
    const changed = await client.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'ein-neues-passwort-2',
    });
    expect(changed.status).toBe(200);
    expect((await client.get('/api/auth/user')).data.pendingEmail).toBeNull();
    const firstToken = await mailedLinkToken(t, first, 'email-change-confirm');
    expect((await t.client().post('/api/auth/confirm-email', { token: firstToken })).status).toBe(400);

    const second = await client.patch('/api/auth/profile', {
      firstName: 'Mara',
      lastName: 'Test',
      email: uniqueEmail('zweit'),
      currentPassword: 'ein-neues-passwort-2',
    });
    expect(second.data.pendingEmail).not.toBeNull();
    const back = await client.patch('/api/auth/profile', { firstName: 'Mara', lastName: 'Test', email });
    expect(back.status).toBe(200);
    expect(back.data).toMatchObject({ email, pendingEmail: null });
  });

  it('is limited per account and per address', async () => {
    const { client } = await t.signIn('user', { firstName: 'Mara', lastName: 'Test' });
    const perAccount = t.config.rateLimits.addressMailsPerAccount.points;
    for (let i = 0; i < perAccount; i++) await startChange(client);
    const over = await client.patch('/api/auth/profile', {
      firstName: 'Mara',
      lastName: 'Test',
      email: uniqueEmail('zuviel'),
      currentPassword: PASSWORD,
    });
    expect(over.status).toBe(429);

    // One address, asked for by several accounts: its mails are limited too.
    const target = uniqueEmail('ziel');
    const perAddress = t.config.rateLimits.addressMailsPerAddress.points;
    for (let i = 0; i < perAddress; i++) {
      await startChange((await t.signIn('user', { firstName: 'Mara', lastName: 'Test' })).client, target);
    }
    const next = (await t.signIn('user', { firstName: 'Mara', lastName: 'Test' })).client;
    const refused = await next.patch('/api/auth/profile', {
      firstName: 'Mara',
      lastName: 'Test',
      email: target,
      currentPassword: PASSWORD,
    });
    expect(refused.status).toBe(429);
    expect((await mailsTo(target)).length).toBe(perAddress);
  });
});
