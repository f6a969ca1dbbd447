/**
 * The staff's second factor with STAFF_SECOND_FACTOR on: a password alone opens nothing of the
 * staff's, the key shown at setup gives codes that sign in, no code counts twice, each recovery
 * code once; a reset (command line, Team page) and a role change start the setup anew.
 */
import { QUEUE_NAMES, SECOND_FACTOR_MESSAGES, TEAM_MESSAGES } from '@schlosstreffen/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setRole } from '../../core/accounts/roles.js';
import { resetSecondFactor } from '../../core/accounts/second-factor.js';
import { collectAccountData } from '../../core/accounts/data-export.js';
import { systemAuditActor } from '../../core/audit/audit.js';
import { DataExport } from '../../core/model/data-export.entity.js';
import { AuditLog } from '../../core/model/audit-log.entity.js';
import { User } from '../../core/model/user.entity.js';
import { SESSION_COOKIE } from '../../app.js';
import {
  createTestContext,
  createVehicle,
  insertConfirmedUser,
  insertImage,
  PASSWORD,
  registerUser,
  testClock,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';

const clock = testClock();
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false, env: { STAFF_SECOND_FACTOR: 'on' }, now: clock.now });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const em = () => t.orm.em.fork();

/** The current code of a key (as shown: groups of four) at the app's clock, as an authenticator app computes it. */
const codeOf = (key: string, at: Date = clock.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(key.replace(/\s/g, '')), timestamp: at.getTime() });

/** A confirmed account of the role, written into the table (the role given before any sign-in). */
async function staffAccount(role: 'admin' | 'reviewer') {
  const user = await insertConfirmedUser(t, {
    firstName: 'Tara',
    lastName: role === 'admin' ? 'Admin' : 'Prüf',
  });
  await em().nativeUpdate(User, { id: user.id }, { role });
  return user;
}

async function login(email: string, client: TestClient = t.client()) {
  const res = await client.post('/api/auth/login', { email, password: PASSWORD });
  return { client, res };
}

/** A staff account signed in with both factors; the key its app holds and its recovery codes. */
async function fullySignedIn(role: 'admin' | 'reviewer') {
  const user = await staffAccount(role);
  const { client } = await login(user.email);
  const setup = await client.get('/api/auth/second-factor/setup');
  expect(setup.status, setup.text).toBe(200);
  const done = await client.post('/api/auth/second-factor/setup', { code: codeOf(setup.data.key) });
  expect(done.status, done.text).toBe(200);
  return {
    ...user,
    client,
    key: setup.data.key as string,
    recoveryCodes: done.data.recoveryCodes as string[],
  };
}

/** What staff may read: none of it answers 200 to a session whose second factor is outstanding. */
async function staffAnswers(client: TestClient, vehicleId: string, image: string) {
  const paths = [
    '/api/admin/vehicles',
    '/api/admin/media',
    '/api/admin/waitlist',
    '/api/admin/editions',
    '/api/admin/check-in/list',
    '/api/admin/arrivals',
    '/api/admin/visitors',
    '/api/admin/retention',
    '/api/admin/quartett-sets',
    '/api/admin/team',
    `/api/vehicles/${vehicleId}`,
    `/api/vehicles/${vehicleId}/reviews`,
    '/admin/queues/api/queues',
    image,
  ];
  const answers: Record<string, number> = {};
  for (const path of paths) answers[path] = (await client.get(path)).status;
  const queuePage = await client.get('/admin/queues');
  answers['/admin/queues'] = queuePage.status;
  answers['PUT retry'] = (await client.put(`/admin/queues/api/queues/${QUEUE_NAMES[0]}/retry/failed`)).status;
  answers['POST check-in'] = (await client.post('/api/admin/check-in', { code: 'ABC' })).status;
  return answers;
}

