import { describe, expect, it } from 'vitest';
import { ConfigError, loadApiConfig, loadClock } from './config.js';

const s3 = {
  S3_ENDPOINT: 'http://127.0.0.1:4569',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
};

describe('configuration', () => {
  it('uses the documented defaults outside production', () => {
    const config = loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32) });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/schlosstreffen');
    expect(config.redis).toBe('redis://127.0.0.1:6379');
    expect(config.databaseDirectUrl).toBeUndefined();
    expect(config.event.start.toISOString()).toBe('2026-06-20T08:00:00.000Z');
    expect(config.event.parkingZones.map((zone) => zone.name)).toEqual(['A', 'B', 'C']);
  });

  it('reads event facts from the environment', () => {
    const config = loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32), PARKING_ZONES: 'Nord:5,Süd:3' });
    expect(config.event.parkingZones).toEqual([
      { name: 'Nord', capacity: 5 },
      { name: 'Süd', capacity: 3 },
    ]);
  });

  it('keys Redis by the database unless REDIS_PREFIX says otherwise', () => {
    const prefix = (env: Record<string, string>) =>
      loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32), ...env }).redisPrefix;
    expect(prefix({})).toBe('st:schlosstreffen');
    expect(prefix({ DATABASE_URL: 'postgres://db.example:5432/treffen_2027' })).toBe('st:treffen_2027');
    expect(prefix({ REDIS_PREFIX: 'prod-a' })).toBe('prod-a');
    expect(() => prefix({ REDIS_PREFIX: 'mit leerzeichen' })).toThrow(ConfigError);
  });

  it('reaches Redis through REDIS_SENTINELS and REDIS_SENTINEL_NAME instead of REDIS_URL', () => {
    const load = (env: Record<string, string>) =>
      loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32), ...env });
    const sentinels = {
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.2:26380,[fd00::3]:26379',
      REDIS_SENTINEL_NAME: 'st',
    };
    expect(load({ ...sentinels, REDIS_URL: '', REDIS_PASSWORD: 'geheim' }).redis).toEqual({
      sentinels: [
        { host: 'sentinel-a', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: 'fd00::3', port: 26379 },
      ],
      name: 'st',
      password: 'geheim',
    });
    expect(load({ REDIS_URL: 'redis://cache:6380' }).redis).toBe('redis://cache:6380');
    expect(() => load({ ...sentinels, REDIS_URL: 'redis://cache:6379' })).toThrow(/set one of them/);
    expect(() => load({ REDIS_SENTINELS: 'sentinel-a:26379' })).toThrow(/REDIS_SENTINEL_NAME/);
    expect(() => load({ ...sentinels, REDIS_SENTINELS: 'sentinel-a' })).toThrow(/REDIS_SENTINELS/);
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://app@pgbouncer:6432/st',
      DATABASE_DIRECT_URL: 'postgres://app@db:5432/st',
      PUBLIC_URL: 'https://schlosstreffen.de',
      OPERATOR_NAME: 'Schlosstreffen e. V.',
      OPERATOR_ADDRESS: 'Schlossallee 1',
      OPERATOR_EMAIL: 'kontakt@schlosstreffen.de',
      SESSION_SECRET: 'y'.repeat(40),
    };
    expect(() => load(production)).toThrow(/REDIS_URL \(or REDIS_SENTINELS\)/);
    const config = load({ ...production, ...sentinels });
    expect(config.databaseDirectUrl).toBe('postgres://app@db:5432/st');
    expect(config.databaseUrl).toBe('postgres://app@pgbouncer:6432/st');
  });

  it('takes TRUST_PROXY as the number of trusted proxy hops', () => {
    const hops = (value?: string) =>
      loadApiConfig({
        ...s3,
        SESSION_SECRET: 'x'.repeat(32),
        ...(value === undefined ? {} : { TRUST_PROXY: value }),
      }).trustProxy;
    expect([hops(), hops('0'), hops('1'), hops('2'), hops('true'), hops('false')]).toEqual([
      0, 0, 1, 2, 1, 0,
    ]);
    expect(() => hops('ja')).toThrow(ConfigError);
  });

  it('scales every rate limit by RATE_LIMIT_FACTOR and refuses a factor below 1', () => {
    const base = loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32) });
    const scaled = loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32), RATE_LIMIT_FACTOR: '20' });
    expect(base.rateLimits.loginPerIp).toEqual({ points: 50, durationSeconds: 900 });
    expect(scaled.rateLimits.loginPerIp).toEqual({ points: 1000, durationSeconds: 900 });
    expect(scaled.rateLimits.register.points).toBe(20 * base.rateLimits.register.points);
    expect(() => loadApiConfig({ ...s3, SESSION_SECRET: 'x'.repeat(32), RATE_LIMIT_FACTOR: '0' })).toThrow(
      ConfigError,
    );
  });

  it('runs the app clock from APP_CLOCK outside production, and refuses it in production', () => {
    const development = { ...s3, SESSION_SECRET: 'x'.repeat(32) };
    const real = loadApiConfig(development).now();
    expect(Math.abs(real.getTime() - Date.now())).toBeLessThan(1000);
    const set = loadApiConfig({ ...development, APP_CLOCK: '2026-11-27T12:00:00+01:00' }).now();
    expect(Math.abs(set.getTime() - Date.parse('2026-11-27T11:00:00Z'))).toBeLessThan(1000);
    expect(() => loadClock({ APP_CLOCK: 'letzten Freitag' })).toThrow(/APP_CLOCK/);
    expect(() => loadClock({ NODE_ENV: 'production', APP_CLOCK: '2026-11-27T12:00:00+01:00' })).toThrow(
      /APP_CLOCK: not in production/,
    );
  });

  it('refuses to start in production without real configuration', () => {
    expect(() => loadApiConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadApiConfig({ NODE_ENV: 'production' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of [
        'S3_ENDPOINT',
        'SESSION_SECRET',
        'DATABASE_URL',
        'REDIS_URL',
        'PUBLIC_URL',
        'OPERATOR_NAME',
        'OPERATOR_ADDRESS',
        'OPERATOR_EMAIL',
      ]) {
        expect(message).toContain(name);
      }
    }
  });

  it('starts in production when everything is set', () => {
    const config = loadApiConfig({
      ...s3,
      NODE_ENV: 'production',
      SESSION_SECRET: 'y'.repeat(40),
      DATABASE_URL: 'postgres://app@db:5432/st',
      REDIS_URL: 'redis://redis:6379',
      PUBLIC_URL: 'https://schlosstreffen.de/',
      OPERATOR_NAME: 'Schlosstreffen e. V.',
      OPERATOR_ADDRESS: 'Schlossallee 1|01000 Schlossdorf',
      OPERATOR_EMAIL: 'kontakt@schlosstreffen.de',
    });
    expect(config.isProduction).toBe(true);
    expect(config.publicUrl).toBe('https://schlosstreffen.de');
    expect(config.allowedOrigins).toEqual(['https://schlosstreffen.de']);
  });

  it('asks staff for a second factor by default in production only; STAFF_SECOND_FACTOR says otherwise', () => {
    const production = {
      ...s3,
      NODE_ENV: 'production',
      SESSION_SECRET: 'y'.repeat(40),
      DATABASE_URL: 'postgres://app@db:5432/st',
      REDIS_URL: 'redis://redis:6379',
      PUBLIC_URL: 'https://schlosstreffen.de/',
      OPERATOR_NAME: 'Schlosstreffen e. V.',
      OPERATOR_ADDRESS: 'Schlossallee 1',
      OPERATOR_EMAIL: 'kontakt@schlosstreffen.de',
    };
    const development = { ...s3, SESSION_SECRET: 'x'.repeat(32) };
    expect(loadApiConfig(production).staffSecondFactor).toBe(true);
    expect(loadApiConfig({ ...production, STAFF_SECOND_FACTOR: 'off' }).staffSecondFactor).toBe(false);
    expect(loadApiConfig(development).staffSecondFactor).toBe(false);
    for (const on of ['on', 'ON', 'true', '1']) {
      expect(loadApiConfig({ ...development, STAFF_SECOND_FACTOR: on }).staffSecondFactor).toBe(true);
    }
    expect(loadApiConfig({ ...development, STAFF_SECOND_FACTOR: 'false' }).staffSecondFactor).toBe(false);
    expect(() => loadApiConfig({ ...development, STAFF_SECOND_FACTOR: 'maybe' })).toThrow(
      /STAFF_SECOND_FACTOR: on or off/,
    );
  });

  it('logs JSON at info in production, for a terminal in development; LOG_LEVEL and LOG_FORMAT say otherwise', () => {
    const secret = { ...s3, SESSION_SECRET: 'x'.repeat(32) };
    expect(loadApiConfig({ ...secret, NODE_ENV: 'development' }).log).toEqual({
      level: 'info',
      format: 'pretty',
    });
    expect(loadApiConfig({ ...secret, NODE_ENV: 'test' }).log).toEqual({ level: 'silent', format: 'json' });
    const production = {
      ...secret,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://app@db:5432/schlosstreffen',
      REDIS_URL: 'redis://redis:6379',
      PUBLIC_URL: 'https://schlosstreffen.example',
      OPERATOR_NAME: 'Verein',
      OPERATOR_ADDRESS: 'Schlossweg 1|01000 Dresden',
      OPERATOR_EMAIL: 'info@schlosstreffen.example',
    };
    expect(loadApiConfig(production).log).toEqual({ level: 'info', format: 'json' });
    expect(loadApiConfig({ ...production, LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' }).log).toEqual({
      level: 'debug',
      format: 'pretty',
    });
    expect(() => loadApiConfig({ ...secret, LOG_LEVEL: 'verbose' })).toThrow(
      /LOG_LEVEL: one of fatal, error, warn, info, debug, trace, silent/,
    );
    expect(() => loadApiConfig({ ...secret, LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT: one of json, pretty/);
  });

  it('turns metrics on with a METRICS_TOKEN of at least 16 printable characters; empty means off', () => {
    const env = { ...s3, SESSION_SECRET: 'x'.repeat(32) };
    expect(loadApiConfig(env).metricsToken).toBeUndefined();
    expect(loadApiConfig({ ...env, METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadApiConfig({ ...env, METRICS_TOKEN: 'a1b2c3d4e5f6a7b8' }).metricsToken).toBe(
      'a1b2c3d4e5f6a7b8',
    );
    for (const token of ['kurz', 'mit leerzeichen drin', 'x'.repeat(201)]) {
      expect(() => loadApiConfig({ ...env, METRICS_TOKEN: token }), token).toThrow(
        /METRICS_TOKEN: 16 to 200 printable characters, no spaces/,
      );
    }
  });

  it('migrates at start unless MIGRATE_ON_START=false; a stopping api serves SHUTDOWN_DELAY_SECONDS on', () => {
    const env = { ...s3, SESSION_SECRET: 'x'.repeat(32) };
    expect(loadApiConfig(env).migrateOnStart).toBe(true);
    expect(loadApiConfig({ ...env, MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
    expect(loadApiConfig({ ...env, MIGRATE_ON_START: '0' }).migrateOnStart).toBe(false);
    expect(loadApiConfig({ ...env, MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(true);
    expect(() => loadApiConfig({ ...env, MIGRATE_ON_START: 'nein' })).toThrow(/MIGRATE_ON_START/);
    expect(loadApiConfig(env).shutdownDelaySeconds).toBe(0);
    expect(loadApiConfig({ ...env, SHUTDOWN_DELAY_SECONDS: '10' }).shutdownDelaySeconds).toBe(10);
    expect(() => loadApiConfig({ ...env, SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
  });

  it('rejects malformed values', () => {
    expect(() => loadApiConfig({ ...s3, PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadApiConfig({ ...s3, PARKING_ZONES: 'A-30' })).toThrow(ConfigError);
  });
});
