import { createHash, randomBytes } from 'node:crypto';
import { RESET_TOKEN_TTL_MS } from '@schlosstreffen/shared';

/** A single-use link token: 32 random bytes; only its SHA-256 is stored. Reset links live one hour. */
export function createResetToken(
  now = Date.now(),
  ttlMs: number = RESET_TOKEN_TTL_MS,
): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token), expiresAt: new Date(now + ttlMs) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
