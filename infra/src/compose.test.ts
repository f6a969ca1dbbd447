/**
 * docker-compose.yml as an operator runs it (checked by reading, as `docker compose config` would
 * show it): only the TLS proxy is published, and no credential has a default that works.
 */
import { existsSync, readFileSync } from 'node:fs';
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
  it('publishes the proxy only; the monitoring profile listens on loopback', () => {
    const published = Object.entries(compose.services)
      .filter(([, service]) => service.ports?.length)
      .map(([name, service]) => [name, service.ports]);
    expect(published).toEqual([
      ['caddy', ['80:80', '443:443', '443:443/udp']],
      ['prometheus', ['127.0.0.1:9090:9090']],
      ['grafana', ['127.0.0.1:3001:3000']],
    ]);
  });

  it('runs Prometheus and Grafana in the profile monitoring, scraping api and worker with METRICS_TOKEN', () => {
    type Service = { image: string; profiles?: string[]; volumes: string[]; command?: string[] };
    const services = compose.services as unknown as Record<string, Service>;
    for (const name of ['prometheus', 'grafana']) {
      const service = services[name]!;
      expect(service.profiles, name).toEqual(['monitoring']);
      // Pinned to a release, and the configuration mounted read-only.
      expect(service.image, name).toMatch(/:v?\d+\.\d+\.\d+$/);
      for (const volume of service.volumes.filter((v) => v.startsWith('./'))) {
        expect(volume, name).toMatch(/^\.\/infra\/monitoring\/.+:ro$/);
        expect(existsSync(path.join(ROOT, volume.split(':')[0]!)), volume).toBe(true);
      }
    }
    // Both processes take the token; empty by default, which leaves the metrics off.
    for (const name of ['api', 'worker']) {
      expect(compose.services[name]!.environment!.METRICS_TOKEN, name).toMatch(/^\$\{METRICS_TOKEN:-\}$/);
    }
    const prometheus = parse(
      readFileSync(path.join(ROOT, 'infra/monitoring/prometheus/prometheus.yml'), 'utf8'),
    ) as {
      scrape_configs: Array<{
        job_name: string;
        authorization: { type: string; credentials_file: string };
        dns_sd_configs: Array<{ names: string[]; port: number }>;
      }>;
    };
    const jobs = prometheus.scrape_configs.map((job) => [
      job.job_name,
      job.dns_sd_configs[0]!.names,
      job.dns_sd_configs[0]!.port,
    ]);
    expect(jobs).toEqual([
      ['api', ['api'], 3000],
      ['worker', ['worker'], 9464],
    ]);
    // The token file the scrape reads is the one the service writes from METRICS_TOKEN.
    for (const job of prometheus.scrape_configs) {
      expect(job.authorization.type).toBe('Bearer');
      expect(services.prometheus!.command!.join('\n')).toContain(`> ${job.authorization.credentials_file}`);
    }
    // The worker's metrics port stays on the compose network; Caddy keeps /metrics to it.
    expect(compose.services.worker!.ports).toBeUndefined();
    expect(readFileSync(path.join(ROOT, 'infra/caddy/Caddyfile'), 'utf8')).toContain('respond /metrics 404');
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

  it('mounts the backups into the backup service only, with the key; the workers get the journal’s bucket', () => {
    type Service = { volumes?: string[]; environment?: Record<string, string> };
    const services = compose.services as unknown as Record<string, Service>;
    const mounting = Object.entries(services)
      .filter(([, service]) => service.volumes?.some((volume) => volume.startsWith('backups:')))
      .map(([name]) => name);
    expect(mounting).toEqual(['backup']);
    expect(services.backup!.environment!.BACKUP_DIR).toBe('/backups');
    expect(services.backup!.environment!.BACKUP_ENCRYPTION_KEY).toBe('${BACKUP_ENCRYPTION_KEY:-}');
    for (const name of ['api', 'worker']) {
      expect(services[name]!.environment!.BACKUP_DIR, name).toBeUndefined();
      expect(services[name]!.environment!.BACKUP_ENCRYPTION_KEY, name).toBeUndefined();
    }
    // The workers write the erasure journal into the second bucket.
    expect(services.worker!.environment!.BACKUP_S3_BUCKET).toBe('${BACKUP_S3_BUCKET:-}');
    expect(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toContain(
      'install -d -m 0700 -o node -g node /backups',
    );
  });
});
