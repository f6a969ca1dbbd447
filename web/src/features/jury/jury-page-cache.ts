/**
 * The service worker's cache of the jury's page: every jury address is the same page (the browser
 * renders it), so one copy, kept under '/jury', opens them all offline. The Workbox route
 * (vite.config.ts) reads the name; the screens fill it on their first visit, since the worker only
 * sees the navigations after that.
 */
export const JURY_PAGE_CACHE = 'jury-page';

/** The one address the jury's page is kept under. */
export const JURY_PAGE_PATH = '/jury';