describe('a staff sign-in with STAFF_SECOND_FACTOR on', () => {
  let vehicleId: string;
  let image: string;
  beforeAll(async () => {
    const { client: owner } = await t.signIn();
    vehicleId = (await createVehicle(owner, { status: 'submitted' })).id;
    image = (await insertImage(t, vehicleId)).path;
  });

  it('a password alone opens no admin route: the session waits for the setup', async () => {
    const admin = await staffAccount('admin');
    const { client, res } = await login(admin.email);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ secondFactor: 'setup', message: SECOND_FACTOR_MESSAGES.setupRequired });
    const me = await client.get('/api/auth/user');
    expect(me.status).toBe(401);
    expect(me.data).toEqual({ message: SECOND_FACTOR_MESSAGES.pending, secondFactor: 'setup' });

    const answers = await staffAnswers(client, vehicleId, image);
    expect(Object.values(answers).filter((status) => status === 200)).toEqual([]);
    expect(answers['/api/admin/vehicles']).toBe(401);
    expect(answers['/admin/queues/api/queues']).toBe(401);
    expect(answers['/admin/queues']).toBe(302);
    expect(answers[image]).toBe(404);
    // Not even one's own account: the session is not signed in yet.
    expect((await client.get('/api/account/export')).status).toBe(401);
  });

  it('a staff session from before the setting (or given the role while signed in) counts as outstanding', async () => {
    const signedIn = await t.signIn('reviewer');
    expect((await signedIn.client.get('/api/admin/vehicles')).status).toBe(401);
    const me = await signedIn.client.get('/api/auth/user');
    expect(me.data.secondFactor).toBe('setup');
  });

  it('the key shown at setup gives the code that signs in; the recovery codes come once, stored hashed', async () => {
    const admin = await staffAccount('admin');
    const { client } = await login(admin.email);
    const setup = await client.get('/api/auth/second-factor/setup');
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const key = setup.data.key as string;
    expect(key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    expect(setup.data.otpauthUri).toBe(
      `otpauth://totp/Schlosstreffen:${encodeURIComponent(admin.email)}?issuer=Schlosstreffen&secret=${key.replace(/ /g, '')}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(setup.data.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.data.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    // Asked again in the same sign-in: the same key (the page may be reloaded).
    expect((await client.get('/api/auth/second-factor/setup')).data.key).toBe(key);

    const wrong = await client.post('/api/auth/second-factor/setup', {
      code: codeOf(key, new Date(clock.now().getTime() - 5 * 60_000)),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.message).toBe(SECOND_FACTOR_MESSAGES.wrongCode);
    expect(wrong.data.issues).toEqual([{ field: 'code', message: SECOND_FACTOR_MESSAGES.wrongCode }]);
    expect((await client.post('/api/auth/second-factor/setup', { code: '12a' })).data.message).toBe(
      SECOND_FACTOR_MESSAGES.codeFormat,
    );
    expect((await client.get('/api/admin/vehicles')).status).toBe(401);

    const before = client.cookie(SESSION_COOKIE);
    const done = await client.post('/api/auth/second-factor/setup', { code: codeOf(key) });
    expect(done.status, done.text).toBe(200);
    expect(done.data.user).toMatchObject({ email: admin.email, role: 'admin' });
    expect(done.data.recoveryCodes).toHaveLength(10);
    expect(new Set(done.data.recoveryCodes).size).toBe(10);
    for (const code of done.data.recoveryCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    // A new session id once the sign-in is complete.
    expect(client.cookie(SESSION_COOKIE)).not.toBe(before);

    expect((await client.get('/api/auth/user')).status).toBe(200);
    const answers = await staffAnswers(client, vehicleId, image);
    expect(answers['/api/admin/vehicles']).toBe(200);
    expect(answers['/admin/queues/api/queues']).toBe(200);
    expect(answers['/admin/queues']).toBe(200);
    expect(answers['/api/admin/team']).toBe(200);
    expect(answers[image]).toBe(200);

    const [row] = await t.orm.em
      .getConnection()
      .execute<Array<{ second_factor_secret: string; second_factor_recovery_codes: string[] }>>(
        'select second_factor_secret, second_factor_recovery_codes from users where id = ?',
        [admin.id],
      );
    expect(row!.second_factor_secret).not.toContain(key.replace(/ /g, ''));
    expect(row!.second_factor_recovery_codes).toHaveLength(10);
    for (const code of done.data.recoveryCodes as string[]) {
      expect(row!.second_factor_recovery_codes.join(' ')).not.toContain(code.replace('-', ''));
    }
    // Set up once: the setup screen is not shown again.
    const again = await login(admin.email);
    expect(again.res.data.secondFactor).toBe('code');
    expect((await again.client.get('/api/auth/second-factor/setup')).status).toBe(409);
  });

  it('a code signs in once: the same code again is refused, the next one is taken', async () => {
    const admin = await fullySignedIn('admin');
    const first = await login(admin.email);
    expect(first.res.data).toEqual({ secondFactor: 'code', message: SECOND_FACTOR_MESSAGES.codeRequired });
    // The setup took this time step's code.
    const replayed = await first.client.post('/api/auth/second-factor/verify', { code: codeOf(admin.key) });
    expect(replayed.status).toBe(400);
    expect(replayed.data.message).toBe(SECOND_FACTOR_MESSAGES.wrongCode);

    clock.set(new Date(clock.now().getTime() + 30_000));
    const code = codeOf(admin.key);
    const ok = await first.client.post('/api/auth/second-factor/verify', {
      code: code.replace(/(\d{3})/, '$1 '),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.data.recoveryCodesLeft).toBe(10);
    expect((await first.client.get('/api/admin/vehicles')).status).toBe(200);
    // Each completed staff sign-in and the setup are in the audit log, with how the second factor came.
    const audit = await t.orm.em
      .getConnection()
      .execute<Array<{ action: string; by: string | null; actor_id: string; actor_role: string }>>(
        `select action, details->>'secondFactor' as by, actor_id, actor_role from audit_log
          where target = ? order by seq`,
        [admin.id],
      );
    expect(audit.map((row) => [row.action, row.by])).toEqual([
      ['auth.second_factor_setup', null],
      ['auth.staff_sign_in', 'setup'],
      ['auth.staff_sign_in', 'code'],
    ]);
    expect(audit.every((row) => row.actor_id === admin.id && row.actor_role === 'admin')).toBe(true);

    // Seen once, refused in any other sign-in.
    const second = await login(admin.email);
    expect((await second.client.post('/api/auth/second-factor/verify', { code })).status).toBe(400);
    expect((await second.client.get('/api/admin/vehicles')).status).toBe(401);
    // A code from a minute ago is refused too.
    clock.set(new Date(clock.now().getTime() + 30_000));
    const stale = codeOf(admin.key, new Date(clock.now().getTime() - 60_000));
    expect((await second.client.post('/api/auth/second-factor/verify', { code: stale })).status).toBe(400);
  });

  it('a recovery code signs in once', async () => {
    const reviewer = await fullySignedIn('reviewer');
    const recovery = reviewer.recoveryCodes[3]!;
    const first = await login(reviewer.email);
    const ok = await first.client.post('/api/auth/second-factor/verify', {
      recoveryCode: recovery.toLowerCase().replace('-', ' '),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.data.recoveryCodesLeft).toBe(9);
    expect((await first.client.get('/api/admin/vehicles')).status).toBe(200);

    const second = await login(reviewer.email);
    const again = await second.client.post('/api/auth/second-factor/verify', { recoveryCode: recovery });
    expect(again.status).toBe(400);
    expect(again.data.message).toBe(SECOND_FACTOR_MESSAGES.wrongRecoveryCode);
    expect((await second.client.get('/api/admin/vehicles')).status).toBe(401);
    const both = await second.client.post('/api/auth/second-factor/verify', {
      code: '123456',
      recoveryCode: reviewer.recoveryCodes[4],
    });
    expect(both.status).toBe(400);
    expect(both.data.message).toBe(SECOND_FACTOR_MESSAGES.codeOrRecoveryCode);
  });

  it('wrong codes are limited per account like passwords: after five, the account waits', async () => {
    const admin = await fullySignedIn('admin');
    const { client } = await login(admin.email);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await client.post('/api/auth/second-factor/verify', { code: '000000' })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
    const locked = await client.post('/api/auth/second-factor/verify', { code: codeOf(admin.key) });
    expect(locked.status).toBe(429);
    expect(locked.data.message).toMatch(/^Zu viele Versuche\. Bitte versuche es in \d+ Sekunden? erneut\.$/);
  });

  it('the step after the password lapses after ten minutes: the password is asked again', async () => {
    const admin = await fullySignedIn('admin');
    const { client } = await login(admin.email);
    await t.orm.em.getConnection().execute(
      `update session set sess = jsonb_set(sess, '{signedInAt}', to_jsonb((extract(epoch from now()) * 1000 - 11 * 60000)::bigint))
          where sess->>'userId' = ? and sess->>'secondFactorAt' is null`,
      [admin.id],
    );
    clock.set(new Date(clock.now().getTime() + 30_000));
    const late = await client.post('/api/auth/second-factor/verify', { code: codeOf(admin.key) });
    expect(late.status).toBe(401);
    expect(late.data.message).toBe(SECOND_FACTOR_MESSAGES.notPending);
  });

  it('users are not asked for a second factor', async () => {
    const user = await insertConfirmedUser(t);
    const { client, res } = await login(user.email);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ email: user.email, role: 'user' });
    expect((await client.get('/api/vehicles')).status).toBe(200);
    expect((await client.get('/api/auth/second-factor/setup')).status).toBe(401);
    expect((await client.post('/api/auth/second-factor/verify', { code: '123456' })).status).toBe(401);
  });

  it('signing in again on the same cookie as staff does not carry a completed second factor over', async () => {
    const admin = await fullySignedIn('admin');
    const other = await staffAccount('reviewer');
    const res = await admin.client.post('/api/auth/login', { email: other.email, password: PASSWORD });
    expect(res.data.secondFactor).toBe('setup');
    expect((await admin.client.get('/api/admin/vehicles')).status).toBe(401);
  });
});

describe('personal data', () => {
  it('the export says only that a second factor is set up and since when; deletion takes it with the account', async () => {
    const admin = await fullySignedIn('admin');
    const fork = em();
    const exportRow = fork.create(DataExport, { user: admin.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    const account = data!.documents['konto.json'] as { secondFactor: { setUp: boolean; since: Date } };
    expect(account.secondFactor).toEqual({ setUp: true, since: clock.now() });
    const text = JSON.stringify(data!.documents);
    expect(text).not.toContain(admin.key.replace(/ /g, ''));
    for (const code of admin.recoveryCodes) expect(text).not.toContain(code);
    const stored = await em().findOneOrFail(User, admin.id, { populate: ['secondFactorSecret'] });
    expect(text).not.toContain(stored.secondFactorSecret);

    const deleted = await admin.client.post('/api/account/delete', { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    const rows = await t.orm.em
      .getConnection()
      .execute('select 1 from users where second_factor_secret = ?', [stored.secondFactorSecret]);
    expect(rows).toEqual([]);
  });
});

describe('resetting the second factor', () => {
  it('with the command line: the sessions end and the next sign-in sets a new key up', async () => {
    const admin = await fullySignedIn('admin');
    expect((await admin.client.get('/api/admin/vehicles')).status).toBe(200);
    const reset = await resetSecondFactor(t.orm.em, admin.email.toUpperCase(), {
      actor: systemAuditActor('Kommandozeile'),
    });
    expect(reset?.id).toBe(admin.id);
    expect((await admin.client.get('/api/admin/vehicles')).status).toBe(401);
    const user = await em().findOneOrFail(User, admin.id, {
      populate: ['secondFactorSecret', 'secondFactorRecoveryCodes'],
    });
    expect(user.secondFactorEnabledAt).toBeNull();
    expect(user.secondFactorSecret).toBeNull();
    expect(user.secondFactorRecoveryCodes).toBeNull();
    const again = await login(admin.email);
    expect(again.res.data.secondFactor).toBe('setup');
    const setup = await again.client.get('/api/auth/second-factor/setup');
    expect(setup.data.key).not.toBe(admin.key);
    // The old recovery codes went with it.
    expect(
      (await again.client.post('/api/auth/second-factor/verify', { recoveryCode: admin.recoveryCodes[0] }))
        .status,
    ).toBe(409);
    expect(
      await resetSecondFactor(t.orm.em, 'niemand@example.de', { actor: systemAuditActor('x') }),
    ).toBeUndefined();
  });

  it('from the Team page: an admin resets a reviewer’s, whose sessions end', async () => {
    const admin = await fullySignedIn('admin');
    const reviewer = await fullySignedIn('reviewer');
    const team = await admin.client.get('/api/admin/team');
    expect(team.status).toBe(200);
    expect(team.data.secondFactorRequired).toBe(true);
    const listed = team.data.members.find((member: { id: string }) => member.id === reviewer.id);
    expect(listed).toMatchObject({ email: reviewer.email, role: 'reviewer', recoveryCodesLeft: 10 });
    expect(Date.parse(listed.secondFactorSince)).toBe(clock.now().getTime());

    const res = await admin.client.post(`/api/admin/team/${reviewer.id}/reset-second-factor`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.data.message).toBe(TEAM_MESSAGES.secondFactorReset('Tara Prüf'));
    expect(res.data.members.find((member: { id: string }) => member.id === reviewer.id)).toMatchObject({
      secondFactorSince: null,
      recoveryCodesLeft: 0,
    });
    expect((await reviewer.client.get('/api/admin/vehicles')).status).toBe(401);
    expect((await login(reviewer.email)).res.data.secondFactor).toBe('setup');
    const audit = await em().find(AuditLog, { action: 'auth.second_factor_reset', target: reviewer.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, actorRole: 'admin' });
  });

  it('a role change does: leaving the team and joining again means a new setup', async () => {
    const reviewer = await fullySignedIn('reviewer');
    await setRole(t.orm.em, reviewer.email, 'user', { actor: systemAuditActor('Kommandozeile') });
    expect((await em().findOneOrFail(User, reviewer.id)).secondFactorEnabledAt).toBeNull();
    await setRole(t.orm.em, reviewer.email, 'reviewer', { actor: systemAuditActor('Kommandozeile') });
    const { client, res } = await login(reviewer.email);
    expect(res.data.secondFactor).toBe('setup');
    expect((await client.post('/api/auth/second-factor/verify', { code: codeOf(reviewer.key) })).status).toBe(
      409,
    );
    // Between staff roles the second factor stays: the person is the same.
    const admin = await fullySignedIn('admin');
    await setRole(t.orm.em, admin.email, 'reviewer', { actor: systemAuditActor('Kommandozeile') });
    expect((await em().findOneOrFail(User, admin.id)).secondFactorEnabledAt).not.toBeNull();
  });
});

describe('the Team page', () => {
  it('gives a role to a confirmed account only, takes it away, and never the own admin role', async () => {
    const admin = await fullySignedIn('admin');
    const confirmed = await insertConfirmedUser(t, { firstName: 'Nele', lastName: 'Neu' });
    const given = await admin.client.post('/api/admin/team', {
      email: confirmed.email.toUpperCase(),
      role: 'reviewer',
    });
    expect(given.status, given.text).toBe(200);
    expect(given.data.message).toBe('Nele Neu ist jetzt Prüfer.');
    expect(given.data.members.find((member: { id: string }) => member.id === confirmed.id)).toMatchObject({
      role: 'reviewer',
      secondFactorSince: null,
    });
    const again = await admin.client.post('/api/admin/team', { email: confirmed.email, role: 'reviewer' });
    expect(again.data.message).toBe('Nele Neu ist bereits Prüfer.');
    expect(
      await em().count(AuditLog, { action: 'accounts.role', target: confirmed.id, actorId: admin.id }),
    ).toBe(1);
    // The new reviewer's first sign-in sets their second factor up.
    expect((await login(confirmed.email)).res.data.secondFactor).toBe('setup');

    const unconfirmedClient = t.client();
    const { email: unconfirmed } = await registerUser(unconfirmedClient);
    const refused = await admin.client.post('/api/admin/team', { email: unconfirmed, role: 'admin' });
    expect(refused.status).toBe(400);
    expect(refused.data.issues).toEqual([{ field: 'email', message: TEAM_MESSAGES.unconfirmed }]);
    const unknown = await admin.client.post('/api/admin/team', {
      email: 'gibt-es-nicht@example.de',
      role: 'admin',
    });
    expect(unknown.data.message).toBe(TEAM_MESSAGES.unknownAccount);
    expect(
      (await admin.client.post('/api/admin/team', { email: confirmed.email, role: 'user' })).status,
    ).toBe(400);

    const own = await admin.client.delete(`/api/admin/team/${admin.id}`);
    expect(own.status).toBe(409);
    expect(own.data.message).toBe(TEAM_MESSAGES.ownAdminRole);
    const demote = await admin.client.post('/api/admin/team', { email: admin.email, role: 'reviewer' });
    expect(demote.status).toBe(409);

    const taken = await admin.client.delete(`/api/admin/team/${confirmed.id}`);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.data.message).toBe('Nele Neu gehört nicht mehr zum Team.');
    expect((await em().findOneOrFail(User, confirmed.id)).role).toBe('user');
    expect((await admin.client.delete(`/api/admin/team/${confirmed.id}`)).status).toBe(404);
    expect((await admin.client.delete('/api/admin/team/kein-uuid')).status).toBe(404);
  });
});
