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

  it('nothing the core reaches knows the HTTP layer', () => {
    const seen = new Set<string>();
    const queue = ['api/src/core/index.ts'];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const { target } of edges.get(file) ?? []) if (target?.startsWith('api/')) queue.push(target);
    }
    const http = [...seen].filter((file) => !file.startsWith('api/src/core/'));
    expect(http).toEqual([]);
    expect(seen.size).toBeGreaterThan(20);
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

  it('has no import cycles, test helpers included, apart from relations between ORM entities', () => {
    // Tarjan's strongly connected components over every file but the tests themselves.
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
    let index = 0;
    const indices = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const connect = (file: string) => {
      indices.set(file, index);
      low.set(file, index);
      index += 1;
      stack.push(file);
      onStack.add(file);
      for (const next of graph.get(file) ?? []) {
        if (!indices.has(next)) {
          connect(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (onStack.has(next)) {
          low.set(file, Math.min(low.get(file)!, indices.get(next)!));
        }
      }
      if (low.get(file) === indices.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const file of graph.keys()) if (!indices.has(file)) connect(file);
    const allowed = (cycle: string[]) => cycle.every((file) => file.endsWith('.entity.ts'));
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
