import type { CurrentUser } from './api/account.js';
import type { CarPage, LookBack } from './api/editions.js';
import type { JuryResults } from './api/jury.js';
import { CAR_PAGE } from './car-page.js';
import type { SiteConfig } from './site-config.js';

/**
 * The contract between the api and the server build of the web client
 * (web/src/entry-server.tsx, built to web/dist-server/entry-server.js): the api hands a request of a
 * public page, or of a path no page serves, to `render` and writes the answer into index.html.
 */
export interface WebRenderer {
  render(request: RenderRequest): Promise<RenderResult>;
  /** Whether a route of the web client serves this path; every other path is the not-found page (404). */
  isPage(pathname: string): boolean;
}

export interface RenderRequest {
  /** Path and query of the request, e.g. '/login?redirect=%2Fdashboard'. */
  url: string;
  /**
   * The CSP nonce of this response: the router's hydration scripts carry it. Without one (a page
   * kept for every visitor) the scripts carry none and the page's CSP allows them by their hashes.
   */
  nonce?: string;
  siteConfig: SiteConfig;
  /**
   * How many cars the public list holds now: with none, the landing page is written without the
   * section of confirmed cars (no placeholder that would vanish once the browser asked).
   */
  listedVehicles?: number;
  /** The signed-in user as GET /api/auth/user answers, or null. */
  user: CurrentUser | null;
  /** What the page shows, read by the server for it: 'Rückblick {Jahr}' and its cars (absent: none). */
  lookBack?: LookBack | null;
  /** A car's page (`/fahrzeuge/{Jahr}/{Startnummer}`) and what it shows, read by the server (absent: none). */
  carPage?: CarPage | null;
  /** 'Ergebnisse {Jahr}': the jury's published results, read by the server (null: not published; absent: none). */
  juryResults?: JuryResults | null;
}

export type RenderResult =
  | {
      kind: 'page';
      status: number;
      /** The page's head tags (title, description, canonical link) as the router renders them. */
      head: string;
      /** The page's markup with the router's hydration scripts, for the root element. */
      html: string;
    }
  | { kind: 'redirect'; status: number; location: string };

/**
 * Public pages whose routes read no query (no search schema, no loader depending on it): a visit
 * with one (a link shared with `?fbclid=…` or `?utm_source=…`) gets the same page, so the page kept
 * for visitors who are not signed in answers it. The web client's tests hold its routes to this.
 */
export const PAGES_WITHOUT_QUERY: ReadonlySet<string> = new Set([
  '/',
  '/register',
  '/forgot-password',
  '/impressum',
  '/datenschutz',
]);

/** 'Rückblick {Jahr}': a page per past edition, which reads no query either. */
export const LOOK_BACK_PAGE = /^\/rueckblick\/(\d{4})$/;

/** 'Ergebnisse {Jahr}': the jury's published results of an edition, which reads no query either. */
export const RESULTS_PAGE = /^\/ergebnisse\/(\d{4})$/;

/** Whether a visit to this public page shows the same page whatever its query. */
export const readsNoQuery = (pagePath: string): boolean =>
  PAGES_WITHOUT_QUERY.has(pagePath) ||
  LOOK_BACK_PAGE.test(pagePath) ||
  CAR_PAGE.test(pagePath) ||
  RESULTS_PAGE.test(pagePath);
