import type { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitRule } from '../config.js';
import { tooManyRequests } from './errors.js';

export type Limiter = RateLimiterRedis;

export function createLimiter(redis: Redis, name: string, rule: RateLimitRule, prefix: string): Limiter {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:${name}`,
    points: rule.points,
    duration: rule.durationSeconds,
  });
}

/** Consumes one point per request for the key; over the limit answers 429 with Retry-After. */
export function rateLimit(limiter: Limiter, key: (ctx: Context) => string): Middleware {
  return async (ctx, next) => {
    try {
      await limiter.consume(key(ctx));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw tooManyRequests(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      }
      throw error;
    }
    await next();
  };
}
