/**
 * The service worker's cache of the check-in page: the Workbox route (vite.config.ts) reads it,
 * the page fills it on its first visit, since the worker only sees the navigations after that.
 */
export const GATE_PAGE_CACHE = 'gate-page';
