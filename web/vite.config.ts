import { tanstackRouter } from '@tanstack/router-plugin/vite';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const apiOrigin = 'http://localhost:3000';

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react(), tailwindcss()],
  resolve: {
    // 'source' first: workspace packages such as @schlosstreffen/shared resolve to their TypeScript source.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': apiOrigin,
      '/objects': apiOrigin,
      '/admin/queues': apiOrigin,
      '/healthz': apiOrigin,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
