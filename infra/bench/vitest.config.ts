import { defineProject } from 'vitest/config';

// Only the pure helpers are tested; the benchmarks themselves never run under `npm test`.
// `source` resolves workspace packages to their TypeScript (the metrics the monitoring test reads).
export default defineProject({
  resolve: { conditions: ['source', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: { name: 'bench', include: ['src/**/*.test.ts'] },
});
