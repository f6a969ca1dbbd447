/**
 * Services that stand in for S3 and an SMTP server outside production: `npm start` and the
 * integration tests use them when S3_ENDPOINT / SMTP_URL are not set.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import S3rver from '@20minutes/s3rver';
import { refuseUnsigned, s3rverMultipart } from './s3rver-multipart.js';

export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface EmbeddedS3 extends S3Settings {
  region: 'us-east-1';
  forcePathStyle: true;
  stop(): Promise<void>;
}

export interface EmbeddedS3Options {
  /** Where buckets and objects are stored; created if missing. */
  dataDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  bucket?: string;
  silent?: boolean;
}

export interface MailCatcher {
  smtpUrl: string;
  /** maildev's web inbox and REST API. */
  webUrl: string;
  stop(): Promise<void>;
}

export interface MailCatcherOptions {
  /** Free ports are picked when not given (or 0). */
  smtpPort?: number;
  webPort?: number;
  host?: string;
}

export interface MailAddress {
  address: string;
  name: string;
}

/** An email as maildev's REST API (`GET /email`) returns it, reduced to what tests read. */
export interface CaughtMail {
  id: string;
  subject: string;
  from: MailAddress[];
  to: MailAddress[];
  html?: string;
  text?: string;
  date: string;
  /** Header fields as sent, names in lower case. */
  headers?: Record<string, string>;
  attachments?: Array<{
    contentType: string;
    fileName: string;
    generatedFileName: string;
    contentId?: string;
  }>;
}

/**
 * Browsers upload with presigned PUTs and multipart uploads straight to the bucket; Uppy reads the
 * ETag of every part, so it must be exposed.
 */
const CORS_CONFIGURATION = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <ExposeHeader>Location</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

const MAILDEV_BIN = createRequire(import.meta.url).resolve('maildev/bin/maildev');

/**
 * Preloaded into the maildev child: it exits when its stdin pipe closes, which happens when this
 * process dies in any way, even by SIGKILL.
 */
const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "process.stdin.on('end', () => process.exit()).on('error', () => process.exit()).resume();",
)}`;

/** Runs s3rver in this process, with the bucket created and CORS set up for browser uploads. */
export async function startEmbeddedS3(options: EmbeddedS3Options): Promise<EmbeddedS3> {
  const { dataDir, host = '127.0.0.1', bucket = 'schlosstreffen', silent = true } = options;
  await mkdir(dataDir, { recursive: true });
  const server = new S3rver({
    address: host,
    port: options.port ?? 0,
    directory: dataDir,
    silent,
    // Path-style only: any host name (a LAN name, a container name) is not taken for a bucket.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [CORS_CONFIGURATION] }],
  });
  // AWS SDK v3 signs bucket-level requests (HeadBucket, ListObjectsV2, DeleteObjects) on the path
  // `/bucket/`, while s3rver canonicalises them as `/bucket` and rejects the signature. Its
  // vhost branch yields `/bucket` + mountPath, so mark such requests that way before the router.
  server.middleware.splice(server.middleware.length - 1, 0, (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) {
      ctx.state.vhost = true;
      ctx.mountPath = '/';
    }
    return next();
  });
  // Also before the router: refuse unsigned requests like a private bucket, and answer ListParts and
  // AbortMultipartUpload, which s3rver lacks. The signature check lives inside s3rver's router, so
  // s3rverMultipart runs it itself before it answers.
  server.middleware.splice(server.middleware.length - 1, 0, refuseUnsigned(), s3rverMultipart(server));
  const { port } = await server.run();

  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://${urlHost(host)}:${port}`,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    stop: () =>
      (stopped ??= (async () => {
        const closing = server.close();
        server.httpServer?.closeAllConnections();
        await closing;
      })()),
  };
}

/** The S3_* environment variables the api and the worker read. */
export function s3Env(s3: S3Settings): Record<string, string> {
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
  };
}

/**
 * Runs maildev as a child process: it keeps module-level state and exits the process on SIGTERM,
 * so it cannot share ours. Resolves once both the web inbox and SMTP answer.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const smtpPort = options.smtpPort || (await getFreePort(host));
  let webPort = options.webPort || (await getFreePort(host));
  while (webPort === smtpPort) webPort = await getFreePort(host);
  const smtpUrl = `smtp://${urlHost(host)}:${smtpPort}`;
  const webUrl = `http://${urlHost(host)}:${webPort}`;

  const mailDir = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-mail-'));
  const args = ['--smtp', String(smtpPort), '--web', String(webPort), '--ip', host];
  const child = spawn(
    process.execPath,
    ['--import', EXIT_WITH_PARENT, MAILDEV_BIN, ...args, '--mail-directory', mailDir, '--silent'],
    { stdio: ['pipe', 'ignore', 'pipe'], env: withoutMaildevEnv(process.env) },
  );
  let output = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output = (output + chunk).slice(-4000);
  });
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(mailDir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await stopChild(child, 3000);
      process.off('exit', killOnExit);
      await rm(mailDir, { recursive: true, force: true });
    })());

  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (hasExited(child)) {
        throw new Error(
          `maildev exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`,
        );
      }
      if ((await answers(`${webUrl}/healthz`)) && (await greetsSmtp(host, smtpPort))) break;
      if (Date.now() > deadline) {
        throw new Error(`maildev did not answer on ${webUrl}/healthz and ${smtpUrl} within 15 s:\n${output}`);
      }
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { smtpUrl, webUrl, stop };
}

/** All emails maildev has caught, oldest first. */
export async function listMails(webUrl: string): Promise<CaughtMail[]> {
  const response = await fetch(`${webUrl}/email`);
  if (!response.ok) throw new Error(`GET ${webUrl}/email answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
}

/** The bytes of a caught mail's attachment. */
export async function mailAttachment(
  webUrl: string,
  mailId: string,
  generatedFileName: string,
): Promise<Buffer> {
  const response = await fetch(
    `${webUrl}/email/${mailId}/attachment/${encodeURIComponent(generatedFileName)}`,
  );
  if (!response.ok) throw new Error(`attachment ${generatedFileName} of mail ${mailId}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Polls the mail catcher until an email matches, every 100 ms. */
export async function waitForMail(
  webUrl: string,
  predicate: (mail: CaughtMail) => boolean,
  timeoutMs = 10_000,
): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await listMails(webUrl);
    const match = mails.find(predicate);
    if (match) return match;
    if (Date.now() > deadline) {
      const subjects = mails.map(
        (mail) => `"${mail.subject}" to ${mail.to.map((to) => to.address).join(', ')}`,
      );
      throw new Error(
        `No matching email within ${timeoutMs} ms. Caught ${mails.length}: ${subjects.join('; ') || 'none'}`,
      );
    }
    await sleep(100);
  }
}

/** A port that was free a moment ago (listen on port 0, read it, close). */
export function getFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The host to put in URLs: loopback for wildcard addresses, brackets for IPv6. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return net.isIPv6(host) ? `[${host}]` : host;
}

function withoutMaildevEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('MAILDEV_')));
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after the grace period; resolves when the child is gone. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Connects, waits for the 220 greeting and says QUIT, so the server sees a clean session. */
function greetsSmtp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let ok = false;
    const socket = net.connect({ host, port });
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('error', () => {}); // 'close' follows and answers
    socket.once('data', (data) => {
      ok = data.toString('latin1').startsWith('220');
      socket.end('QUIT\r\n');
    });
    socket.once('close', () => resolve(ok));
  });
}
