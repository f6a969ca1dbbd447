import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption for secrets that must pass through the outbox and the queue
 * (reset tokens), so neither the database nor Redis ever holds them in clear. A `purpose` derives a
 * key of its own (the staff's second-factor keys at rest), so one kind of box never opens as another.
 */
export type SealPurpose = 'job-payload-seal' | 'second-factor-secret';

function key(secret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'schlosstreffen', purpose, 32));
}

export function seal(secret: string, value: unknown, purpose: SealPurpose = 'job-payload-seal'): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unseal<T = unknown>(
  secret: string,
  box: string,
  purpose: SealPurpose = 'job-payload-seal',
): T {
  const raw = Buffer.from(box, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(secret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as T;
}
