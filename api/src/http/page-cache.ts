import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { PublicInput } from '../core/public-list/public-inputs.js';
import { cachedPagePolicy, withoutNonce } from './content-security-policy.js';
import { Lru } from './lru.js';
import { CODINGS, type Coding } from './replay.js';

export type PageCoding = Coding;

/** A page as anyone who is not signed in sees it, rendered once for all of them. */
export interface RenderedPage {
  html: string;
  /** What the page's CSP must allow of it: its inline scripts' and style attributes' hashes. */
  hashes: { scripts: string[]; styles: string[] };
  /** The app's moment (ms) the page was written for: before it (a clock set back), it is not served. */
  validFrom: number;
  /** When (ms, the app's clock) the page may read otherwise without any change announced: the next phase change. */
  validUntil: number;
}

/** A kept page: its bytes in every coding, and what it was rendered from. */
export interface CachedPage {
  readonly path: string;
  readonly body: Buffer;
  readonly encoded: Readonly<Record<PageCoding, Buffer>>;
  /** Over the plain bytes; a compressed representation adds its coding (`"…-br"`). */
  readonly etag: string;
  readonly hashes: RenderedPage['hashes'];
  readonly renderedAt: number;
  readonly validFrom: number;
  readonly validUntil: number;
  readonly build: string;
}

export const pageEtag = (page: CachedPage, coding: PageCoding | undefined) =>
  coding ? `${page.etag.slice(0, -1)}-${coding}"` : page.etag;

/** What a page shows besides its build: every page the site config (editions, texts). */
export function inputsOf(pagePath: string): readonly PublicInput[] {
  if (pagePath.startsWith('/rueckblick/')) return ['editions', 'texts', 'vehicles', 'arrivals', 'jury'];
  if (pagePath.startsWith('/fahrzeuge/')) return ['editions', 'texts', 'vehicles', 'cars', 'jury'];
  if (pagePath.startsWith('/ergebnisse/')) return ['editions', 'texts', 'jury', 'vehicles'];
  if (pagePath === '/') return ['editions', 'texts', 'vehicles'];
  return ['editions', 'texts'];
}

interface Slot {
  page?: CachedPage;
  /** A change announced after the page was rendered. */
  stale: boolean;
  rendering?: Promise<CachedPage | null>;
  /** The render in flight follows a change: callers wait for it (a few milliseconds) instead of the page as it was. */
  awaited: boolean;
  /** When the last render started (ms). */
  renderStartedAt: number;
  timer?: NodeJS.Timeout;
  /** When the page was last asked for (ms): a page nobody asks for is dropped, not rendered again. */
  askedAt: number;
}

export interface PageCacheOptions {
  /** At most one render of a path per this many ms, however many changes arrive. */
  minIntervalMs?: number;
  /**
   * A kept page is rendered again after this long even without a change: it carries the moment it
   * was written, from which the browser runs the app's clock and the countdown.
   */
  maxAgeMs?: number;
  /** A page not asked for in this long is dropped at the next change instead of being rendered again. */
  idleMs?: number;
  /** Pages kept at most (`KEPT_PAGES`), and their bytes in every coding (`KEPT_PAGE_BYTES`). */
  maxPages?: number;
  maxBytes?: number;
  /** Whether changes are heard now; while not, a page is rendered again at most every minIntervalMs. */
  listening?: () => boolean;
  log?: (error: unknown) => void;
  now?: () => number;
  /** The app's clock (ms), which the calendar follows (APP_CLOCK); the real time by default. */
  clock?: () => number;
}

/** The pages kept at most, the least recently asked for (or rendered) out first. */
export const KEPT_PAGES = 2000;
/** The bytes of all kept pages at most, every coding counted. */
export const KEPT_PAGE_BYTES = 64 * 1024 * 1024;

/** A slot's bytes, approximately: its page in every coding, with its path and hashes. */
const slotBytes = (slot: Slot, pagePath: string) => {
  const page = slot.page;
  if (!page) return pagePath.length;
  const hashes = [...page.hashes.scripts, ...page.hashes.styles].reduce((sum, hash) => sum + hash.length, 0);
  return pagePath.length + page.body.length + page.encoded.br.length + page.encoded.gzip.length + hashes;
};

const compress = {
  // Rendered once per change, served to everyone: smaller bytes are worth a slower compression.
  br: (body: Buffer) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body: Buffer) => promisify(gzip)(body, { level: 9 }),
};

/**
 * The anonymous pages of this process, rendered once per change rather than per visit. A path is
 * rendered when first asked for; afterwards a change of an input it shows (announced by any
 * process, `changed`) renders it again in the background, at most once per `minIntervalMs`, while
 * the page as it was goes on being served; so does a page past `maxAgeMs`. A page past its
 * `validUntil` (the calendar moved on) or of another build is not served: it is rendered anew
 * while the caller waits. Every caller arriving meanwhile shares one render. At most `maxPages`
 * pages and `maxBytes` bytes are kept, the least recently asked for (or rendered) out first.
 */
