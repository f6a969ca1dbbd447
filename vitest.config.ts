import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'api', 'worker', 'web', 'infra', 'infra/bench'],
  },
});
