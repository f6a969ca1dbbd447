import { createHash, randomBytes } from 'node:crypto';
import { RESET_TOKEN_TTL_MS } from '@schlosstreffen/shared';

export function createResetToken(now = Date.now()): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token), expiresAt: new Date(now + RESET_TOKEN_TTL_MS) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
