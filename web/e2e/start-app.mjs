// Starts the app for the browser tests as `npm start` builds it, on a fresh database, Redis database
// and storage directory, with ports of its own.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

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

const child = spawn('npm', ['start'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: '3100',
    PUBLIC_URL: 'http://localhost:3100',
    DATABASE_URL: databaseUrl.href,
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    EMBEDDED_S3_PORT: '4669',
    EMBEDDED_SMTP_PORT: '1125',
    EMBEDDED_MAIL_WEB_PORT: '1180',
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
child.on('exit', (code) => process.exit(code ?? 0));
