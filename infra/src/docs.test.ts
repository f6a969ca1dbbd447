/**
 * The docs hold together: every relative link in the READMEs, SECURITY.md and docs/ reaches a file
 * and, with an anchor, a heading of it; every `docs/….md#…` that code, tests, the bench or CI name
 * exists; and the README states the test command that CI runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Generated, installed or run-time folders: not the project's own docs or code. */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'dist-server',
  '.git',
  '.data',
  'test-results',
  'playwright-report',
  '.tanstack',
]);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(full).isDirectory()) return walk(full, keep);
    return keep(name) ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const markdown = walk(ROOT, (name) => name.endsWith('.md')).map(rel);
const code = ['api', 'worker', 'web', 'shared', 'infra', '.ci']
  .flatMap((dir) => walk(path.join(ROOT, dir), (name) => /\.(tsx?|mjs|sh)$|^run$/.test(name)))
  .map(rel);

/** Markdown without fenced blocks and code spans: what a reader's renderer turns into links. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped (any script's letters stay), spaces to '-'. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(readFileSync(path.join(ROOT, file), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count ? `${base}-${count}` : base);
  }
  return result;
}

function broken(from: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file ? rel(path.resolve(path.dirname(path.join(ROOT, from)), file)) : from;
  if (!existsSync(path.join(ROOT, resolved))) return `${from}: ${target} (no such file)`;
  if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(decodeURIComponent(anchor))) {
    return `${from}: ${target} (no such heading)`;
  }
  return undefined;
}

describe('docs', () => {
  it('splits the guide by reader', () => {
    for (const file of ['docs/organisation.md', 'docs/operations.md', 'docs/development.md']) {
      expect(markdown, file).toContain(file);
    }
  });

  it('links only to files and headings that exist', () => {
    const problems = markdown.flatMap((file) =>
      [...prose(readFileSync(path.join(ROOT, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^[a-z]+:/i.test(target))
        .map((target) => broken(file, target))
        .filter((problem) => problem !== undefined),
    );
    expect(problems).toEqual([]);
  });

  it('has every docs/….md#anchor that code, tests, the bench and CI name', () => {
    const named = code.flatMap((file) =>
      [
        ...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/\bdocs\/[\w-]+\.md(?:#[\p{L}\p{N}_-]+)?/gu),
      ].map((match) => [file, match[0]] as const),
    );
    // The bench, the fault suite and the load test each print where their figures are explained.
    for (const runner of [
      'infra/bench/src/run.ts',
      'infra/bench/src/faults/run.ts',
      'infra/bench/src/load/run.ts',
    ]) {
      expect(
        named.some(([file]) => file === runner),
        runner,
      ).toBe(true);
    }
    const problems = named
      .map(([file, target]) => broken('README.md', target) && `${file}: ${target}`)
      .filter(Boolean);
    expect(problems).toEqual([]);
  });

  it("states the test command that CI runs as the README's", () => {
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(readme).toMatch(/^npm test\s+#/m);
  });
});
