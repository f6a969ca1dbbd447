/**
 * docker-compose.yml as an operator runs it (checked by reading, as `docker compose config` would
 * show it): only the TLS proxy is published, and no credential has a default that works.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(text, { merge: true }) as {
  services: Record<string, { ports?: string[]; environment?: Record<string, string>; profiles?: string[] }>;
};

describe('docker-compose.yml', () => {
  it('publishes the proxy only', () => {
    const published = Object.entries(compose.services)
      .filter(([, service]) => service.ports?.length)
      .map(([name, service]) => [name, service.ports]);
    expect(published).toEqual([['caddy', ['80:80', '443:443', '443:443/udp']]]);
  });

  it('takes every credential from the environment, with no default that works', () => {
    for (const name of [
      'POSTGRES_PASSWORD',
      'MINIO_ROOT_USER',
      'MINIO_ROOT_PASSWORD',
      'SESSION_SECRET',
      'SMTP_URL',
    ]) {
      const uses = [...text.matchAll(new RegExp(`\\$\\{${name}(:?[-?][^}]*)?\\}`, 'g'))].map(
        (match) => match[0],
      );
      expect(uses.length, name).toBeGreaterThan(0);
      for (const use of uses) expect(use, name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    }
    expect(text).not.toMatch(/minioadmin|postgres:postgres|changeme/i);
  });

  it('runs the app in production mode behind the proxy, over HTTPS', () => {
    for (const name of ['api', 'worker']) {
      const env = compose.services[name]!.environment!;
      expect(env.NODE_ENV).toBe('production');
      expect(env.TRUST_PROXY).toBe('1');
      expect(env.PUBLIC_URL).toMatch(/^https:\/\//);
      expect(env.S3_PUBLIC_ENDPOINT).toMatch(/^https:\/\//);
    }
    // The mail catcher is for trials only; MinIO runs without its console.
    expect(compose.services.maildev!.profiles).toEqual(['trial']);
    expect(compose.services.minio!.environment!.MINIO_BROWSER).toBe('off');
    const caddyfile = readFileSync(path.join(ROOT, 'infra/caddy/Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/dynamic a \{\s*name api\s*port 3000/);
    expect(caddyfile).toContain('reverse_proxy minio:9000');
  });

  it('scales api and worker and stops them gracefully', () => {
    for (const name of ['api', 'worker']) {
      const service = compose.services[name] as { stop_grace_period?: string; container_name?: string };
      // Replicas need no fixed name; SIGTERM gets more time than the app's 20 s grace.
      expect(service.container_name, name).toBeUndefined();
      expect(service.stop_grace_period, name).toBe('30s');
    }
    const redis = compose.services.redis as unknown as { command: string[] };
    expect(redis.command.join(' ')).toMatch(/--appendonly yes.*--maxmemory-policy noeviction/);
  });
});
