/**
 * The service worker's cache of the ticket pages: each page the holder opened is kept under its own
 * address, so it opens again without network. The Workbox route (vite.config.ts) reads the name and
 * the prefix; the page puts itself into the cache on its first visit, since the worker only sees the
 * navigations after that.
 */
export const VISITOR_TICKET_PAGE_CACHE = 'visitor-ticket-page';

/** The addresses of the ticket pages (and of their 'zurückgeben' pages). */
export const VISITOR_TICKET_PATH_PREFIX = '/besucherticket/';
