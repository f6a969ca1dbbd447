import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GateFirst } from './gate-first.js';

const request = (url: string, cookie?: string) =>
  ({ url, headers: cookie ? { cookie } : {} }) as unknown as IncomingMessage;
const response = () => new EventEmitter() as unknown as ServerResponse;

describe('the gate first', () => {
  it('gives answers from memory at once while no gate request runs', () => {
    const gate = new GateFirst('sid');
    const given: number[] = [];
    for (let i = 0; i < 20; i += 1) gate.answer(() => given.push(i));
    expect(given).toHaveLength(20);
  });

  it('gives them a few per turn of the event loop while a gate request of a session runs, in order', async () => {
    const gate = new GateFirst('sid', 8);
    const sync = response();
    gate.track(request('/api/admin/check-in/sync', 'sid=abc; other=1'), sync);
    expect(gate.busy).toBe(true);

    const given: number[] = [];
    for (let i = 0; i < 20; i += 1) gate.answer(() => given.push(i));
    expect(given).toHaveLength(0);
    await nextTurn();
    expect(given).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await nextTurn();
    expect(given).toHaveLength(16);

    // The gate's request ends: the rest goes out in the next turn, and later answers at once.
    (sync as unknown as EventEmitter).emit('close');
    expect(gate.busy).toBe(false);
    await nextTurn();
    expect(given).toEqual(Array.from({ length: 20 }, (_, i) => i));
    gate.answer(() => given.push(20));
    expect(given).toHaveLength(21);
  });

  it('counts only the gate routes, and only with the session cookie', () => {
    const gate = new GateFirst('sid');
    gate.track(request('/api/admin/check-in/sync'), response());
    gate.track(request('/api/admin/vehicles', 'sid=abc'), response());
    gate.track(request('/api/admin/check-inx', 'sid=abc'), response());
    expect(gate.busy).toBe(false);
    gate.track(request('/api/admin/check-in?edition=2026', 'sid=abc'), response());
    expect(gate.busy).toBe(true);
  });

  it('counts a real gate request from its arrival until its answer is sent, on a kept-alive connection too', async () => {
    const gate = new GateFirst('sid');
    const seen: boolean[] = [];
    const server = createServer(
      gate.listener((_req, res) => {
        seen.push(gate.busy);
        setTimeout(() => res.end('ok'), 20);
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      for (let i = 0; i < 2; i += 1) {
        const res = await fetch(`http://127.0.0.1:${port}/api/admin/check-in/sync`, {
          method: 'POST',
          headers: { cookie: 'sid=abc' },
        });
        expect(await res.text()).toBe('ok');
        expect(gate.busy).toBe(false);
      }
      await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie: 'sid=abc' } });
      expect(seen).toEqual([true, true, false]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
