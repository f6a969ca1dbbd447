import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants } from 'node:zlib';
import type { S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '@mikro-orm/core';
import type Koa from 'koa';
import compress from 'koa-compress';
import send from 'koa-send';
import {
  CAR_PAGE,
  CURRENT_USER_ELEMENT_ID,
  jsonDataScript,
  LOOK_BACK_PAGE,
  nextPhaseChangeAfter,
  parseCarPagePath,
  readsNoQuery,
  RESULTS_PAGE,
  siteConfigScript,
  type SiteConfig,
  type WebRenderer,
} from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import {
  allowRenderedStyles,
  assignCspNonce,
  cspNonce,
  inlineScriptHashes,
  renderedStyleHashes,
} from './content-security-policy.js';
import { loadUser, type AppState } from './context.js';
import {
  cachedPageHeaders,
  noteBasePolicy,
  PAGE_CODINGS,
  type CachedPage,
  type PageCache,
} from './page-cache.js';
import { ASSET_MAX_AGE_MS, sendStoredAsset } from './web-assets.js';

/**
 * Public pages whose first screen the server renders with its data; the signed-in area and every
 * other client route get index.html and render in the browser.
 */
export const SERVER_RENDERED_PATHS: ReadonlySet<string> = new Set([
  '/',
  '/register',
  '/login',
  '/visitor-registration',
  '/forgot-password',
  '/impressum',
  '/datenschutz',
]);

/**
 * At most this many pages are rendered at once for single visits of visitors who are not signed in
 * (the kept pages aside); further such visits get index.html and render in the browser.
 */
export const ANONYMOUS_RENDERS = 2;

/** Whether the server renders this page's first screen. */
export const isServerRendered = (pagePath: string): boolean =>
  SERVER_RENDERED_PATHS.has(pagePath) ||
  LOOK_BACK_PAGE.test(pagePath) ||
  CAR_PAGE.test(pagePath) ||
  RESULTS_PAGE.test(pagePath);

/**
 * Whether a visit to this address may be answered with the page kept for everyone who is not
 * signed in: a server-rendered page asked for without a query, or with one its route does not read.
 */
export const isKeptPage = (pagePath: string, querystring: string): boolean =>
  isServerRendered(pagePath) && (querystring === '' || readsNoQuery(pagePath));

/** When the page rendered with this site config may read otherwise by the calendar (ms, the app's clock). */
function validUntilOf(site: SiteConfig): number {
  const at = site.now ? new Date(site.now) : new Date();
  const next = nextPhaseChangeAfter(
    {
      applicationsOpenAt:
        site.applicationsOpenAt === undefined
          ? undefined
          : site.applicationsOpenAt === null
            ? null
            : new Date(site.applicationsOpenAt),
      applicationDeadline: site.applicationDeadline,
      startsAt: new Date(site.eventStart),
      endsAt: new Date(site.eventEnd),
      superseded: false,
    },
    at,
  );
  return next ? next.getTime() : Infinity;
}

/**
 * A kept car page also changes when its own meeting ends and at its voting's set moments (voting
 * opens and closes at them to the second), which need not be the current edition's phases.
 */
function carPageValidUntil(page: Api.CarPage, site: SiteConfig): number {
  const at = site.now ? Date.parse(site.now) : Date.now();
  const moments = [page.edition.endsAt, page.award?.opensAt, page.award?.closesAt]
    .filter((moment): moment is string => Boolean(moment))
    .map((moment) => Date.parse(moment))
    .filter((moment) => moment > at);
  return Math.min(validUntilOf(site), ...moments);
}

/** Answers with a kept page: its coding as the browser accepts it, 304 while the browser's copy is it. */
export function sendCachedPage(ctx: Koa.Context, page: CachedPage): void {
  const accepted = ctx.acceptsEncodings(...PAGE_CODINGS);
  const coding = accepted === 'br' || accepted === 'gzip' ? accepted : undefined;
  const policy = ctx.response.get('Content-Security-Policy');
  const [ok, notModified] = cachedPageHeaders(page, coding, policy);
  noteBasePolicy(ctx.res, policy);
  ctx.compress = false;
  ctx.status = 200;
  ctx.set(notModified as Record<string, string>);
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.set(ok as Record<string, string>);
  ctx.body = coding ? page.encoded[coding] : page.body;
}

/**
 * Pages (HTML) go out compressed; built files have their precompressed copies and API answers are
 * small pages or precompressed already. Brotli at a middle level: a 60 KB page takes about a
 * millisecond.
 */
export const compressPages = compress({
  filter: (type) => type.startsWith('text/html'),
  threshold: 1024,
  br: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  gzip: { level: 6 },
  deflate: false,
});

/** Whether a request asks for a web page: not the API, the queue dashboard, a stored object or a file. */
const asksForPage = (ctx: Koa.Context): boolean =>
  (ctx.method === 'GET' || ctx.method === 'HEAD') &&
  !/^\/(api|objects)\/|^\/admin\/queues(\/|$)/.test(ctx.path) &&
  !path.extname(ctx.path);

/**
 * Gives a request for a page its own CSP nonce, before the security headers are written: a public
 * page, and a path no page serves (its not-found page), are rendered on the server.
 */
export const nonceForRenderedPages: Koa.Middleware = async (ctx, next) => {
  if (asksForPage(ctx)) assignCspNonce(ctx.res);
  await next();
};

/** index.html with a rendered page: its head tags before `</head>`, its markup in the root element. */
function fillTemplate(template: string, head: string, html: string): string {
  return template
    .replace('</head>', () => `${head}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
}

/**
 * Serves the built web client: files as they are (precompressed where the build wrote .br/.gz),
 * the public pages rendered on the server (web/dist-server), every other client route index.html.
 * The event facts go into the page as a JSON data block (no script runs); the router's hydration
 * scripts carry the response's CSP nonce. A page that cannot be rendered falls back to index.html,
 * which renders in the browser as before. A path no page serves answers 404 with the not-found page,
 * which no cache keeps.
 */
export function serveWeb(options: {
  root: string;
  /** The site's facts at this request (the current edition's event among them). */
  siteConfig: () => Promise<SiteConfig>;
  /** Production: index.html and the renderer are read once. */
  cache: boolean;
  em: EntityManager;
  /** Whether staff sessions count as signed in only with their second factor (STAFF_SECOND_FACTOR). */
  staffSecondFactor: boolean;
  /** The signed-in user as GET /api/auth/user answers. */
  presentUser: (user: NonNullable<AppState['user']>) => Promise<Api.CurrentUser>;
  log?: (error: unknown) => void;
  /** The look back on an edition, or null when there is none (yet). */
  lookBack?: (year: number) => Promise<Api.LookBack | null>;
  /** A car's page, or null when no confirmed car holds that start number at that meeting. */
  carPage?: (year: number, startNumber: number) => Promise<Api.CarPage | null>;
  /** The jury's published results of an edition, or null before they are published. */
  results?: (year: number) => Promise<Api.JuryResults | null>;
  /** The pages kept for visitors who are not signed in; without it every visit renders. */
  pages?: PageCache;
  /** How many cars the current edition's public list holds (the landing page leaves out an empty section). */
  listedVehicles?: () => Promise<number>;
  /** The bucket holding every release's hashed assets, asked for those this build lacks. */
  storedAssets?: { s3: S3Client; bucket: string };
}): Koa.Middleware<AppState> {
  const { root, siteConfig, cache, em, presentUser } = options;
  const serverBuild = path.join(root, '..', 'dist-server', 'entry-server.js');
  let index: Promise<string | null> | undefined;
  let renderer: Promise<WebRenderer> | undefined;
  const loadIndex = () => readFile(path.join(root, 'index.html'), 'utf8').catch(() => null);
  // Outside production a rebuilt module is loaded again (its modification time names it).
  let loadedAt = 0;
  const loadRenderer = async (): Promise<WebRenderer | null> => {
    if (cache && renderer) return renderer;
    const modified = await stat(serverBuild).then(
      (info) => info.mtimeMs,
      () => null,
    );
    if (modified === null) return null;
    if (!renderer || (!cache && modified !== loadedAt)) {
      loadedAt = modified;
      renderer = import(`${pathToFileURL(serverBuild).href}?v=${modified}`) as Promise<WebRenderer>;
    }
    return renderer;
  };
  const readUser = loadUser(em, { staffSecondFactor: options.staffSecondFactor });
  const readIndex = () => (cache ? (index ??= loadIndex()) : loadIndex());
  const withSiteConfig = (stored: string, site: SiteConfig) =>
    stored.replace('</head>', () => `${siteConfigScript(site)}</head>`);
  const { pages } = options;
  /**
   * What a page shows that the server reads for it: a look back, a car's page, the jury's results
   * (null: there is none).
   */
  const pageData = async (pagePath: string) => {
    const lookBackYear = LOOK_BACK_PAGE.exec(pagePath)?.[1];
    const lookBack =
      lookBackYear && options.lookBack ? await options.lookBack(Number(lookBackYear)) : undefined;
    const car = parseCarPagePath(pagePath);
    const carPage = car && options.carPage ? await options.carPage(car.year, car.startNumber) : undefined;
    const resultsYear = RESULTS_PAGE.exec(pagePath)?.[1];
    const juryResults =
      resultsYear && options.results ? await options.results(Number(resultsYear)) : undefined;
    return { lookBack, carPage, juryResults };
  };
  /** Renders for visitors who are not signed in, running now (each is a few milliseconds of CPU). */
  let anonymousRenders = 0;
  /**
   * Whether a renderer is built; tells the kept pages which build they belong to (outside
   * production a rebuild replaces them).
   */
  const currentBuild = async (): Promise<boolean> => {
    const web = await loadRenderer();
    if (!web || !pages) return false;
    pages.build = cache ? 'production' : String(loadedAt);
    return true;
  };
  if (!cache) pages?.checkBuildWith(async () => ((await currentBuild()) ? String(loadedAt) : null));
  // A kept page: rendered for nobody in particular, without a nonce (its inline scripts are
  // allowed by their hashes), the router's redirects and 404s not kept.
  pages?.renderWith(async (pagePath) => {
    const stored = await readIndex();
    const web = await loadRenderer();
    if (stored === null || !web) return null;
    const site = await siteConfig();
    // A year or start number nothing is shown for is not kept: unknown paths take no room.
    const { lookBack, carPage, juryResults } = await pageData(pagePath);
    if (lookBack === null || carPage === null || juryResults === null) return null;
    const listedVehicles = pagePath === '/' ? await options.listedVehicles?.() : undefined;
    const result = await web.render({
      url: pagePath,
      siteConfig: site,
      user: null,
      lookBack,
      carPage,
      juryResults,
      listedVehicles,
    });
    if (result.kind !== 'page' || result.status !== 200) return null;
    const html = fillTemplate(withSiteConfig(stored, site), result.head, result.html);
    return {
      html,
      hashes: { scripts: inlineScriptHashes(html), styles: renderedStyleHashes(result.html) },
      validFrom: site.now ? Date.parse(site.now) : -Infinity,
      validUntil: carPage ? carPageValidUntil(carPage, site) : validUntilOf(site),
    };
  });

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path.startsWith('/objects/')) return next();
    const file = ctx.path.replace(/^\/+/, '');
    if (file && file !== 'index.html' && path.extname(file)) {
      // koa-send picks the build's .br or .gz beside the file when the browser accepts it.
      ctx.vary('Accept-Encoding');
      const asset = file.startsWith('assets/');
      const served = await send(ctx, file, {
        root,
        maxage: asset ? ASSET_MAX_AGE_MS : 0,
        immutable: asset,
        // Per representation (the .br or .gz beside the file has its own size and time).
        setHeaders: (res, _file, stats) =>
          res.setHeader('ETag', `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`),
      }).catch(() => undefined);
      if (served) {
        if (ctx.fresh) ctx.status = 304;
        return;
      }
      // A chunk of another release (a page loaded before or during a deploy): from the bucket.
      const { storedAssets } = options;
      if (asset && storedAssets) {
        const name = file.slice('assets/'.length);
        if (await sendStoredAsset(ctx, storedAssets.s3, storedAssets.bucket, name)) return;
      }
      return next();
    }
    // Outside production every request reads the files again, so a rebuilt client shows at once.
    const stored = await readIndex();
    if (stored === null) {
      index = undefined;
      return next();
    }

    // The check-in and the jury's pages are kept by the service worker for offline use: a copy must
    // not keep the user signed in after logout, so it carries no user and asks the API as before.
    const keptOffline =
      ctx.path.startsWith('/admin/check-in') || ctx.path === '/jury' || ctx.path.startsWith('/jury/');
    const user = keptOffline
      ? null
      : await RequestContext.create(em, async () => {
          await readUser(ctx, async () => {});
          return ctx.state.user ? await presentUser(ctx.state.user) : null;
        });
    // The page differs for a signed-in visitor (header, redirects, the user block): one that names
    // the user is kept by no cache, not even the browser's; anonymous pages are revalidated.
    ctx.vary('Cookie');
    ctx.set('Cache-Control', user ? 'private, no-store' : 'no-cache');

    // Not signed in: the page kept for everyone, rendered once per change.
    if (!user && pages && isKeptPage(ctx.path, ctx.querystring) && (await currentBuild())) {
      const page = await pages.get(ctx.path);
      if (page) {
        sendCachedPage(ctx, page);
        return;
      }
    }

    const site = await siteConfig();
    const template = withSiteConfig(stored, site);
    ctx.type = 'html';

    const nonce = cspNonce(ctx.res);
    const web = nonce ? await loadRenderer() : null;
    // A path no page serves: the not-found page, as 404 (no soft 404 a search engine would index),
    // which no cache keeps as that address's page.
    const unknown = web !== null && !isServerRendered(ctx.path) && !web.isPage(ctx.path);
    if (unknown) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
    }
    // Not signed in and not kept (a query the page reads, a path no page serves): rendered for this
    // visit only while few such renders run; beyond that the browser renders it from index.html,
    // so a flood of such visits costs the server no rendering and the gate's requests never wait
    // behind it.
    const admitted = user !== null || anonymousRenders < ANONYMOUS_RENDERS;
    if (nonce && (isServerRendered(ctx.path) || unknown) && !admitted) ctx.set('X-Rendered-By', 'browser');
    if (nonce && (isServerRendered(ctx.path) || unknown) && admitted) {
      if (web) {
        if (!user) anonymousRenders += 1;
        try {
          const { lookBack, carPage, juryResults } = await pageData(ctx.path);
          const listedVehicles = ctx.path === '/' ? await options.listedVehicles?.() : undefined;
          const result = await web.render({
            url: ctx.url,
            nonce,
            siteConfig: site,
            user,
            lookBack,
            carPage,
            juryResults,
            listedVehicles,
          });
          if (result.kind === 'redirect') {
            ctx.status = result.status;
            ctx.redirect(result.location);
            return;
          }
          ctx.status = result.status;
          ctx.body = fillTemplate(template, result.head, result.html);
          const csp = ctx.response.get('Content-Security-Policy');
          if (csp) ctx.set('Content-Security-Policy', allowRenderedStyles(csp, result.html));
          return;
        } catch (error) {
          options.log?.(error);
        } finally {
          if (!user) anonymousRenders -= 1;
        }
      }
    }
    ctx.body = keptOffline
      ? template
      : template.replace('</head>', () => `${jsonDataScript(CURRENT_USER_ELEMENT_ID, user)}</head>`);
  };
}
