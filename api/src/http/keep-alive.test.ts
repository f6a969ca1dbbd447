import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS, keepConnectionsAlive } from './keep-alive.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function start(apply: boolean) {
  const server = createServer((_req, res) => res.end('ok'));
  if (apply) keepConnectionsAlive(server);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Two requests on one kept-alive agent with an idle pause between; the sockets that carried them. */
async function twoRequests(port: number, pauseMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<Socket>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', agent, path: '/' }, (res) => {
        res.resume();
        res.on('end', () => resolve(req.socket as Socket));
      });
      req.on('error', reject);
      req.end();
    });
  const first = await get();
  let closedByServer = false;
  first.once('close', () => (closedByServer = true));
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  const second = await get();
  agent.destroy();
  return { reused: first === second, closedByServer };
}

describe('keepConnectionsAlive', () => {
  it('outlasts the idle time of clients and proxies, with headers allowed after it', async () => {
    const server = keepConnectionsAlive(createServer());
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it('keeps a connection idle for longer than the default open for the next request', async () => {
    // Without the setting Node closes an idle socket after 5 s (plus its 1 s buffer): the client opens a new one.
    const [kept, dflt] = await Promise.all([start(true), start(false)]);
    const [withSetting, withoutSetting] = await Promise.all([
      twoRequests(kept, 6_500),
      twoRequests(dflt, 6_500),
    ]);
    expect(withSetting).toEqual({ reused: true, closedByServer: false });
    expect(withoutSetting.closedByServer).toBe(true);
    expect(withoutSetting.reused).toBe(false);
  }, 20_000);
});
