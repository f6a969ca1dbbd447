import { defineProject } from 'vitest/config';

export default defineProject({
  // `source` resolves workspace packages to their TypeScript; no `module`, which would pick
  // extensionless ESM builds of some dependencies that Node cannot load.
  resolve: { conditions: ['source', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    name: 'api',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
