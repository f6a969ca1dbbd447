/**
 * Processes inside the drill's hosts: each runs in its host's network namespace (`ip netns exec`),
 * in a process group of its own, so stopping or killing it takes whatever it forked; its output
 * is kept (the tail) and written to a log file in the drill's directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Host } from './net.js';

export interface Spawned {
  name: string;
  child: ChildProcess;
  /** The tail of its output. */
  output(): string;
  /** Ends it (SIGTERM, then SIGKILL after `graceMs`) and waits for it. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL to its whole process group, as when its machine dies. */
  kill(): Promise<void>;
  alive(): boolean;
}

const running = new Set<Spawned>();

/** Every process still running, stopped: the drill's teardown. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((proc) => proc.kill()));
}

export function spawnIn(
  host: Host,
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; user?: string; cwd?: string; logDir: string },
): Spawned {
  const argv = [
    'netns',
    'exec',
    host.namespace,
    ...(options.user ? ['runuser', '-u', options.user, '--'] : []),
    command,
    ...args,
  ];
  const child = spawn('ip', argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const log: WriteStream = createWriteStream(path.join(options.logDir, `${name}.log`), { flags: 'a' });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8000);
    if (!log.writableEnded) log.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // 'close', not 'exit': output still buffered in the pipes arrives after the process ended.
  child.on('close', () => log.end());
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // Gone already.
    }
  };
  const proc: Spawned = {
    name,
    child,
    output: () => tail,
    alive,
    async stop(graceMs = 10_000) {
      if (!alive()) return;
      const exited = once(child, 'exit');
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      running.delete(proc);
    },
    async kill() {
      if (!alive()) {
        running.delete(proc);
        return;
      }
      const exited = once(child, 'exit');
      signal('SIGKILL');
      await exited;
      running.delete(proc);
    },
  };
  running.add(proc);
  return proc;
}

/** Whether a TCP connection to the address opens (from the machine, over the bridge). */
export function reachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Waits until `ready` holds; throws with the process's output when it ends first or time is up. */
export async function waitUntil(
  what: string,
  ready: () => Promise<boolean>,
  options: { proc?: Spawned; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (await ready()) return;
    if ((options.proc && !options.proc.alive()) || Date.now() > deadline) {
      throw new Error(
        `${what} did not come up${options.proc ? `:\n${options.proc.output().slice(-2000)}` : ''}`,
      );
    }
    await sleep(200);
  }
}
