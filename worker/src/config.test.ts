import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from './config.js';

const env = {
  S3_ENDPOINT: 'http://127.0.0.1:4569',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  SESSION_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtp://127.0.0.1:1025',
};

describe('worker configuration', () => {
  it('serves health and metrics on ports of their own, 9465 and 9464 unless set; equal ports are refused', () => {
    expect(loadWorkerConfig(env)).toMatchObject({ healthPort: 9465, metricsPort: 9464 });
    expect(loadWorkerConfig({ ...env, WORKER_HEALTH_PORT: '8080' }).healthPort).toBe(8080);
    expect(() => loadWorkerConfig({ ...env, WORKER_HEALTH_PORT: '9464' })).toThrow(
      'WORKER_HEALTH_PORT and WORKER_METRICS_PORT must differ',
    );
  });

  it('migrates at start unless MIGRATE_ON_START=false', () => {
    expect(loadWorkerConfig(env).migrateOnStart).toBe(true);
    expect(loadWorkerConfig({ ...env, MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
  });
});
