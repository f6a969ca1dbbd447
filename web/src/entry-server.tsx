/**
 * Server rendering of the public pages: the api imports the build of this module (the
 * `WebRenderer` of @schlosstreffen/shared) and writes a page's first screen with its data (the
 * current user, the event facts) into index.html; the browser hydrates it (main.tsx). TanStack
 * Router's request handler loads the route and dehydrates the router with the query cache (the
 * Router–Query integration, router.tsx) into nonce-bound scripts; the page renders to a string and
 * the routes' `head()` (title, description, canonical link) with `<HeadContent />`. A path no route
 * serves renders the not-found page with status 404.
 */
import type { RenderRequest, RenderResult, WebRenderer } from '@schlosstreffen/shared';
import { createMemoryHistory, HeadContent, RouterContextProvider } from '@tanstack/react-router';
import { createRequestHandler, renderRouterToString, RouterServer } from '@tanstack/react-router/ssr/server';
import { renderToString } from 'react-dom/server';
import { carPageQueryOptions } from './features/car-page/car-page-queries';
import { lookBackQueryOptions } from './features/look-back/look-back-queries';
import { resultsQueryOptions } from './features/results/results-queries';
import { publicVehiclesQueryOptions } from './features/vehicles/vehicle-queries';
import { currentUserQueryOptions } from './lib/current-user';
import { createQueryClient } from './lib/query-client';
import { setServerSiteConfig } from './lib/site-config';
import { createAppRouter } from './router';

export const render: WebRenderer['render'] = async ({
  url,
  nonce,
  siteConfig,
  user,
  lookBack,
  carPage,
  juryResults,
  listedVehicles,
}: RenderRequest): Promise<RenderResult> => {
  setServerSiteConfig(siteConfig);
  const queryClient = createQueryClient();
  queryClient.setQueryData(currentUserQueryOptions.queryKey, user);
  if (lookBack) queryClient.setQueryData(lookBackQueryOptions(lookBack.edition.year).queryKey, lookBack);
  if (carPage)
    queryClient.setQueryData(
      carPageQueryOptions(carPage.edition.year, carPage.startNumber).queryKey,
      carPage,
    );
  if (juryResults)
    queryClient.setQueryData(resultsQueryOptions(juryResults.edition.year).queryKey, juryResults);
  // No confirmed car yet: the landing page knows it without asking (the list travels dehydrated).
  if (listedVehicles === 0) queryClient.setQueryData(publicVehiclesQueryOptions.queryKey, []);
  const request = new Request(new URL(url, siteConfig.publicUrl || 'http://localhost'));
  const handler = createRequestHandler({
    request,
    createRouter: () => createAppRouter({ queryClient, nonce }),
  });
  let head = '';
  const response = await handler(({ router, responseHeaders }) => {
    // The loaded route's head tags, for the document's head (React would put them at the start of
    // the page's markup, which goes into the root element).
    head = renderToString(
      <RouterContextProvider router={router}>
        <HeadContent />
      </RouterContextProvider>,
    );
    return renderRouterToString({ router, responseHeaders, children: <RouterServer router={router} /> });
  });
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    return { kind: 'redirect', status: response.status, location };
  }
  const html = (await response.text()).replace(/^<!DOCTYPE html>/i, '');
  return { kind: 'page', status: response.status, head, html };
};

/** A router that only matches paths (it loads and renders nothing). */
let matcher: ReturnType<typeof createAppRouter> | undefined;

export const isPage: WebRenderer['isPage'] = (pathname) => {
  matcher ??= createAppRouter({ queryClient: createQueryClient(), history: createMemoryHistory() });
  return !matcher.matchRoutes(pathname, {}).some((match) => match._notFound);
};
