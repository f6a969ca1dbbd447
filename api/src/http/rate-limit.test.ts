import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { BoundedMemoryLimiter } from './rate-limit.js';

describe('the in-memory fallback of a rate limit', () => {
  it('holds at most its keys, the least recently counted forgotten first, and still limits', async () => {
    const limiter = new BoundedMemoryLimiter({ keyPrefix: 'test', points: 3, duration: 60 }, 100);
    await limiter.consume('198.51.100.7');
    for (let n = 0; n < 5000; n += 1) {
      await limiter.consume(`2001:db8:${n.toString(16)}::/64`);
      // One network keeps asking: it is never the least recent.
      if (n % 50 === 0) await limiter.consume('198.51.100.7').catch(() => undefined);
    }
    expect(limiter.dump().storage.length).toBe(100);
    expect(await limiter.get('2001:db8:0::/64')).toBeNull();
    // The network that kept asking is still counted, and over its limit.
    await expect(limiter.consume('198.51.100.7')).rejects.toBeInstanceOf(RateLimiterRes);
  });
});
