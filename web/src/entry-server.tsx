/**
 * Server rendering of the public pages: the api imports the build of this module and renders a
 * page's first screen with its data (the current user, the event facts) into index.html; the
 * browser hydrates it (main.tsx). TanStack Router's request handler loads the route, dehydrates the
 * router and the query cache into nonce-bound scripts and renders to a string.
 */
import type { SiteConfig } from '@schlosstreffen/shared';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import { createRequestHandler, renderRouterToString, RouterServer } from '@tanstack/react-router/ssr/server';
import { currentUserQueryOptions } from './lib/current-user';
import { createQueryClient } from './lib/query-client';
import { RENDERED_AT_KEY } from './lib/rendered-at';
import { setServerSiteConfig } from './lib/site-config';
import { DocumentMetaContext, type DocumentMeta } from './lib/use-document-meta';
import { createAppRouter } from './router';

export interface RenderInput {
  /** Path and query of the request, e.g. '/login?redirect=%2Fdashboard'. */
  url: string;
  /** The CSP nonce of this response. */
  nonce: string;
  siteConfig: SiteConfig;
  /** The signed-in user as GET /api/auth/user answers, or null. */
  user: CurrentUser | null;
}

export type RenderResult =
  | { kind: 'page'; status: number; html: string; meta: DocumentMeta }
  | { kind: 'redirect'; status: number; location: string };

export async function render({ url, nonce, siteConfig, user }: RenderInput): Promise<RenderResult> {
  setServerSiteConfig(siteConfig);
  const queryClient = createQueryClient();
  queryClient.setQueryData(currentUserQueryOptions.queryKey, user);
  queryClient.setQueryData(RENDERED_AT_KEY, Date.now());
  const meta: DocumentMeta = {};
  const request = new Request(new URL(url, siteConfig.publicUrl || 'http://localhost'));
  const handler = createRequestHandler({
    request,
    createRouter: () => createAppRouter({ queryClient, nonce }),
  });
  const response = await handler(({ router, responseHeaders }) =>
    renderRouterToString({
      router,
      responseHeaders,
      children: (
        <DocumentMetaContext.Provider value={meta}>
          <RouterServer router={router} />
        </DocumentMetaContext.Provider>
      ),
    }),
  );
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    return { kind: 'redirect', status: response.status, location };
  }
  const html = (await response.text()).replace(/^<!DOCTYPE html>/i, '');
  return { kind: 'page', status: response.status, html, meta };
}
