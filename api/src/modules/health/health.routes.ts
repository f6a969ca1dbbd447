import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';

async function check(fn: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await fn();
    return 'ok';
  } catch {
    return 'down';
  }
}

/** Liveness at /healthz; readiness at /readyz checks the database, Redis and S3. */
export function healthRoutes(deps: {
  em: EntityManager;
  redis: Redis;
  s3: S3Client;
  bucket: string;
}): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [database, redis, storage] = await Promise.all([
      check(() => deps.em.getConnection().execute('select 1')),
      check(() => deps.redis.ping()),
      check(() => deps.s3.send(new HeadBucketCommand({ Bucket: deps.bucket }))),
    ]);
    const ready = database === 'ok' && redis === 'ok' && storage === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable', checks: { database, redis, storage } };
  });
  return router;
}
