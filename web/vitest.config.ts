import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: {
    conditions: ['source', ...defaultClientConditions],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Typing through user-event in jsdom takes seconds when the API and worker tests run alongside
    // on two cores; the default 5 s fails tests that merely waited their turn.
    testTimeout: 20_000,
  },
});
