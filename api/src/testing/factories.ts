import { randomBytes, randomUUID } from 'node:crypto';
import { currentEditionId } from './editions.js';
import { expect } from 'vitest';
import { hashPassword } from '../core/accounts/password.js';
import { unseal } from '../core/crypto/seal.js';
import { Outbox } from '../core/model/outbox.entity.js';
import { User } from '../core/model/user.entity.js';
import type { TestContext } from './test-context.js';
import type { TestClient } from './http-client.js';

export const PASSWORD = 'sicheres-passwort-1';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.de`;
}

/** Registers through the API (the client is signed in afterwards) and returns the credentials. */
export async function registerUser(client: TestClient, overrides: Record<string, unknown> = {}) {
  const body = {
    firstName: 'Lena',
    lastName: 'Weber',
    email: uniqueEmail(),
    password: PASSWORD,
    instagramHandle: '@lena.tuning',
    ...overrides,
  };
  const res = await client.post('/api/auth/register', body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { email: String(body.email).toLowerCase(), password: String(body.password), user: res.data };
}

/**
 * An account written straight into the table, its address confirmed, password `PASSWORD`: for
 * tests of mails to an account, which registration's own confirmation mail would mix into.
 */
export async function insertConfirmedUser(
  t: TestContext,
  overrides: { firstName?: string; lastName?: string; email?: string } = {},
): Promise<{ id: string; email: string }> {
  const em = t.orm.em.fork();
  const user = em.create(User, {
    email: overrides.email ?? uniqueEmail(),
    passwordHash: await hashPassword(PASSWORD),
    firstName: overrides.firstName ?? 'Lena',
    lastName: overrides.lastName ?? 'Weber',
    emailVerified: true,
  });
  await em.flush();
  return { id: user.id, email: user.email };
}

/** A confirmed account written into the table (no registration mail), signed in on a new client. */
export async function signInConfirmed(
  t: TestContext,
  overrides: { firstName?: string; lastName?: string; email?: string } = {},
): Promise<{ client: TestClient; id: string; email: string }> {
  const user = await insertConfirmedUser(t, overrides);
  const client = t.client();
  const res = await client.post('/api/auth/login', { email: user.email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { client, ...user };
}

/** The link token of the newest mail of the template to the address (links travel sealed). */
export async function mailedLinkToken(
  t: TestContext,
  to: string,
  template: string,
  link = 'confirmUrl',
): Promise<string> {
  const rows = await t.orm.em
    .fork()
    .find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const row = rows.find((r) => r.payload.to === to && r.payload.template === template);
  if (!row) throw new Error(`no ${template} mail queued for ${to}`);
  const url = unseal<Record<string, string>>(t.config.sessionSecret, String(row.payload.sealed))[link];
  return new URL(url!).searchParams.get('token') ?? '';
}

/**
 * For tests whose one account creates more vehicles than ACCOUNT_LIMITS allows: deletes all but the
 * newest `newest` of the account's vehicles (never those in `keep`), straight from the table.
 */
export async function makeRoomForVehicle(
  t: TestContext,
  userId: string,
  options: { keep?: string[]; newest?: number } = {},
): Promise<void> {
  const rows = await t.orm.em
    .getConnection()
    .execute<{ id: string }[]>(`select id from vehicle where user_id = ? order by created_at desc offset ?`, [
      userId,
      options.newest ?? 5,
    ]);
  const old = rows.map((row) => row.id).filter((id) => !options.keep?.includes(id));
  if (old.length) {
    await t.orm.em
      .getConnection()
      .execute(`delete from vehicle where id in (${old.map(() => '?').join(', ')})`, old, 'run');
  }
}

/** The three application consents as the wizard and the dashboard send them with a submission. */
export const SUBMISSION_CONSENTS = {
  consentMedia: true,
  consentQuartett: true,
  consentContact: true,
} as const;

/**
 * Creates a vehicle through the API as the client's user (a BMW M3 E46 unless told otherwise); a
 * submission (`status: 'submitted'`) sends the three consents unless the overrides name them.
 */
export async function createVehicle(client: TestClient, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/vehicles', {
    brand: 'BMW',
    model: 'M3 E46',
    year: 2004,
    ps: 343,
    weightKg: 1570,
    topSpeedKmh: 280,
    zeroToHundredS: 5.2,
    ...(overrides.status === 'submitted' ? SUBMISSION_CONSENTS : {}),
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.data as { id: string; name: string | null; brand: string; model: string };
}

/**
 * A confirmed vehicle of a new owner written straight into the tables, with its public list row
 * (a `{ id, brand }` stand-in for the projection); its id.
 */
export async function insertListedVehicle(t: TestContext, brand: string): Promise<string> {
  const execute = (sql: string, params: unknown[]) => t.orm.em.getConnection().execute(sql, params, 'run');
  const userId = randomUUID();
  const vehicleId = randomUUID();
  await execute(
    `insert into users (id, email, password_hash, first_name, last_name, created_at, updated_at)
     values (?, ?, 'x', 'Lena', 'Weber', now(), now())`,
    [userId, `${userId}@example.de`],
  );
  const editionId = await currentEditionId(t.orm.em);
  await execute(
    `insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg,
                          top_speed_kmh, zero_to_hundred_s, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'M3', 2001, 'confirmed', 343, 1500, 250, 5.2, now(), now())`,
    [vehicleId, userId, editionId, `${brand} M3`, brand],
  );
  await execute(
    `insert into public_vehicle (vehicle_id, edition_id, data, listed_at, updated_at)
     values (?, ?, ?, now(), now())`,
    [vehicleId, editionId, JSON.stringify({ id: vehicleId, brand })],
  );
  return vehicleId;
}
