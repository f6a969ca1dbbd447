import { createServer, type Server } from 'node:http';
import type { WorkersHealth } from './worker.js';

export interface HealthAnswer extends WorkersHealth {
  status: 'ok' | 'stuck' | 'stopping';
}

/**
 * The worker's health: `ok` while its job loop is not stuck, that is while every queue's BullMQ
 * worker runs its loop (a loop that ended, closed or crashed, takes no job again until the process
 * restarts); `stuck` otherwise; `stopping` after SIGTERM. That the event loop runs shows in the
 * answer coming at all, within the probe's timeout. Redis is reported, never failed on: while it
 * reconnects (a restart, a Sentinel failover) the workers wait for it by design, and a failing
 * liveness probe would restart every worker at once for nothing.
 */
export function healthOf(workers: WorkersHealth, stopping: boolean): HealthAnswer {
  const status = stopping ? 'stopping' : workers.running < workers.total ? 'stuck' : 'ok';
  return { status, ...workers };
}

/**
 * GET /healthz on a port of its own (WORKER_HEALTH_PORT, all interfaces), always open and without a
 * token, beside the metrics port: 200 with the answer while `ok`, else 503 with it.
 */
export async function serveHealth(port: number, answer: () => HealthAnswer): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/healthz' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const body = answer();
    res
      .writeHead(body.status === 'ok' ? 200 : 503, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
