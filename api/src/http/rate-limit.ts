import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
} from 'rate-limiter-flexible';
import type { BackoffRule, RateLimitRule } from '../core/config.js';
import { rateLimited } from '../core/errors.js';
import { Lru } from './lru.js';

export type Limiter = RateLimiterRedis;

/** Keys the in-memory fallback of one limit keeps at most; the least recently counted go first. */
export const FALLBACK_KEYS = 10_000;

/**
 * A limit in this process's memory holding at most `maxKeys` keys: beyond them the key counted
 * least recently is forgotten (it starts again from zero), so requests with ever new keys (addresses,
 * networks) cannot fill the memory while Redis is away.
 */
export class BoundedMemoryLimiter extends RateLimiterMemory {
  private readonly counted: Lru<string, true>;

  constructor(options: IRateLimiterOptions, maxKeys = FALLBACK_KEYS) {
    super(options);
    this.counted = new Lru({ maxEntries: maxKeys, onEvict: (key) => void this.delete(key) });
  }

  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.counted.set(String(key), true);
    return super.consume(key, points, options);
  }

  override penalty(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.counted.set(String(key), true);
    return super.penalty(key, points, options);
  }

  override reward(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.counted.set(String(key), true);
    return super.reward(key, points, options);
  }

  override set(key: string | number, points: number, secDuration: number) {
    this.counted.set(String(key), true);
    return super.set(key, points, secDuration);
  }

  override block(key: string | number, secDuration: number) {
    this.counted.set(String(key), true);
    return super.block(key, secDuration);
  }
}

/**
 * A limit kept in Redis, shared by every api process. While Redis is away the same limit holds in
 * each process's memory (rate-limiter-flexible's insurance limiter, at most `FALLBACK_KEYS` keys):
 * requests go on, and limits still apply, per process. This is the deliberate choice: fail open for
 * availability, never without limits.
 */
export function createLimiter(redis: Redis, name: string, rule: RateLimitRule, prefix: string): Limiter {
  const keyPrefix = `${prefix}:${name}`;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: rule.points,
    duration: rule.durationSeconds,
    insuranceLimiter: new BoundedMemoryLimiter({
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

/** Attempts and lock of one account, as the in-memory fallback keeps them. */
interface MemoryEntry {
  failures: number;
  windowEnds: number;
  lockedUntil: number;
}

/** Entries the fallback keeps at most; the oldest go first. */
const MEMORY_ENTRIES = 10_000;

/**
 * One login attempt, counted before the password is checked, in one step in Redis: refused while
 * the account is locked; otherwise counted, and from the `free`+1-th attempt on the account is
 * locked for 2^(attempts - free) seconds (capped) at once, so attempts that arrive while this one
 * is checked are refused too. Returns the remaining lock in ms (negated) when refused, else the
 * attempt's number.
 */
const ATTEMPT_SCRIPT = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return -locked end
local attempts = redis.call('INCR', KEYS[1])
if attempts == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local over = attempts - tonumber(ARGV[2])
if over > 0 then
  redis.call('SET', KEYS[2], '1', 'EX', math.floor(math.min(tonumber(ARGV[3]), 2 ^ math.min(over, 30))))
end
return attempts`;

/**
 * Brute-force protection per account, whatever address the attempts come from: every attempt is
 * counted before its password is checked, and after `free` attempts without a successful sign-in
 * each further one locks the account for exponentially longer. However many attempts run at once,
 * at most `free` + 1 passwords are checked before the lock holds. It does not matter whether the
 * account exists, so a 429 tells an attacker nothing about it. Kept in Redis, shared by every api
 * process; while Redis is away, in this process's memory (the same rule, per process).
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
    return { key, attempts: `${this.prefix}:failures:${key}`, lock: `${this.prefix}:lock:${key}` };
  }

  /** Counts one attempt; 429 with Retry-After while the account is locked. */
  async attempt(account: string): Promise<void> {
    const { key, attempts, lock } = this.keys(account);
    let result: number;
    try {
      result = (await this.redis.eval(
        ATTEMPT_SCRIPT,
        2,
        attempts,
        lock,
        this.rule.windowSeconds,
        this.rule.free,
        this.rule.maxLockSeconds,
      )) as number;
    } catch {
      result = this.attemptInMemory(key);
    }
    if (result < 0) throw rateLimited(Math.max(1, Math.ceil(-result / 1000)));
  }

  /** A successful sign-in: the count starts again. */
  async reset(account: string): Promise<void> {
    const { key, attempts, lock } = this.keys(account);
    this.memory.delete(key);
    await this.redis.del(attempts, lock).catch(() => undefined);
  }

  private lockSeconds(attempts: number): number {
    const over = attempts - this.rule.free;
    return over > 0 ? Math.min(this.rule.maxLockSeconds, 2 ** Math.min(over, 30)) : 0;
  }

  /** The script's rule in this process's memory. */
  private attemptInMemory(key: string): number {
    const now = Date.now();
    const entry = this.memory.get(key);
    if (entry && entry.lockedUntil > now) return -(entry.lockedUntil - now);
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
    return current.failures;
  }
}
