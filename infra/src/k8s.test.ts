/**
 * infra/k8s as the cluster gets it: the base and the production overlay are built (their patches
 * applied as Kustomize does), every resource validates against the Kubernetes API's schemas, and the
 * manifests agree with the code and the operations guide: probes on the paths and ports the
 * processes serve, the commands the image holds, every variable the code reads in the guide's config
 * contract and set where it says, and each process's own configuration loader accepting what the
 * manifests give it in production.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildKustomization, type K8sObject } from './k8s/kustomize.js';
import { schemaProblems } from './k8s/schema.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BASE = path.join(ROOT, 'infra/k8s/base');
const OVERLAY = path.join(ROOT, 'infra/k8s/overlays/production');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const base = buildKustomization(BASE);
const production = buildKustomization(OVERLAY);
const BUILDS = { base, production };

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are walked as the YAML they are */
type Manifest = any;

const find = (objects: K8sObject[], kind: string, name: string): Manifest => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found;
};

/** The processes of the config contract and the workload each runs in. */
const PROCESSES = {
  api: ['Deployment', 'schlosstreffen-api'],
  worker: ['Deployment', 'schlosstreffen-worker'],
  migration: ['Job', 'schlosstreffen-migrate'],
  backup: ['CronJob', 'schlosstreffen-backup'],
} as const;
type Process = keyof typeof PROCESSES;

const podSpecOf = (workload: Manifest): Manifest =>
  workload.kind === 'CronJob' ? workload.spec.jobTemplate.spec.template.spec : workload.spec.template.spec;
const workloadOf = (objects: K8sObject[], process: Process) =>
  find(objects, PROCESSES[process][0], PROCESSES[process][1]);
const containerOf = (objects: K8sObject[], process: Process): Manifest =>
  podSpecOf(workloadOf(objects, process)).containers[0];
const workloads = (objects: K8sObject[]) =>
  objects.filter((object) => ['Deployment', 'Job', 'CronJob'].includes(object.kind)) as Manifest[];

const CONFIG_MAP = 'schlosstreffen-config';
const SECRET = 'schlosstreffen-secrets';
const BACKUP_SECRET = 'schlosstreffen-backup-secrets';
const configOf = (objects: K8sObject[]): Record<string, string> =>
  find(objects, 'ConfigMap', CONFIG_MAP).data;
/** The Secrets' keys and placeholders come from the base: the production overlay leaves them out. */
const secretOf = (name: string): Record<string, string> => find(base, 'Secret', name).stringData;

/** A container's environment as the kubelet makes it: envFrom first, env over it. */
function environmentOf(objects: K8sObject[], process: Process): Record<string, string> {
  const container = containerOf(objects, process);
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, find(objects, 'ConfigMap', from.configMapRef.name).data);
    else Object.assign(env, secretOf(from.secretRef.name));
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    const value = ref ? secretOf(ref.name)[ref.key] : entry.value;
    if (value === undefined) throw new Error(`${process}: ${entry.name} has no value`);
    env[entry.name] = value;
  }
  return env;
}

/** Names set in containers that are not the app's: the OS's and libraries'. */
const NOT_THE_APPS = new Set(['TMPDIR', 'MALLOC_ARENA_MAX', 'XDG_CACHE_HOME']);

/** Every environment variable the code of api, worker and shared reads (tests and harness apart). */
function namesTheCodeReads(): Set<string> {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (['node_modules', 'dist', 'testing'].includes(name)) return [];
      if (statSync(full).isDirectory()) return walk(full);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
    });
  const names = new Set<string>();
  for (const file of ['api/src', 'worker/src', 'shared/src'].flatMap((dir) => walk(path.join(ROOT, dir)))) {
    const text = readFileSync(file, 'utf8');
    // Reads of the environment and of its parsed copies (`env.X`, `e.X`, …).
    for (const [, name] of text.matchAll(/\b(?:env|e|merged|set)\.([A-Z][A-Z0-9_]{2,})\b/g)) {
      names.add(name!);
    }
    for (const [, name] of text.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)) names.add(name!);
    // The keys of valibot's schemas of the environment.
    if (/v\.object\(/.test(text)) {
      for (const [, name] of text.matchAll(/^\s+([A-Z][A-Z0-9_]{2,})\??:/gm)) names.add(name!);
    }
    // One per retention rule, named by a template.
    if (text.includes('`RETENTION_${')) names.add('RETENTION_<RULE>_DAYS');
  }
  return names;
}

interface ContractRow {
  names: string[];
  place: string;
  readers: Process[];
}

