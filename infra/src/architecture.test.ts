/**
 * The structure rules of the code base, checked on its import graph: who may import whom, no
 * import cycles, and no API response type written a second time in the web client.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['shared/src', 'api/src', 'worker/src', 'web/src', 'web/e2e', 'infra/src'];
/** Test files themselves. */
const isTestCase = (file: string) => /\.(test|spec)\.tsx?$/.test(file);
/** Test files and the helpers they share (test harnesses, e2e support). */
const isTest = (file: string) => isTestCase(file) || /\/testing(\/|\.ts)|\/e2e\//.test(file);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return walk(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const files = SOURCE_DIRS.flatMap((dir) => walk(path.join(ROOT, dir))).map(rel);
const sourceFiles = files.filter((file) => !isTest(file));
const known = new Set(files);

/** Workspace package entries, by import specifier, from each package.json's `source` export. */
const packageEntries = new Map<string, string>();
for (const pkg of ['shared', 'api', 'worker', 'infra']) {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, pkg, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { source: string }>;
  };
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    packageEntries.set(specifier, `${pkg}/${path.posix.normalize(target.source)}`);
  }
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Every module specifier a file imports, side-effect imports (`import './x.js'`) included. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/** The file a specifier names inside this repository, if any. */
function resolve(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
    const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
    return [`${stem}.ts`, `${stem}.tsx`, `${base}/index.ts`, `${stem}/index.tsx`].find((c) => known.has(c));
  }
  return packageEntries.get(specifier);
}

const edges = new Map(
  files.map((file) => [
    file,
    specifiersOf(file).map((specifier) => ({ specifier, target: resolve(file, specifier) })),
  ]),
);

const CORE = 'api/src/core/';

/**
 * The core's layers, lowest first (as documented in api/src/core/README.md). An area is the first
 * folder below core/; the top-level files are the kernel (config, errors, redis, dependencies),
 * except `scheduler.ts` and the entry `index.ts`. An area imports areas of lower layers only.
 */
const CORE_LAYERS: string[][] = [
  ['model'],
  ['kernel', 'crypto', 'db', 'metrics', 'fees'],
  ['outbox', 'storage', 'settings', 'emails', 'editions', 'audit'],
  ['public-list', 'quartett', 'visitors', 'texts', 'signs'],
  ['award', 'jury', 'check-in'],
  ['status-log'],
  ['reviews'],
  ['payments'],
  ['accounts', 'invitations', 'visitor-updates'],
  ['vehicles'],
  ['media'],
  ['privacy'],
  ['scheduler'],
  ['entry'],
];

/** The area of a core file. */
function areaOf(file: string): string {
  const parts = file.slice(CORE.length).split('/');
  if (parts.length > 1) return parts[0]!;
  if (parts[0] === 'index.ts') return 'entry';
  if (parts[0] === 'scheduler.ts') return 'scheduler';
  return 'kernel';
}

const layerOf = (area: string) => CORE_LAYERS.findIndex((layer) => layer.includes(area));

