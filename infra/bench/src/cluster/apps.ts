/**
 * The app's hosts in the drill: an api or a worker as built (`api/dist/main.js`, `worker/dist/main.js`),
 * each in its own network namespace with its own temporary, data and backup directories, started,
 * stopped, killed and started again (on another release) as a machine's process manager would.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../settings.js';
import { EXIT_WITH_PARENT } from '../stack.js';
import type { Host } from './net.js';
import { spawnIn, waitUntil, type Spawned } from './processes.js';

export const API_PORT = 3000;
export const WORKER_HEALTH_PORT = 9465;
/** The api's readiness: fails only while this process cannot serve (its database away, stopping). */
export const READY_PATH = '/healthz/ready';

const httpOk = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1500) }).then(
    (response) => response.ok,
    () => false,
  );

export class AppHost {
  proc: Spawned | undefined;
  starts = 0;
  /** The web build this host serves (WEB_DIST). */
  release: string;

  constructor(
    readonly role: 'api' | 'worker',
    readonly host: Host,
    private readonly env: () => NodeJS.ProcessEnv,
    private readonly dir: string,
    private readonly logDir: string,
    release: string,
  ) {
    this.release = release;
  }

  get name(): string {
    return this.host.name;
  }

  /** Its address on the drill's network (an api's port 3000). */
  get url(): string {
    return `http://${this.host.ip}:${API_PORT}`;
  }

  get healthUrl(): string {
    return this.role === 'api'
      ? `${this.url}${READY_PATH}`
      : `http://${this.host.ip}:${WORKER_HEALTH_PORT}/healthz`;
  }

  async start(release = this.release): Promise<void> {
    this.release = release;
    const own = (what: string) => path.join(this.dir, what);
    for (const what of ['tmp', 'data', 'backups']) await mkdir(own(what), { recursive: true });
    this.starts += 1;
    this.proc = spawnIn(
      this.host,
      `${this.name}-${this.starts}`,
      process.execPath,
      ['--import', EXIT_WITH_PARENT, path.join(this.role, 'dist', 'main.js')],
      {
        cwd: ROOT,
        logDir: this.logDir,
        env: {
          ...this.env(),
          PORT: String(API_PORT),
          WORKER_HEALTH_PORT: String(WORKER_HEALTH_PORT),
          TMPDIR: own('tmp'),
          DATA_DIR: own('data'),
          BACKUP_DIR: own('backups'),
          WEB_DIST: path.join(release, 'dist'),
        },
      },
    );
    await waitUntil(`${this.role} ${this.name}`, () => httpOk(this.healthUrl), {
      proc: this.proc,
      timeoutMs: 90_000,
    });
  }

  /** A graceful stop (SIGTERM: the api drains, the worker finishes its jobs). */
  async stop(): Promise<void> {
    await this.proc?.stop(30_000);
  }

  /** The machine dies: SIGKILL to everything it ran. */
  async kill(): Promise<void> {
    await this.proc?.kill();
  }

  healthy(): Promise<boolean> {
    return httpOk(this.healthUrl);
  }
}