/** The operations guide's table 'The config contract'. */
function contractTable(): ContractRow[] {
  const guide = read('docs/operations.md');
  const start = guide.indexOf('\n### The config contract\n');
  expect(start, 'docs/operations.md: ### The config contract').toBeGreaterThan(0);
  const section = guide.slice(start + 1).split(/\n#{1,3} /)[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [names, place, readers] = line.slice(1, -1).split(/(?<!\\)\|/);
      return {
        names: [...names!.matchAll(/`([A-Z][A-Z0-9_<>]+)`/g)].map((match) => match[1]!),
        place: place!.trim(),
        readers: readers!
          .split(',')
          .map((reader) => reader.trim())
          .filter(Boolean) as Process[],
      };
    });
}

describe('infra/k8s', () => {
  it('builds base and production overlay, and every resource validates against the Kubernetes API', () => {
    const kinds = (objects: K8sObject[]) => objects.map((object) => object.kind).sort();
    expect(kinds(base)).toEqual([
      'ConfigMap',
      'CronJob',
      'Deployment',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'Job',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Secret',
      'Secret',
      'Service',
    ]);
    for (const [build, objects] of Object.entries(BUILDS)) {
      expect(objects.flatMap(schemaProblems), build).toEqual([]);
    }
    // The validation sees a field of the wrong type and a misspelt one, at any depth.
    const broken = structuredClone(find(production, 'Deployment', 'schlosstreffen-api'));
    const container = broken.spec.template.spec.containers[0];
    container.ports[0].containerPort = '3000';
    container.readinesProbe = container.readinessProbe;
    container.securityContext.capabilities.dropp = ['ALL'];
    expect(schemaProblems(broken).sort()).toEqual([
      'Deployment/schlosstreffen-api.spec.template.spec.containers[0].readinesProbe: no field of IContainer',
      'Deployment/schlosstreffen-api.spec.template.spec.containers[0].securityContext.capabilities.dropp: no field of ICapabilities',
      'Deployment/schlosstreffen-api: data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    ]);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!kubectl)('builds as `kubectl kustomize` does (where kubectl is installed)', () => {
    for (const [dir, objects] of [
      [BASE, base],
      [OVERLAY, production],
    ] as const) {
      const built = parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' })).map(
        (document) => document.toJS() as K8sObject,
      );
      const byId = (list: K8sObject[]) =>
        Object.fromEntries(list.map((object) => [`${object.kind}/${object.metadata.name}`, object]));
      expect(byId(objects), dir).toEqual(byId(built));
    }
  });

  it('has an overlay of patches only: one release everywhere, the Secrets left to the cluster', () => {
    const kustomization = parseAllDocuments(
      read('infra/k8s/overlays/production/kustomization.yaml'),
    )[0]!.toJS();
    expect(Object.keys(kustomization).sort()).toEqual(['apiVersion', 'kind', 'patches', 'resources']);
    expect(kustomization.resources).toEqual(['../../base']);
    const images = new Set(workloads(production).map((workload) => podSpecOf(workload).containers[0].image));
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/^[\w./-]+:\d[\w.-]*$/);
    expect(production.filter((object) => object.kind === 'Secret')).toEqual([]);
    // The overlay changes the ConfigMap's values; its names stay the contract's.
    expect(Object.keys(configOf(base))).toEqual(expect.arrayContaining(Object.keys(configOf(production))));
    // Every secret of the base is a placeholder: nothing real is in the repository.
    for (const name of [SECRET, BACKUP_SECRET]) {
      for (const [key, value] of Object.entries(secretOf(name))) {
        expect(value === '' || value.includes('REPLACE_ME'), `${name} ${key}`).toBe(true);
      }
    }
  });

  it('probes and ports are the ones the processes serve, the commands the ones the image holds', () => {
    const health = read('api/src/routes/health/health.routes.ts');
    expect(health).toContain("router.get('/healthz/ready'");
    expect(health).toContain("router.get('/healthz'");
    expect(read('worker/src/health.ts')).toContain("path !== '/healthz'");
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    for (const [build, objects] of Object.entries(BUILDS)) {
      const config = configOf(objects);
      const api = containerOf(objects, 'api');
      const port = (container: Manifest, name: string) =>
        container.ports.find((entry: Manifest) => entry.name === name)?.containerPort;
      expect(port(api, 'http'), build).toBe(Number(config.PORT));
      expect(
        [api.startupProbe, api.readinessProbe, api.livenessProbe].map((probe) => [
          probe.httpGet.path,
          probe.httpGet.port,
        ]),
        build,
      ).toEqual([
        ['/healthz', 'http'],
        ['/healthz/ready', 'http'],
        ['/healthz', 'http'],
      ]);
      const worker = containerOf(objects, 'worker');
      expect(port(worker, 'health'), build).toBe(Number(config.WORKER_HEALTH_PORT));
      expect(port(worker, 'metrics'), build).toBe(Number(config.WORKER_METRICS_PORT));
      for (const probe of [worker.startupProbe, worker.readinessProbe, worker.livenessProbe]) {
        expect([probe.httpGet.path, probe.httpGet.port], build).toEqual(['/healthz', 'health']);
      }
      // Service, Ingress, autoscaler and budgets reach the pods they are for.
      const service = find(objects, 'Service', 'schlosstreffen-api');
      const apiPods = find(objects, 'Deployment', 'schlosstreffen-api').spec.template.metadata.labels;
      expect(apiPods).toMatchObject(service.spec.selector);
      expect(service.spec.ports.map((entry: Manifest) => entry.targetPort)).toEqual(['http']);
      const backend = find(objects, 'Ingress', 'schlosstreffen').spec.rules[0].http.paths[0].backend.service;
      expect(backend).toEqual({ name: service.metadata.name, port: { name: service.spec.ports[0].name } });
      expect(find(objects, 'HorizontalPodAutoscaler', 'schlosstreffen-api').spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'schlosstreffen-api',
      });
      for (const process of ['api', 'worker'] as const) {
        const deployment = workloadOf(objects, process);
        const budget = find(objects, 'PodDisruptionBudget', deployment.metadata.name);
        expect(deployment.spec.template.metadata.labels).toMatchObject(budget.spec.selector.matchLabels);
        expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
      }
      expect(
        Object.fromEntries(
          (Object.keys(PROCESSES) as Process[]).map((process) => [
            process,
            containerOf(objects, process).command,
          ]),
        ),
        build,
      ).toEqual({
        api: ['node', 'api/dist/main.js'],
        worker: ['node', 'worker/dist/main.js'],
        migration: ['node', 'api/dist/cli/cli.js', 'migrate'],
        backup: ['node', 'api/dist/cli/cli.js', 'backup:run', '--once'],
      });
    }
    // What those commands run, built into the image.
    expect(dockerfile).toContain('COPY --from=build /app/api/dist api/dist');
    expect(dockerfile).toContain('COPY --from=build /app/worker/dist worker/dist');
    expect(read('api/src/cli/cli.ts')).toContain("case 'migrate':");
    expect(read('api/src/cli/backup/usage.ts')).toContain('backup:run [--once [--as-of <date>]]');
  });

  it('runs every pod as the image’s user, read-only, without privileges, within requests and limits', () => {
    for (const [build, objects] of Object.entries(BUILDS)) {
      for (const workload of workloads(objects)) {
        const at = `${build} ${workload.kind}/${workload.metadata.name}`;
        const pod = podSpecOf(workload);
        expect(pod.securityContext, at).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 1000,
          runAsGroup: 1000,
        });
        expect(pod.automountServiceAccountToken, at).toBe(false);
        for (const container of pod.containers) {
          expect(container.securityContext, at).toEqual({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          });
          for (const kind of ['requests', 'limits']) {
            expect(Object.keys(container.resources[kind]).sort(), `${at} ${kind}`).toEqual(['cpu', 'memory']);
          }
          // Temporary files on a volume of the pod's own.
          const tmp = container.volumeMounts.find((mount: Manifest) => mount.mountPath === '/tmp');
          expect(
            pod.volumes.find((volume: Manifest) => volume.name === tmp?.name)?.emptyDir,
            at,
          ).toBeDefined();
          expect(container.env.find((entry: Manifest) => entry.name === 'TMPDIR')?.value, at).toBe('/tmp');
        }
      }
      const api = workloadOf(objects, 'api');
      expect(api.spec.replicas, build).toBeGreaterThanOrEqual(2);
      expect(api.spec.strategy.rollingUpdate.maxUnavailable, build).toBe(0);
      expect(
        find(objects, 'HorizontalPodAutoscaler', 'schlosstreffen-api').spec.minReplicas,
      ).toBeGreaterThanOrEqual(2);
      // SIGTERM: the delay, then the grace for requests in flight, all before the kubelet's SIGKILL.
      const config = configOf(objects);
      expect(Number(config.SHUTDOWN_DELAY_SECONDS), build).toBeGreaterThan(0);
      for (const process of ['api', 'worker'] as const) {
        const stop = process === 'api' ? Number(config.SHUTDOWN_DELAY_SECONDS) : 0;
        expect(
          podSpecOf(workloadOf(objects, process)).terminationGracePeriodSeconds,
          `${build} ${process}`,
        ).toBeGreaterThan(stop + Number(config.SHUTDOWN_GRACE_SECONDS));
      }
    }
  });

  it('applies the configuration and the migration Job first, as the operations guide’s deploy does', () => {
    const command = /apply -k infra\/k8s\/overlays\/production -l '([\w./-]+) in \(([\w,-]+)\)'/.exec(
      read('docs/operations.md'),
    );
    expect(command, 'the first apply of a rolling deploy').not.toBeNull();
    const [, key, values] = command!;
    const first = production.filter((object) =>
      values!.split(',').includes(object.metadata.labels?.[key!] ?? ''),
    );
    expect(first.map((object) => object.kind).sort()).toEqual(['ConfigMap', 'Job']);
    // In the base, the Secrets the cluster holds in production come along.
    expect(
      base.filter((object) => object.metadata.labels?.[key!] === 'config').map((object) => object.kind),
    ).toEqual(['ConfigMap', 'Secret', 'Secret']);
  });

  it('migrates in the Job, api and worker only start; the backup runs once a night into a scratch volume and leaves encrypted', () => {
    for (const [build, objects] of Object.entries(BUILDS)) {
      for (const process of ['api', 'worker'] as const) {
        expect(environmentOf(objects, process).MIGRATE_ON_START, `${build} ${process}`).toBe('false');
      }
      const cronJob = workloadOf(objects, 'backup');
      expect(cronJob.spec.concurrencyPolicy).toBe('Forbid');
      expect(read('shared/src/constants.ts')).toContain(`EVENT_TIMEZONE = '${cronJob.spec.timeZone}'`);
      const pod = podSpecOf(cronJob);
      const env = environmentOf(objects, 'backup');
      // BACKUP_DIR below an emptyDir's mount: a directory the process makes itself, 0700.
      const mount = pod.containers[0].volumeMounts.find((entry: Manifest) =>
        env.BACKUP_DIR!.startsWith(`${entry.mountPath}/`),
      );
      expect(
        pod.volumes.find((volume: Manifest) => volume.name === mount?.name)?.emptyDir,
        build,
      ).toBeDefined();
      // The copy in the second bucket is the backup, encrypted with the key.
      for (const name of [
        'BACKUP_S3_ENDPOINT',
        'BACKUP_S3_BUCKET',
        'BACKUP_S3_ACCESS_KEY_ID',
        'BACKUP_S3_SECRET_ACCESS_KEY',
        'BACKUP_ENCRYPTION_KEY',
      ]) {
        expect(env[name], `${build} ${name}`).toBeTruthy();
      }
      for (const process of ['api', 'worker', 'migration'] as const) {
        expect(environmentOf(objects, process).BACKUP_ENCRYPTION_KEY, `${build} ${process}`).toBeUndefined();
      }
    }
  });

  it('sets every variable of the code where the operations guide’s config contract says', () => {
    const rows = contractTable();
    const documented = rows.flatMap((row) => row.names);
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
    const code = [...namesTheCodeReads()].sort();
    expect(code.length).toBeGreaterThan(60);
    expect([...documented].sort()).toEqual(code);
    const places = new Set(['ConfigMap', 'Secret', 'backup Secret', 'container', '—']);
    expect(rows.filter((row) => !places.has(row.place))).toEqual([]);
    expect(rows.flatMap((row) => row.readers).filter((reader) => !(reader in PROCESSES))).toEqual([]);
    const named = (place: string) =>
      rows
        .filter((row) => row.place === place)
        .flatMap((row) => row.names)
        .sort();
    expect(Object.keys(configOf(base)).sort()).toEqual(named('ConfigMap'));
    expect(Object.keys(secretOf(SECRET)).sort()).toEqual(named('Secret'));
    expect(Object.keys(secretOf(BACKUP_SECRET)).sort()).toEqual(named('backup Secret'));
    for (const [build, objects] of Object.entries(BUILDS)) {
      const environments = Object.fromEntries(
        (Object.keys(PROCESSES) as Process[]).map((process) => [process, environmentOf(objects, process)]),
      ) as Record<Process, Record<string, string>>;
      const direct = workloads(objects).flatMap((workload) =>
        podSpecOf(workload).containers.flatMap((container: Manifest) =>
          (container.env ?? []).map((entry: Manifest) => entry.name as string),
        ),
      );
      for (const row of rows) {
        for (const name of row.names) {
          const at = `${build} ${name}`;
          const readers = new Set(row.readers);
          if (row.place === '—') {
            for (const env of Object.values(environments)) expect(env[name], at).toBeUndefined();
            continue;
          }
          // Every process that reads it gets it …
          for (const reader of readers)
            expect(environments[reader][name], `${at} for ${reader}`).toBeDefined();
          // … and the backup's keys no other process.
          if (row.place === 'backup Secret') {
            for (const process of Object.keys(PROCESSES) as Process[]) {
              if (!readers.has(process))
                expect(environments[process][name], `${at} for ${process}`).toBeUndefined();
            }
          }
          if (row.place === 'container') expect(direct, at).toContain(name);
        }
      }
      // Set in a container: the contract's (by reference to a Secret, or its own), or not the app's.
      const contract = new Map(rows.flatMap((row) => row.names.map((name) => [name, row.place])));
      for (const name of direct) {
        expect(
          NOT_THE_APPS.has(name) || ['container', 'backup Secret'].includes(contract.get(name) ?? ''),
          `${build}: ${name} set in a container`,
        ).toBe(true);
      }
    }
  });

  it('gives each process what its own configuration loader accepts in production; the placeholders it refuses', () => {
    // The code's loaders, run from the sources in a process of their own (infra does not depend on api).
    const fill = (env: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(env).map(([name, value]) => [
          name,
          name === 'BACKUP_ENCRYPTION_KEY'
            ? randomBytes(32).toString('base64')
            : value.replaceAll('REPLACE_ME', randomBytes(24).toString('hex')),
        ]),
      );
    const input = {
      ...Object.fromEntries(
        (Object.keys(PROCESSES) as Process[]).map((process) => [
          process,
          fill(environmentOf(production, process)),
        ]),
      ),
      placeholders: environmentOf(production, 'api'),
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-config-'));
    try {
      writeFileSync(path.join(dir, 'input.json'), JSON.stringify(input));
      writeFileSync(
        path.join(dir, 'load.mjs'),
        `
        import { readFileSync } from 'node:fs';
        const [root, inputFile] = process.argv.slice(2);
        const input = JSON.parse(readFileSync(inputFile, 'utf8'));
        const load = (file) => import(new URL(file, 'file://' + root + '/').href);
        const { loadApiConfig, loadCommonConfig, loadDatabaseUrl } = await load('api/src/core/config.ts');
        const { loadWorkerConfig } = await load('worker/src/config.ts');
        const { loadBackupSchedule } = await load('api/src/cli/backup/schedule.ts');
        const attempt = (load) => { try { return load(); } catch (error) { return { refused: error.message }; } };
        console.log(JSON.stringify({
          api: attempt(() => {
            const c = loadApiConfig(input.api);
            return { production: c.isProduction, migrateOnStart: c.migrateOnStart, delay: c.shutdownDelaySeconds };
          }),
          worker: attempt(() => {
            const c = loadWorkerConfig(input.worker);
            return { production: c.isProduction, migrateOnStart: c.migrateOnStart, health: c.healthPort, journal: Boolean(c.journal) };
          }),
          migration: attempt(() => ({ database: new URL(loadDatabaseUrl(input.migration)).pathname })),
          backup: attempt(() => {
            const c = loadCommonConfig(input.backup);
            const s = loadBackupSchedule(input.backup);
            return { production: c.isProduction, dir: s.dir, offsite: Boolean(s.offsite) };
          }),
          placeholders: attempt(() => loadApiConfig(input.placeholders) && 'accepted'),
        }));
        process.exit(0);
        `,
      );
      const output = execFileSync(
        process.execPath,
        [
          '--conditions=source',
          '--import',
          'tsx',
          path.join(dir, 'load.mjs'),
          ROOT,
          path.join(dir, 'input.json'),
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 90_000 },
      );
      const loaded = JSON.parse(output.trim().split('\n').at(-1)!);
      const config = configOf(production);
      expect(loaded).toEqual({
        api: { production: true, migrateOnStart: false, delay: Number(config.SHUTDOWN_DELAY_SECONDS) },
        worker: {
          production: true,
          migrateOnStart: false,
          health: Number(config.WORKER_HEALTH_PORT),
          journal: true,
        },
        migration: { database: '/schlosstreffen' },
        backup: { production: true, dir: environmentOf(production, 'backup').BACKUP_DIR, offsite: true },
        placeholders: { refused: expect.stringContaining('SESSION_SECRET') },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
