import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Kinds of mailed links; each gets its own key derived from the session secret. */
export type LinkScope = 'visitor' | 'invitation' | 'award';

const keys = new Map<string, Buffer>();
function linkKey(secret: string, scope: LinkScope): Buffer {
  const cacheKey = `${scope}\0${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'schlosstreffen', `${scope}-link`, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/** `<row id>.<HMAC-SHA256(purpose, id)>`: stable per row and purpose, unguessable without the secret. */
export function createLinkToken(secret: string, scope: LinkScope, purpose: string, id: string): string {
  const mac = createHmac('sha256', linkKey(secret, scope)).update(`${purpose}:${id}`).digest('base64url');
  return `${id}.${mac}`;
}

/** The row id a token was issued for, or null when the token is not ours for this scope and purpose. */
export function verifyLinkToken(
  secret: string,
  scope: LinkScope,
  purpose: string,
  token: unknown,
): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const id = token.slice(0, token.indexOf('.'));
  if (!id) return null;
  const given = Buffer.from(token);
  const expected = Buffer.from(createLinkToken(secret, scope, purpose, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
