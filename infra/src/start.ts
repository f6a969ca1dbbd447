/**
 * `npm start`: the api and the worker as child processes, restarted with backoff when they die,
 * plus (outside production) the embedded S3 server and mail catcher for whatever S3_ENDPOINT /
 * SMTP_URL leave unset. Run from the repo root. `npm run start:api` and `npm run start:worker` run
 * one process each, for running several.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { s3Env, startEmbeddedS3, startMailCatcher } from './dev-services.js';

interface Service {
  stop(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 30_000;

const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV || 'development' };
const services: Service[] = [];
let s3Line = env.S3_ENDPOINT ?? 'not configured';
let mailLine = env.MAIL_WEB_URL ?? (env.SMTP_URL ? 'none (SMTP_URL is set)' : 'not configured');

try {
  if (env.NODE_ENV !== 'production') await startEmbeddedServices();
} catch (error) {
  console.error('Could not start the embedded services:', error);
  await stopServices();
  process.exit(1);
}

const appUrl = env.PUBLIC_URL || `http://localhost:${env.PORT || 3000}`;
console.log(
  [
    '',
    `Schlosstreffen (${env.NODE_ENV})`,
    `  App:        ${appUrl}`,
    `  S3:         ${s3Line}`,
    `  Mail inbox: ${mailLine}`,
    '',
  ].join('\n'),
);

const children = new Map<string, ChildProcess>();
let shuttingDown = false;

/** Restart delays double from 1 s up to 30 s; a process that ran a minute starts over at 1 s. */
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30_000;
const STABLE_MS = 60_000;
/** What api and worker exit with when their configuration is wrong: no restart helps. */
const EXIT_CONFIG = 78;

/**
 * Runs `name` (api or worker) from its build and restarts it whenever it exits on its own, with
 * backoff, saying so; only our own shutdown ends it for good.
 */
function supervise(name: string): void {
  let delay = RESTART_MIN_MS;
  let restarts = 0;
  const start = () => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [path.join(name, 'dist', 'main.js')], { env, stdio: 'inherit' });
    children.set(name, child);
    child.on('exit', (code, signal) => {
      // Ctrl+C reaches the children too: give our own signal handler the first word.
      setTimeout(() => {
        if (shuttingDown) return;
        if (code === EXIT_CONFIG) {
          console.error(`${name} cannot start with this configuration (see above); stopping.`);
          void shutdown(1);
          return;
        }
        if (Date.now() - startedAt > STABLE_MS) delay = RESTART_MIN_MS;
        restarts += 1;
        console.error(
          `${name} exited unexpectedly (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s (restart ${restarts})`,
        );
        setTimeout(() => {
          if (!shuttingDown) start();
        }, delay);
        delay = Math.min(delay * 2, RESTART_MAX_MS);
      }, 100);
    });
  };
  start();
}

supervise('api');
supervise('worker');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void shutdown(0, signal));
}

async function startEmbeddedServices(): Promise<void> {
  if (!env.S3_ENDPOINT) {
    const dataDir = path.resolve(env.DATA_DIR || '.data', 's3');
    const s3 = await startEmbeddedS3({ dataDir, port: portFrom('EMBEDDED_S3_PORT', 4569) });
    services.push(s3);
    Object.assign(env, s3Env(s3));
    s3Line = `${s3.endpoint} (embedded, data in ${path.relative(process.cwd(), dataDir) || '.'})`;
  }
  if (!env.SMTP_URL) {
    const mail = await startMailCatcher({
      smtpPort: portFrom('EMBEDDED_SMTP_PORT', 1025),
      webPort: portFrom('EMBEDDED_MAIL_WEB_PORT', 1080),
    });
    services.push(mail);
    env.SMTP_URL = mail.smtpUrl;
    env.MAIL_FROM ||= 'Schlosstreffen <noreply@schlosstreffen.local>';
    mailLine = `${mail.webUrl} (embedded, SMTP on ${mail.smtpUrl})`;
  }
}

/** Stops both children (they finish their work; SIGKILL after the grace period), then the embedded services. */
async function shutdown(exitCode: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  const running = [...children.values()].filter(
    (child) => child.exitCode === null && child.signalCode === null,
  );
  const exited = running.map((child) => once(child, 'exit'));
  for (const child of running) child.kill(signal);
  const timer = setTimeout(() => {
    for (const child of running) child.kill('SIGKILL');
  }, SHUTDOWN_GRACE_MS);
  await Promise.all(exited);
  clearTimeout(timer);
  await stopServices();
  process.exit(exitCode);
}

async function stopServices(): Promise<void> {
  await Promise.allSettled(services.map((service) => service.stop()));
}

function portFrom(name: string, fallback: number): number {
  const value = env[name];
  if (!value) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} is not a port: ${value}`);
  }
  return port;
}