/** Strongly connected components with more than one member (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return cycles;
}

describe('structure', () => {
  it('the worker reaches into the api package through its core entry only', () => {
    const offending = sourceFiles
      .filter((file) => file.startsWith('worker/'))
      .flatMap((file) =>
        edges
          .get(file)!
          .filter(({ specifier }) => specifier.startsWith('@schlosstreffen/api'))
          .filter(({ specifier }) => specifier !== '@schlosstreffen/api/core')
          .map(({ specifier }) => `${file} → ${specifier}`),
      );
    expect(offending).toEqual([]);
    // The rule is not empty: the worker does use the core.
    expect(
      sourceFiles.some((file) =>
        edges.get(file)!.some(({ specifier }) => specifier === '@schlosstreffen/api/core'),
      ),
    ).toBe(true);
  });

  it('no file of the core knows the HTTP layer (every file under api/src/core, tests apart)', () => {
    const coreFiles = files.filter((file) => file.startsWith(CORE));
    // Every core file is seen, not only those reachable from the core's entry.
    expect(coreFiles.length).toBeGreaterThan(80);
    const offending = coreFiles.flatMap((file) =>
      edges
        .get(file)!
        .filter(({ target }) => target?.startsWith('api/') && !target.startsWith(CORE))
        // Tests of the core may use the test harness.
        .filter(({ target }) => !(isTest(file) && target!.startsWith('api/src/testing/')))
        .map(({ target }) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('the core model imports no area', () => {
    const modelFiles = sourceFiles.filter((file) => areaOf(file) === 'model');
    expect(modelFiles.length).toBeGreaterThan(17);
    const offending = modelFiles.flatMap((file) =>
      edges
        .get(file)!
        .filter(({ target }) => target?.startsWith('api/') && areaOf(target) !== 'model')
        .map(({ target }) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("the core's areas stand in the documented layers: each imports lower layers only, so no cycle", () => {
    const coreSources = sourceFiles.filter((file) => file.startsWith(CORE));
    // Every area has its layer (a new folder under core/ must be placed in api/src/core/README.md).
    expect(coreSources.filter((file) => layerOf(areaOf(file)) < 0)).toEqual([]);
    const areaEdges = new Map<string, Set<string>>();
    const offending: string[] = [];
    for (const file of coreSources) {
      const from = areaOf(file);
      for (const { target } of edges.get(file)!) {
        if (!target?.startsWith(CORE)) continue;
        const to = areaOf(target);
        if (to === from) continue;
        if (!areaEdges.has(from)) areaEdges.set(from, new Set());
        areaEdges.get(from)!.add(to);
        if (layerOf(to) >= layerOf(from)) offending.push(`${from} → ${to} (${file} → ${target})`);
      }
    }
    expect(offending).toEqual([]);
    // Layers alone make the graph acyclic; checked besides, so the reason is named if layers change.
    expect(cyclesOf(new Map([...areaEdges].map(([area, targets]) => [area, [...targets]])))).toEqual([]);
    // The rule is not empty.
    expect(areaEdges.get('vehicles')?.has('status-log')).toBe(true);
  });

  it('raw SQL runs in `*.queries.ts` modules only (and migrations)', () => {
    const SQL_CALL = /\.execute\s*[<(]|getKnex\s*\(|\.raw\s*\(|createQueryBuilder\s*\(/g;
    const offending = sourceFiles
      .filter((file) => file.startsWith('api/src/'))
      .filter((file) => !file.endsWith('.queries.ts') && !file.includes('/db/migrations/'))
      .flatMap((file) => {
        const text = readFileSync(path.join(ROOT, file), 'utf8');
        return [...text.matchAll(SQL_CALL)].map(
          (match) => `${file}:${text.slice(0, match.index).split('\n').length}`,
        );
      });
    expect(offending).toEqual([]);
    // The rule is not empty: the queries modules do run SQL.
    expect(files.filter((file) => file.endsWith('.queries.ts')).length).toBeGreaterThan(10);
  });

  it('the HTTP edge (api/src/http) imports nothing from the routes', () => {
    const offending = sourceFiles
      .filter((file) => file.startsWith('api/src/http/'))
      .flatMap((file) =>
        edges
          .get(file)!
          .filter(({ target }) => target?.startsWith('api/src/routes/'))
          .map(({ target }) => `${file} → ${target}`),
      );
    expect(offending).toEqual([]);
  });

  it('web components and lib import nothing from features', () => {
    const offending = sourceFiles
      .filter((file) => file.startsWith('web/src/components/') || file.startsWith('web/src/lib/'))
      .flatMap((file) =>
        edges
          .get(file)!
          .filter(({ target }) => target?.startsWith('web/src/features/'))
          .map(({ target }) => `${file} → ${target}`),
      );
    expect(offending).toEqual([]);
  });

  it("has no import cycles, test helpers included, apart from relations between the model's entities", () => {
    // Strongly connected components over every file but the tests themselves.
    const graph = new Map(
      files
        .filter((file) => !isTestCase(file))
        .map((file) => [
          file,
          edges
            .get(file)!
            .map(({ target }) => target)
            .filter((target): target is string => Boolean(target) && !isTestCase(target!)),
        ]),
    );
    const cycles = cyclesOf(graph);
    // Relations between entities (Vehicle ↔ Media) are the one cycle allowed, and only in the model.
    const allowed = (cycle: string[]) =>
      cycle.every((file) => file.endsWith('.entity.ts') && file.startsWith(`${CORE}model/`));
    expect(cycles.filter((cycle) => !allowed(cycle))).toEqual([]);
  });

  it('declares every API response type once, in shared, and nowhere in the web client', () => {
    const contracts = walk(path.join(ROOT, 'shared/src/api'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/export (?:interface|type) (\w+)/g)])
      .map((match) => match[1]!);
    expect(contracts).toEqual(expect.arrayContaining(['Vehicle', 'Media', 'PublicVehicle', 'QuartettSet']));
    const twins = files
      .filter((file) => file.startsWith('web/src/'))
      .flatMap((file) => {
        const text = readFileSync(path.join(ROOT, file), 'utf8');
        return contracts
          .filter((name) =>
            new RegExp(
              `(?:^|\\n)\\s*(?:export\\s+)?(?:interface\\s+${name}\\b|type\\s+${name}\\s*(?:<[^>]*>)?\\s*=)`,
            ).test(text),
          )
          .map((name) => `${file}: ${name}`);
      });
    expect(twins).toEqual([]);
  });
});
