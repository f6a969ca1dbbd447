import { randomBytes } from 'node:crypto';
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
