import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-server/**',
      '**/node_modules/**',
      '.data/**',
      'coverage/**',
      'test-results/**',
      'web/src/routeTree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  {
    // The long-running processes log through the one logger (api/src/core/logger.ts), as JSON; the
    // CLI prints its answers for the person at the terminal, tests as they like.
    files: ['api/src/**/*.ts', 'worker/src/**/*.{ts,tsx}'],
    ignores: ['api/src/cli/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-console': 'error' },
  },
);
