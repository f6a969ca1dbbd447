import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { GATE_PAGE_CACHE } from './src/features/check-in/gate-page-cache';
import { JURY_PAGE_CACHE } from './src/features/jury/jury-page-cache';
import {
  VISITOR_TICKET_PAGE_CACHE,
  VISITOR_TICKET_PATH_PREFIX,
} from './src/features/visitors/visitor-ticket-page-cache';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';

const apiOrigin = 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  // The server build is one module; the public files are served from the client build.
  publicDir: isSsrBuild ? false : 'public',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // The landing page is where most visits start: its component comes with the entry chunk
      // instead of one round trip later. The reviewers' dashboard asks for its list while its
      // component is still on the way, so its loader stays in the entry. Every other route's
      // loader comes with its component, in one chunk.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) =>
          routeId === '/'
            ? []
            : routeId === '/admin/dashboard'
              ? [['component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']]
              : [['loader', 'component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    tailwindcss(),
    // The server build (entry-server.tsx, imported by the api) needs no service worker and no
    // precompressed files.
    !isSsrBuild &&
      // The gate's check-in screen and the jury's screens work offline: a service worker (Workbox,
      // generated at build) precaches the app's code and keeps the last page of each it loaded; the
      // manifest makes the check-in screen installable. The pages are not precached: the server
      // writes the event's facts into them.
      VitePWA({
        injectRegister: false,
        registerType: 'autoUpdate',
        includeAssets: ['favicon.svg'],
        manifest: {
          name: 'Schlosstreffen Check-in',
          short_name: 'Check-in',
          description: 'Fahrzeuge am Einlass einchecken, auch ohne Netz.',
          lang: 'de',
          start_url: '/admin/check-in',
          scope: '/',
          display: 'standalone',
          background_color: '#0b0a08',
          theme_color: '#0b0a08',
          icons: [
            { src: '/gate-icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/gate-icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/gate-icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        workbox: {
          globPatterns: ['**/*.{js,css,svg,png,woff2}'],
          navigateFallback: null,
          cleanupOutdatedCaches: true,
          clientsClaim: true,
          skipWaiting: true,
          runtimeCaching: [
            {
              urlPattern: ({ request, url }) =>
                request.mode === 'navigate' && url.pathname.startsWith('/admin/check-in'),
              handler: 'NetworkFirst',
              options: {
                cacheName: GATE_PAGE_CACHE,
                networkTimeoutSeconds: 4,
                matchOptions: { ignoreSearch: true, ignoreVary: true },
              },
            },
            {
              // The jury's screens, the same way. Every jury address is the same page (the browser
              // renders it): one copy under '/jury' opens them all, also a car never opened before.
              urlPattern: ({ request, url }) =>
                request.mode === 'navigate' &&
                (url.pathname === '/jury' || url.pathname.startsWith('/jury/')),
              handler: 'NetworkFirst',
              options: {
                cacheName: JURY_PAGE_CACHE,
                networkTimeoutSeconds: 4,
                matchOptions: { ignoreSearch: true, ignoreVary: true },
                plugins: [{ cacheKeyWillBeUsed: async ({ request }) => new URL('/jury', request.url).href }],
              },
            },
            {
              // A visitor's ticket page, each under its own address (its secret), kept once opened:
              // it opens without network at the gate (the ticket itself is kept by the page).
              urlPattern: ({ request, url }) =>
                request.mode === 'navigate' &&
                url.pathname.startsWith(VISITOR_TICKET_PATH_PREFIX) &&
                !url.pathname.endsWith('/zurueckgeben'),
              handler: 'NetworkFirst',
              options: {
                cacheName: VISITOR_TICKET_PAGE_CACHE,
                networkTimeoutSeconds: 4,
                matchOptions: { ignoreSearch: true, ignoreVary: true },
              },
            },
          ],
        },
      }),
    !isSsrBuild && precompress(),
  ],
  resolve: {
    // 'source' first: workspace packages such as @schlosstreffen/shared resolve to their TypeScript source.
    conditions: ['source', ...defaultClientConditions],
  },
  ssr: {
    // One self-contained module for the api: no dependency on web's node_modules at run time.
    noExternal: true,
    resolve: { conditions: ['source', ...defaultServerConditions], externalConditions: ['node'] },
  },
  server: {
    proxy: {
      '/api': apiOrigin,
      '/objects': apiOrigin,
      '/admin/queues': apiOrigin,
      '/healthz': apiOrigin,
    },
  },
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, rolldownOptions: { output: { codeSplitting: false } } }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        rolldownOptions: {
          output: {
            codeSplitting: {
              // Every page needs React, the router and the query client: one chunk instead of several
              // small shared ones, so the first page load waits on fewer requests.
              groups: [
                {
                  name: 'framework',
                  test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|react-query|query-core|store|react-store))[\\/]/,
                },
              ],
            },
          },
        },
      },
}));

/**
 * Writes a Brotli (.br) and a gzip (.gz) file beside every built script, style sheet and SVG; the
 * api (koa-send) serves them to browsers that accept them, so nothing is compressed per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'schlosstreffen:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((file) => /\.(js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await readFile(full);
          if (data.length < 1024) return;
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          };
          await writeFile(`${full}.br`, await brotli(data, { params }));
          await writeFile(`${full}.gz`, await gz(data, { level: 9 }));
        }),
      );
    },
  };
}
