import { defineProject } from 'vitest/config';

// Only the pure helpers are tested; the benchmarks themselves never run under `npm test`.
export default defineProject({
  test: { name: 'bench', include: ['src/**/*.test.ts'] },
});
