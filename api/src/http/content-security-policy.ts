import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Content-Security-Policy of every answer, built here only. Scripts and styles come from this
 * origin; a page rendered on the server adds the nonce of its response (its hydration scripts carry
 * it) and the hashes of the style attributes in its markup. Answers that need another policy (a
 * stored object, a mail preview, the queue dashboard) set or narrow it where they are served.
 */
export function contentSecurityPolicy(options: { s3Origin: string; upgradeInsecureRequests: boolean }) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: [
        "'self'",
        (_req: IncomingMessage, res: ServerResponse) => {
          const nonce = cspNonce(res);
          return nonce ? `'nonce-${nonce}'` : '';
        },
      ],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      // Browsers upload straight to S3 with presigned requests.
      connectSrc: ["'self'", options.s3Origin],
      mediaSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      ...(options.upgradeInsecureRequests ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/** The CSP nonce of a server-rendered page, set before the security headers are written. */
type WithNonce = ServerResponse & { locals?: { cspNonce?: string } };

/** Gives this response a nonce of its own for its scripts; call before the headers are written. */
export function assignCspNonce(res: ServerResponse): void {
  const response = res as WithNonce;
  response.locals = { ...response.locals, cspNonce: randomBytes(16).toString('base64') };
}

export function cspNonce(res: ServerResponse): string | undefined {
  return (res as WithNonce).locals?.cspNonce;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'", '#x27': "'" };

const sha256 = (value: string) => `'sha256-${createHash('sha256').update(value).digest('base64')}'`;

/** The hashes of the style attributes in rendered markup, as CSP sources. */
export function renderedStyleHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/\sstyle="([^"]*)"/g)) {
    hashes.add(
      sha256(match[1]!.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, name: string) => ENTITIES[name]!)),
    );
  }
  return [...hashes];
}

/**
 * The hashes of a page's inline scripts (the router's hydration scripts), as CSP sources; scripts
 * loaded from a file and data blocks (`type="application/json"`, never run) need none.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attributes = match[1]!;
    if (/\ssrc=/.test(attributes) || /\stype="(?!module"|text\/javascript")/.test(attributes)) continue;
    hashes.add(sha256(match[2]!));
  }
  return [...hashes];
}

/** Adds sources to one directive of a policy. */
function addSources(csp: string, directive: string, sources: string[]): string {
  if (sources.length === 0) return csp;
  return csp.replace(new RegExp(`(^|;)\\s*${directive} ([^;]*)`), (_, start: string, present: string) => {
    return `${start}${directive} ${present.trim()} ${sources.join(' ')}`;
  });
}

/**
 * Components write a few style attributes (a toaster's position, a collapsed accordion's size). A
 * server-rendered page carries them in its markup, where `style-src 'self'` would block them: the
 * page's CSP allows exactly those values by their hashes ('unsafe-hashes' admits hashed attribute
 * values only), nothing else inline.
 */
export function allowRenderedStyles(csp: string, html: string): string {
  const hashes = renderedStyleHashes(html);
  return hashes.length ? addSources(csp, 'style-src', ["'unsafe-hashes'", ...hashes]) : csp;
}

/** A policy without the nonce of the request it was written for. */
export const withoutNonce = (csp: string): string =>
  csp.replace(/\s*'nonce-[^']*'/g, '').replace(/script-src([^;]*?)\s+(;|$)/, 'script-src$1$2');

/**
 * The policy of a page kept for every visitor: one nonce for all would be no nonce at all, so its
 * inline scripts are allowed by their hashes instead (no 'unsafe-inline'), its style attributes as
 * above. `csp` is the policy every answer carries, without a nonce (`withoutNonce`).
 */
export function cachedPagePolicy(csp: string, hashes: { scripts: string[]; styles: string[] }): string {
  const scripts = addSources(csp, 'script-src', hashes.scripts);
  return hashes.styles.length
    ? addSources(scripts, 'style-src', ["'unsafe-hashes'", ...hashes.styles])
    : scripts;
}
