import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
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

/** Creates a vehicle through the API as the client's user (a BMW M3 E46 unless told otherwise). */
export async function createVehicle(client: TestClient, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/vehicles', {
    brand: 'BMW',
    model: 'M3 E46',
    year: 2004,
    ps: 343,
    weightKg: 1570,
    topSpeedKmh: 280,
    zeroToHundredS: 5.2,
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.data as { id: string; name: string | null; brand: string; model: string };
}
