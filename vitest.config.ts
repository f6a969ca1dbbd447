import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files mostly wait on PostgreSQL, Redis, S3 and the processes they start, each on its own
    // database and key prefix: at least two run at once, also on two cores (Vitest's default there
    // is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['shared', 'api', 'worker', 'web', 'infra', 'infra/bench'],
  },
});