export class PageCache {
  private readonly slots: Lru<string, Slot>;
  private renderer: ((pagePath: string) => Promise<RenderedPage | null>) | undefined;
  /** The build the renderer serves now (outside production a rebuild changes it). */
  build = '';
  private buildCheck: (() => Promise<string | null>) | undefined;
  private buildCheckedAt = 0;
  private readonly minIntervalMs: number;
  private readonly maxAgeMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions = {}) {
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.idleMs = options.idleMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.slots = new Lru({
      maxEntries: options.maxPages ?? KEPT_PAGES,
      maxBytes: options.maxBytes ?? KEPT_PAGE_BYTES,
      sizeOf: slotBytes,
      onEvict: (_pagePath, slot) => clearTimeout(slot.timer),
    });
  }

  /** What the cache holds: pages (and paths being rendered) and their bytes. */
  stats(): { pages: number; bytes: number } {
    return { pages: this.slots.size, bytes: this.slots.bytes };
  }

  /** How a page is rendered for the cache; null: this path is not kept (a redirect, a 404). */
  renderWith(renderer: (pagePath: string) => Promise<RenderedPage | null>): void {
    this.renderer = renderer;
  }

  /**
   * Outside production: how to learn the build being served; asked at most once per second while
   * pages are served, so a rebuilt client replaces them.
   */
  checkBuildWith(check: () => Promise<string | null>): void {
    this.buildCheck = check;
  }

  /** The kept page of this path if it may be served now, without waiting; refreshes it when due. */
  peek(pagePath: string): CachedPage | undefined {
    if (this.buildCheck && this.now() - this.buildCheckedAt >= 1000) {
      this.buildCheckedAt = this.now();
      void this.buildCheck().then(
        (build) => {
          if (build !== null) this.build = build;
        },
        () => undefined,
      );
    }
    const slot = this.slots.get(pagePath);
    const page = slot?.page;
    if (!slot || !page) return undefined;
    const now = this.now();
    const at = this.options.clock?.() ?? now;
    if (at < page.validFrom || at >= page.validUntil || page.build !== this.build) return undefined;
    slot.askedAt = now;
    if (slot.rendering && slot.awaited) return undefined;
    const deaf = this.options.listening && !this.options.listening();
    if (now - page.renderedAt >= this.maxAgeMs || (deaf && now - page.renderedAt >= this.minIntervalMs)) {
      this.schedule(pagePath, slot);
    }
    return page;
  }

  /** The page of this path: the kept one, or rendered now (shared with every caller meanwhile). */
  async get(pagePath: string): Promise<CachedPage | null> {
    const kept = this.peek(pagePath);
    if (kept) return kept;
    const slot = this.slotOf(pagePath);
    slot.askedAt = this.now();
    return slot.rendering ?? this.render(pagePath, slot);
  }

  /** Inputs changed (in any process): the pages that show them are rendered again. */
  changed(inputs: readonly PublicInput[]): void {
    const now = this.now();
    for (const [pagePath, slot] of this.slots) {
      if (!inputsOf(pagePath).some((input) => inputs.includes(input))) continue;
      if (!slot.rendering && now - slot.askedAt > this.idleMs) {
        clearTimeout(slot.timer);
        this.slots.delete(pagePath);
        continue;
      }
      slot.stale = true;
      this.schedule(pagePath, slot, true);
    }
  }

  /** Drops every kept page (tests, shutdown). */
  clear(): void {
    for (const [, slot] of this.slots) clearTimeout(slot.timer);
    this.slots.clear();
  }

  private slotOf(pagePath: string): Slot {
    let slot = this.slots.get(pagePath);
    if (!slot) {
      slot = { stale: false, awaited: false, renderStartedAt: 0, askedAt: this.now() };
      this.slots.set(pagePath, slot);
    }
    return slot;
  }

  /**
   * A render as soon as the interval since the last one allows. One that follows a change and may
   * start at once is waited for by the visits meanwhile, so a change is seen as soon as it is
   * rendered; one held back by the interval (changes in quick succession) is not: the page as it
   * was goes out until then.
   */
  private schedule(pagePath: string, slot: Slot, change = false): void {
    if (slot.timer || slot.rendering) return;
    const wait = slot.renderStartedAt + this.minIntervalMs - this.now();
    if (wait <= 0) {
      void this.render(pagePath, slot, change);
      return;
    }
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (this.slots.peek(pagePath) !== slot) return;
      void this.render(pagePath, slot);
    }, wait);
    slot.timer.unref();
  }

  private render(pagePath: string, slot: Slot, awaited = false): Promise<CachedPage | null> {
    const renderer = this.renderer;
    if (!renderer) return Promise.resolve(null);
    slot.stale = false;
    slot.awaited = awaited;
    slot.renderStartedAt = this.now();
    const build = this.build;
    const rendering = (async (): Promise<CachedPage | null> => {
      const rendered = await renderer(pagePath);
      if (!rendered) return null;
      const body = Buffer.from(rendered.html);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      const previous = slot.page;
      // The same bytes again (a change elsewhere): the compressed copies are kept.
      const encoded =
        previous?.etag === etag
          ? previous.encoded
          : { br: await compress.br(body), gzip: await compress.gzip(body) };
      return {
        path: pagePath,
        body,
        encoded,
        etag,
        hashes: rendered.hashes,
        renderedAt: slot.renderStartedAt,
        validFrom: rendered.validFrom,
        validUntil: rendered.validUntil,
        build,
      };
    })();
    slot.rendering = rendering;
    rendering.then(
      (page) => {
        slot.rendering = undefined;
        slot.awaited = false;
        if (this.slots.peek(pagePath) !== slot) return;
        if (page) {
          slot.page = page;
          // Counted anew with the page's bytes; beyond the bounds the least recently asked for go.
          this.slots.set(pagePath, slot);
          if (this.slots.peek(pagePath) !== slot) return;
        }
        // The path shows nothing any more (a car that left its place): the page as it was must go.
        else this.slots.delete(pagePath);
        if (slot.stale) this.schedule(pagePath, slot);
      },
      (error: unknown) => {
        slot.rendering = undefined;
        slot.awaited = false;
        // The page as it was goes on being served; the next change or request tries again.
        this.options.log?.(error);
        if (!slot.page && this.slots.peek(pagePath) === slot) this.slots.delete(pagePath);
      },
    );
    // A caller waiting for the render gets none: it renders the page as before the cache.
    return rendering.catch(() => null);
  }
}

