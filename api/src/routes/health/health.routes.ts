import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { pingDatabase } from '../../core/db/db.queries.js';
import { strictRouter } from '../../http/router.js';

/** A check that does not answer within this time counts as down. */
const CHECK_TIMEOUT_MS = 2500;

async function check(fn: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([fn(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness at /healthz; readiness at /readyz checks the database, Redis and S3, each within 2.5 s,
 * and names the one that is missing (503).
 */
export function healthRoutes(deps: {
  em: EntityManager;
  redis: Redis;
  s3: S3Client;
  bucket: string;
}): Router {
  const router = strictRouter();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [database, redis, storage] = await Promise.all([
      check(() => pingDatabase(deps.em)),
      check(() => deps.redis.ping()),
      check(() => deps.s3.send(new HeadBucketCommand({ Bucket: deps.bucket }))),
    ]);
    const ready = database === 'ok' && redis === 'ok' && storage === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable', checks: { database, redis, storage } };
  });
  return router;
}
