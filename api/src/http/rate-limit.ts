import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { BackoffRule, RateLimitRule } from '../core/config.js';
import { rateLimited } from '../core/errors.js';

export type Limiter = RateLimiterRedis;

/**
 * A limit kept in Redis, shared by every api process. While Redis is away the same limit holds in
 * each process's memory (rate-limiter-flexible's insurance limiter): requests go on, and limits
 * still apply, per process. This is the deliberate choice: fail open for availability, never
 * without limits.
 */
export function createLimiter(redis: Redis, name: string, rule: RateLimitRule, prefix: string): Limiter {
  const keyPrefix = `${prefix}:${name}`;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: rule.points,
    duration: rule.durationSeconds,
    insuranceLimiter: new RateLimiterMemory({
      keyPrefix,
      points: rule.points,
      duration: rule.durationSeconds,
    }),
  });
}

/** Consumes one point for the key; over the limit throws 429 with Retry-After. */
export async function consume(limiter: Limiter, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      throw rateLimited(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
    throw error;
  }
}

/** Consumes one point per request for the key; over the limit answers 429 with Retry-After. */
export function rateLimit(limiter: Limiter, key: (ctx: Context) => string): Middleware {
  return async (ctx, next) => {
    await consume(limiter, key(ctx));
    await next();
  };
}

/** An account name as a rate-limit key: hashed, so Redis never holds an email address in clear. */
export const accountKey = (account: string) =>
  createHash('sha256').update(account.trim().toLowerCase()).digest('base64url');

/** Failures and lock of one account, as the in-memory fallback keeps them. */
interface MemoryEntry {
  failures: number;
  windowEnds: number;
  lockedUntil: number;
}

/** Entries the fallback keeps at most; the oldest go first. */
const MEMORY_ENTRIES = 10_000;

/**
 * Brute-force protection per account, whatever address the attempts come from: after `free`
 * failures every further one locks the account for exponentially longer. It does not matter
 * whether the account exists, so a 429 tells an attacker nothing about it. Kept in Redis; while
 * Redis is away, in this process's memory (the same rule, per process).
 */
export class AccountBackoff {
  private readonly memory = new Map<string, MemoryEntry>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly rule: BackoffRule,
  ) {}

  private keys(account: string) {
    const key = accountKey(account);
    return { key, failures: `${this.prefix}:failures:${key}`, lock: `${this.prefix}:lock:${key}` };
  }

  /** 429 with Retry-After while the account is locked. */
  async check(account: string): Promise<void> {
    const { key, lock } = this.keys(account);
    const ms = await this.redis.pttl(lock).catch(() => (this.memory.get(key)?.lockedUntil ?? 0) - Date.now());
    if (ms > 0) throw rateLimited(Math.max(1, Math.ceil(ms / 1000)));
  }

  async fail(account: string): Promise<void> {
    const { key, failures, lock } = this.keys(account);
    try {
      const [[, count]] = (await this.redis
        .multi()
        .incr(failures)
        .expire(failures, this.rule.windowSeconds, 'NX')
        .exec()) as [[unknown, number], unknown];
      const seconds = this.lockSeconds(count);
      if (seconds > 0) await this.redis.set(lock, '1', 'EX', seconds);
    } catch {
      this.failInMemory(key);
    }
  }

  async reset(account: string): Promise<void> {
    const { key, failures, lock } = this.keys(account);
    this.memory.delete(key);
    await this.redis.del(failures, lock).catch(() => undefined);
  }

  private lockSeconds(failures: number): number {
    const over = failures - this.rule.free;
    return over > 0 ? Math.min(this.rule.maxLockSeconds, 2 ** over) : 0;
  }

  private failInMemory(key: string): void {
    const now = Date.now();
    const entry = this.memory.get(key);
    const current =
      entry && entry.windowEnds > now
        ? entry
        : { failures: 0, windowEnds: now + this.rule.windowSeconds * 1000, lockedUntil: 0 };
    current.failures += 1;
    const seconds = this.lockSeconds(current.failures);
    if (seconds > 0) current.lockedUntil = now + seconds * 1000;
    this.memory.delete(key);
    this.memory.set(key, current);
    if (this.memory.size > MEMORY_ENTRIES) this.memory.delete(this.memory.keys().next().value!);
  }
}
