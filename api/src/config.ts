import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_END_INSTANT, EVENT_START_INSTANT } from '@schlosstreffen/shared';
import * as v from 'valibot';

const bool = v.pipe(
  v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
  v.transform((value) => value === 'true' || value === '1'),
);
const int = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.integer(), v.minValue(0));
const url = v.pipe(v.string(), v.url());

/** Event facts: the spec's values are the defaults so the next edition needs no code change. */
const EventEnvSchema = v.object({
  EVENT_NAME: v.optional(v.string(), 'Schlosstreffen'),
  EVENT_START: v.optional(v.pipe(v.string(), v.isoTimestamp()), EVENT_START_INSTANT),
  EVENT_END: v.optional(v.pipe(v.string(), v.isoTimestamp()), EVENT_END_INSTANT),
  EVENT_PLACE: v.optional(v.string(), 'Schlosspark, Sachsen'),
  APPLICATION_DEADLINE: v.optional(v.pipe(v.string(), v.isoDate()), '2026-03-31'),
  /** Parking zones in order of allocation, `name:capacity` pairs. */
  PARKING_ZONES: v.optional(v.pipe(v.string(), v.regex(/^[^:,]+:\d+(,[^:,]+:\d+)*$/)), 'A:30,B:25,C:15'),
});

const CommonEnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: int(3000),
  PUBLIC_URL: v.optional(url),
  DATABASE_URL: v.optional(url, 'postgres://postgres@127.0.0.1:5432/schlosstreffen'),
  REDIS_URL: v.optional(url, 'redis://127.0.0.1:6379'),
  S3_ENDPOINT: v.optional(url),
  /** Endpoint the browser uses for presigned uploads when it differs from the server's (containers). */
  S3_PUBLIC_ENDPOINT: v.optional(url),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  S3_BUCKET: v.optional(v.string(), 'schlosstreffen'),
  S3_ACCESS_KEY_ID: v.optional(v.string()),
  S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  S3_FORCE_PATH_STYLE: v.optional(bool, 'true'),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32))),
  DATA_DIR: v.optional(v.string(), '.data'),
  ...EventEnvSchema.entries,
});

export interface S3Config {
  endpoint: string;
  publicEndpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface EventConfig {
  name: string;
  start: Date;
  end: Date;
  place: string;
  applicationDeadline: string;
  parkingZones: Array<{ name: string; capacity: number }>;
}

export interface CommonConfig {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  redisUrl: string;
  s3: S3Config;
  sessionSecret: string;
  dataDir: string;
  event: EventConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function parseEnv<S extends v.GenericSchema>(schema: S, env: Env): v.InferOutput<S> {
  const result = v.safeParse(schema, env);
  if (!result.success) {
    const lines = result.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.output;
}

/** Reads the development session secret from the data dir, creating it on first use. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export function loadCommonConfig(env: Env = process.env): CommonConfig {
  const e = parseEnv(CommonEnvSchema, env);
  const isProduction = e.NODE_ENV === 'production';
  const missing: string[] = [];
  const need = (name: keyof typeof e, value: string | undefined): string => {
    if (value === undefined || value === '') missing.push(name);
    return value ?? '';
  };

  const dataDir = path.resolve(e.DATA_DIR);
  const s3Endpoint = need('S3_ENDPOINT', e.S3_ENDPOINT);
  const s3: S3Config = {
    endpoint: s3Endpoint,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? s3Endpoint,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    accessKeyId: need('S3_ACCESS_KEY_ID', e.S3_ACCESS_KEY_ID),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY', e.S3_SECRET_ACCESS_KEY),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
  const sessionSecret = isProduction
    ? need('SESSION_SECRET', e.SESSION_SECRET)
    : (e.SESSION_SECRET ?? developmentSecret(dataDir));
  if (isProduction) {
    // Production never falls back to local defaults.
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL'] as const) need(name, env[name]);
  }
  if (missing.length > 0) {
    const hint = isProduction
      ? 'NODE_ENV=production turns the embedded defaults off.'
      : 'Start with `npm start`, which runs the embedded S3 server and mail catcher, or set them.';
    throw new ConfigError(`Missing configuration: ${missing.join(', ')}. ${hint}`);
  }

  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    s3,
    sessionSecret,
    dataDir,
    event: {
      name: e.EVENT_NAME,
      start: new Date(e.EVENT_START),
      end: new Date(e.EVENT_END),
      place: e.EVENT_PLACE,
      applicationDeadline: e.APPLICATION_DEADLINE,
      parkingZones: e.PARKING_ZONES.split(',').map((pair) => {
        const [name = '', capacity = '0'] = pair.split(':');
        return { name: name.trim(), capacity: Number(capacity) };
      }),
    },
  };
}

const ApiEnvSchema = v.object({
  TRUST_PROXY: bool,
  WEB_DIST: v.optional(v.string(), 'web/dist'),
  /** Extra origins allowed to send mutations, comma separated (the Vite dev server outside production). */
  ALLOWED_ORIGINS: v.optional(v.string(), ''),
  /** Multiplies every rate limit's allowance (browser tests and benchmarks sign in far more often). */
  RATE_LIMIT_FACTOR: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)), '1'),
});

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export interface ApiConfig extends CommonConfig {
  trustProxy: boolean;
  webDist: string;
  allowedOrigins: string[];
  rateLimits: {
    login: RateLimitRule;
    register: RateLimitRule;
    forgotPassword: RateLimitRule;
    visitorSignUp: RateLimitRule;
    uploads: RateLimitRule;
  };
}

export function loadApiConfig(env: Env = process.env): ApiConfig {
  const common = loadCommonConfig(env);
  const e = parseEnv(ApiEnvSchema, env);
  const extra = e.ALLOWED_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (!common.isProduction) extra.push('http://localhost:5173');
  return {
    ...common,
    trustProxy: e.TRUST_PROXY,
    webDist: path.resolve(e.WEB_DIST),
    allowedOrigins: [new URL(common.publicUrl).origin, ...extra.map((origin) => new URL(origin).origin)],
    rateLimits: {
      login: { points: 10 * e.RATE_LIMIT_FACTOR, durationSeconds: 15 * 60 },
      register: { points: 10 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      forgotPassword: { points: 5 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      visitorSignUp: { points: 20 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      /** Upload signatures per user (a multipart upload signs one request per part). */
      uploads: { points: 300 * e.RATE_LIMIT_FACTOR, durationSeconds: 15 * 60 },
    },
  };
}

/** For commands that only touch the database (migrations, roles, seed without photos). */
export function loadDatabaseUrl(env: Env = process.env): string {
  return parseEnv(v.object({ DATABASE_URL: CommonEnvSchema.entries.DATABASE_URL }), env).DATABASE_URL;
}
