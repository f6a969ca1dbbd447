import { spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A service process a test starts on a loopback port (PgBouncer, Redis, a Sentinel) and stops. */
export interface Daemon {
  readonly port: number;
  /** What it wrote so far (the tail), for a failure's message. */
  output(): string;
  /** Ends it (SIGKILL: a machine lost) and waits until it has exited. */
  kill(): Promise<void>;
  /** Ends it (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts `command` and resolves once it accepts connections on `port` (at most 10 s). */
export async function startDaemon(
  command: string,
  args: string[],
  port: number,
  options: SpawnOptions = {},
): Promise<Daemon> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  }
  const exited = once(child, 'exit');
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  const daemon: Daemon = {
    port,
    output: () => output,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await daemon.kill();
      throw new Error(`${command} did not start on port ${port}:\n${output}`);
    }
    await sleep(50);
  }
  return daemon;
}
