import { createRootRouteWithContext, HeadContent, Outlet, Scripts, useRouter } from '@tanstack/react-router';
import { NotFound } from '../components/not-found';
import { SiteShell } from '../components/site-shell';
import { AppToaster } from '../components/ui/toaster';
import { pageHead } from '../lib/page-head';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  // Every page's title and description come from its route's `head()`; the root's is the
  // not-found page's, shown when no route matches.
  head: ({ match }) =>
    match._notFound
      ? pageHead(
          '404 Page Not Found – Schlosstreffen',
          'Diese Seite gibt es nicht. Zurück zur Startseite des Schlosstreffens.',
        )
      : {},
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  const router = useRouter();
  return (
    <>
      {/* The page's head tags, kept up to date in the browser (React places them in the document's
          head). The server renders them into the head of index.html itself (entry-server.tsx). */}
      {router.isServer ? null : <HeadContent />}
      <SiteShell>
        <Outlet />
        <AppToaster />
      </SiteShell>
      {/* Server-rendered pages: the router's hydration data (nonce-bound; the scripts remove
          themselves before the app hydrates). Renders nothing in the browser. */}
      <Scripts />
    </>
  );
}
