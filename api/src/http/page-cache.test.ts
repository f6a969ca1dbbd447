import { describe, expect, it } from 'vitest';
import { cachedPageHeaders, PageCache, type RenderedPage } from './page-cache.js';

/** A page of about `bytes` bytes of markup that compresses badly (its bytes count in every coding). */
const pageOf = (pagePath: string, bytes: number): RenderedPage => ({
  html: `<p>${pagePath}</p>${Array.from({ length: bytes / 8 }, () => Math.random().toString(36).slice(2, 10)).join('')}`,
  hashes: { scripts: [], styles: [] },
  validFrom: -Infinity,
  validUntil: Infinity,
});

describe('the pages kept for visitors who are not signed in', () => {
  it('keeps at most its number of pages, the least recently asked for out first', async () => {
    const cache = new PageCache({ maxPages: 50 });
    cache.renderWith(async (pagePath) => pageOf(pagePath, 100));
    await cache.get('/fahrzeuge/2026/1');
    for (let number = 2; number <= 1000; number += 1) {
      await cache.get(`/fahrzeuge/2026/${number}`);
      // The first car is asked for all the time: it stays.
      expect(cache.peek('/fahrzeuge/2026/1')).toBeDefined();
    }
    expect(cache.stats().pages).toBe(50);
    expect(cache.peek('/fahrzeuge/2026/1000')).toBeDefined();
    expect(cache.peek('/fahrzeuge/2026/2')).toBeUndefined();
    cache.clear();
  });

  it('keeps at most its bytes, every coding counted', async () => {
    const cache = new PageCache({ maxBytes: 200_000 });
    cache.renderWith(async (pagePath) => pageOf(pagePath, 20_000));
    for (let number = 1; number <= 30; number += 1) await cache.get(`/fahrzeuge/2026/${number}`);
    const { pages, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(200_000);
    // Each page takes its 20 kB plain and about as much in each of Brotli and gzip.
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pages).toBeLessThan(5);
    expect(cache.peek('/fahrzeuge/2026/30')).toBeDefined();
    cache.clear();
  });

  it("prepares a page's headers once per coding, whatever nonce a request's policy carries", async () => {
    const cache = new PageCache();
    cache.renderWith(async (pagePath) => pageOf(pagePath, 100));
    const page = (await cache.get('/'))!;
    const policy = (nonce: string) =>
      `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self'`;
    const first = cachedPageHeaders(page, 'br', policy('eins'));
    expect(first[0]['content-security-policy']).not.toContain('nonce');
    for (let request = 0; request < 1000; request += 1) {
      expect(cachedPageHeaders(page, 'br', policy(String(request)))).toBe(first);
    }
    cache.clear();
  });
});
