import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the bench runs: ports, database, Redis database and storage of its own. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Apart from the dev app (3000/4569/1025/1080) and the browser tests (3100/4669/1125/1180). */
export const PORTS = {
  api: 3200,
  plain: 3201,
  workerMetrics: 3202,
  workerHealth: 3203,
  s3: 4769,
  smtp: 1225,
  mailWeb: 1280,
} as const;

/**
 * The api and the worker run as in production, with metrics on (this token) and a log line per
 * request (JSON at info), so R1 and the others include what both cost.
 */
export const METRICS_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

export const DATABASE = 'schlosstreffen_bench';
export const ADMIN_DATABASE_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Database 5: the browser tests use 3, the integration tests key prefixes on 0. Only this one is flushed. */
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/5';
export const DATA_DIR = path.join(ROOT, '.data', 'bench');
export const PUBLIC_URL = `http://localhost:${PORTS.api}`;
export const API_URL = `http://127.0.0.1:${PORTS.api}`;
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const databaseUrl = (() => {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${DATABASE}`;
  return url.href;
})();

/** The data set of the issue. */
export const DATA = {
  vehicles: 10_000,
  /** Five editions of 2,000 applications each: the lists show the current one's. */
  editions: 5,
  perEdition: 2_000,
  mediaPerVehicle: 5,
  /** The public list (R1, R5): the newest vehicles. R4 confirms the vehicles it prints itself. */
  confirmed: 70,
  /** R6 invites 50 of them (after 3 warm-up invitations). */
  submitted: 200,
  /** The newest vehicles whose hero renditions are stored: R4 prints up to 1000. */
  heroRenditions: 1000,
  /** Distinct photos, reused under many keys. */
  distinctPhotos: 8,
} as const;

export const CORES = os.availableParallelism();

/**
 * The reference machine's speed per kind of work, from the reference run in
 * docs/development.md#performance, where the absolute budgets (times) were set: here they are
 * judged against each budget × how many times slower this machine is at that work.
 */
export const REFERENCE_SPEED = {
  /** req/s of node:http serving the landing page's bytes at 50 connections (R9's reference). */
  nodeHttp: 20862,
  /** photos/s of raw sharp making camera photos' renditions (R8's reference). */
  rawSharp: 7.51,
  /** ms of one argon2id verify with the project's parameters (R7). */
  argon2VerifyMs: 17.5,
} as const;

/**
 * The worker's process environment as docker-compose.yml runs it in production: fewer glibc malloc
 * arenas keep sharp's native memory from fragmenting. The worker and the export child get it.
 */
export const WORKER_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;

export const ADMIN = {
  email: 'admin@bench.test',
  password: 'bench-admin-password',
  firstName: 'Bench',
  lastName: 'Admin',
};
export const LOGIN_USER = {
  email: 'login@bench.test',
  password: 'bench-login-password',
  firstName: 'Login',
  lastName: 'Bench',
};

/**
 * R7 signs in one account per load connection: the per-account count admits only a few attempts
 * of one account at a time (however right the password), as it must against parallel guessing.
 */
export const LOGIN_USERS = Array.from({ length: 10 }, (_, index) => ({
  ...LOGIN_USER,
  email: index ? `login-${index}@bench.test` : LOGIN_USER.email,
}));
