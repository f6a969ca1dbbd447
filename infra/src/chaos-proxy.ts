/**
 * A TCP proxy on a loopback port in front of a real service, which tests switch off and on: while
 * down it refuses new connections (the listening socket is closed, so clients see ECONNREFUSED as
 * with a stopped service) and cuts the open ones; `hang()` instead accepts connections and never
 * answers, like a service that stopped responding; `stall()` keeps every connection open but moves
 * no byte either way, like a network cut that neither end notices. Bytes pass through unchanged
 * otherwise.
 */
import net from 'node:net';

export type ProxyState = 'up' | 'down' | 'hanging' | 'stalled';

export interface ChaosProxy {
  /** `host:port` of the proxy. */
  readonly address: string;
  readonly port: number;
  readonly state: ProxyState;
  /** Rewrites a URL of the target to go through the proxy. */
  url(targetUrl: string): string;
  down(): Promise<void>;
  hang(): Promise<void>;
  /** Open connections stay open and carry nothing until `up()`; new ones are accepted and hang. */
  stall(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startChaosProxy(target: { host: string; port: number }, port = 0): Promise<ChaosProxy> {
  const open = new Set<net.Socket>();
  let state: ProxyState = 'up';
  let server: net.Server | undefined;
  let boundPort = port;

  /** Connected pairs, paused while stalled. */
  const pairs = new Set<[net.Socket, net.Socket]>();
  const onConnection = (client: net.Socket) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    if (state === 'hanging' || state === 'stalled') return;
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
  };

  const listen = async () => {
    const next = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(boundPort, '127.0.0.1', () => resolve());
    });
    boundPort = (next.address() as net.AddressInfo).port;
    server = next;
  };
  const stopListening = async () => {
    const current = server;
    server = undefined;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
    pairs.clear();
  };

  await listen();
  return {
    get address() {
      return `127.0.0.1:${boundPort}`;
    },
    get port() {
      return boundPort;
    },
    get state() {
      return state;
    },
    url(targetUrl: string) {
      const url = new URL(targetUrl);
      url.hostname = '127.0.0.1';
      url.port = String(boundPort);
      return url.href;
    },
    async down() {
      state = 'down';
      const closing = stopListening();
      cutAll();
      await closing;
    },
    async hang() {
      state = 'hanging';
      cutAll();
      if (!server) await listen();
    },
    async stall() {
      state = 'stalled';
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      if (!server) await listen();
    },
    async up() {
      // Connections accepted while hanging were never connected through: they go.
      if (state === 'hanging') cutAll();
      if (state === 'stalled') {
        for (const socket of open) if (![...pairs].some((pair) => pair.includes(socket))) socket.destroy();
        for (const [client, upstream] of pairs) {
          client.pipe(upstream).pipe(client);
          client.resume();
          upstream.resume();
        }
      }
      state = 'up';
      if (!server) await listen();
    },
    async close() {
      state = 'down';
      const closing = stopListening();
      cutAll();
      await closing;
    },
  };
}
