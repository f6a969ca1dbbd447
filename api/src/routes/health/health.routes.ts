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
 * Liveness at /healthz. Readiness for load balancers and probes at /healthz/ready: 503 only while
 * this process cannot serve, its database away (checked within 2.5 s) or the process stopping; pages
 * and sign-ins are built to go on without Redis and S3, so their absence takes no api out. /readyz
 * checks the database, Redis and S3, each within 2.5 s, and names the one that is missing (503), for
 * people and the status page.
 */
export function healthRoutes(deps: {
  em: EntityManager;
  redis: Redis;
  s3: S3Client;
  bucket: string;
  /** True once the process has been told to stop (SIGTERM). */
  stopping?: () => boolean;
}): Router {
  const router = strictRouter();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/healthz/ready', async (ctx) => {
    if (deps.stopping?.()) {
      ctx.status = 503;
      ctx.body = { status: 'stopping' };
      return;
    }
    const database = await check(() => pingDatabase(deps.em));
    ctx.status = database === 'ok' ? 200 : 503;
    ctx.body = { status: database === 'ok' ? 'ok' : 'unavailable', checks: { database } };
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
