// Starts the app for the browser tests as `npm start` builds it, on a fresh database, Redis database
// and storage directory, with ports of its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { startMailCatcher } from '../../infra/dist/dev-services.js';
import { startSmtpPeer } from '../../worker/dist/smtp-peer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const database = 'schlosstreffen_e2e';
const adminUrl = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/3';
const dataDir = path.join(root, '.data', 'e2e');

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${database} with (force)`);
await admin.end();

const redis = new Redis(redisUrl);
await redis.flushdb();
redis.disconnect();

await rm(dataDir, { recursive: true, force: true });

const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${database}`;

// The app's event lies ahead, as it does for its users in the weeks before: no date rule (retention
// after the event, deadlines) acts on the tests' data, and the countdown runs.
const DAY = 24 * 3600 * 1000;
const eventStart = new Date(Math.ceil((Date.now() + 60 * DAY) / DAY) * DAY + 8 * 3600 * 1000);
const eventEnd = new Date(eventStart.getTime() + 10 * 3600 * 1000);
// Applications are open: the deadline is two weeks before the event.
const applicationDeadline = new Date(eventStart.getTime() - 14 * DAY).toISOString().slice(0, 10);
// The gates take scans from a day before the run on: the tests check cars in weeks before the event.
const gateOpensAt = new Date(Date.now() - DAY);

// The app's mail server: it refuses the addresses listed in REFUSED_ADDRESSES for good (550, as a
// receiving server answers for a mailbox that is gone; a test lists one when it needs that) and hands
// every other mail on to the mail catcher, whose inbox the tests read.
const refusedList = path.join(dataDir, 'smtp-refused-addresses');
const catcher = await startMailCatcher({ smtpPort: 1125, webPort: 1180 });
const relay = nodemailer.createTransport({ url: catcher.smtpUrl, ignoreTLS: true });
const listed = (address) => {
  try {
    return readFileSync(refusedList, 'utf8').split('\n').includes(address);
  } catch {
    return false;
  }
};
const mailServer = await startSmtpPeer(
  (address) =>
    listed(address)
      ? `550 5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`
      : null,
  {
    port: 1126,
    onMail: (mail) =>
      void relay
        .sendMail({ envelope: { from: mail.from, to: mail.to }, raw: mail.data })
        .catch((error) => console.error('[e2e mail relay]', error)),
  },
);

const child = spawn('npm', ['start'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'development',
    // A line per request would drown the test report; warnings and errors still show.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: '3100',
    WORKER_HEALTH_PORT: '3109',
    PUBLIC_URL: 'http://localhost:3100',
    DATABASE_URL: databaseUrl.href,
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    EMBEDDED_S3_PORT: '4669',
    SMTP_URL: mailServer.url,
    MAIL_FROM: 'Schlosstreffen <noreply@schlosstreffen.local>',
    // Every test signs up and in from the same address.
    RATE_LIMIT_FACTOR: '20',
    // Staff sign in with their second factor, as in production (support.ts `signInAsStaff` sets it up).
    STAFF_SECOND_FACTOR: 'on',
    EVENT_START: eventStart.toISOString(),
    EVENT_END: eventEnd.toISOString(),
    GATE_OPENS_AT: gateOpensAt.toISOString(),
    APPLICATION_DEADLINE: applicationDeadline,
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  void Promise.allSettled([mailServer.close(), catcher.stop()]).then(() => process.exit(code ?? 0));
});