/** A kept page is revalidated at every visit (its ETag answers 304) and differs once signed in. */
export const CACHED_PAGE_CACHE_CONTROL = 'no-cache';
export const CACHED_PAGE_VARY = 'Accept-Encoding, Cookie';
/** The codings offered, in the server's order of preference. */
export const PAGE_CODINGS = CODINGS;

const prepared = new WeakMap<CachedPage, Map<string, [OutgoingHttpHeaders, OutgoingHttpHeaders]>>();
/** The last policy given and its form without a nonce (the fast path gives the same one every time). */
let lastPolicy: [given: string, base: string] = ['', ''];

/**
 * The headers of a kept page in one coding: the 200's and the 304's. `csp` is the policy every answer
 * carries (a request's nonce in it is dropped); the page's own allows its inline parts by their
 * hashes. Prepared once per page, coding and policy.
 */
export function cachedPageHeaders(
  page: CachedPage,
  coding: PageCoding | undefined,
  csp: string,
): [ok: OutgoingHttpHeaders, notModified: OutgoingHttpHeaders] {
  if (lastPolicy[0] !== csp) lastPolicy = [csp, withoutNonce(csp)];
  const base = lastPolicy[1];
  let ofPage = prepared.get(page);
  if (!ofPage) prepared.set(page, (ofPage = new Map()));
  const key = `${coding ?? 'identity'}\n${base}`;
  let headers = ofPage.get(key);
  if (!headers) {
    const notModified: OutgoingHttpHeaders = {
      'cache-control': CACHED_PAGE_CACHE_CONTROL,
      vary: CACHED_PAGE_VARY,
      etag: pageEtag(page, coding),
      'content-security-policy': cachedPagePolicy(base, page.hashes),
    };
    const body = coding ? page.encoded[coding] : page.body;
    const ok: OutgoingHttpHeaders = {
      ...notModified,
      'content-type': 'text/html; charset=utf-8',
      ...(coding ? { 'content-encoding': coding } : {}),
      'content-length': body.length,
    };
    headers = [ok, notModified];
    ofPage.set(key, headers);
  }
  return headers;
}

const BASE_POLICY = Symbol('basePolicy');
type WithBasePolicy = ServerResponse & { [BASE_POLICY]?: string };

/** Notes, on a kept page's answer, the policy every answer carries, before the page's own replaced it. */
export function noteBasePolicy(res: ServerResponse, policy: string): void {
  (res as WithBasePolicy)[BASE_POLICY] = policy;
}

/** The policy noted on this answer (a kept page's). */
export const basePolicyOf = (res: ServerResponse) => (res as WithBasePolicy)[BASE_POLICY];
