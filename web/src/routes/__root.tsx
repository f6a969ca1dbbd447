import { createRootRouteWithContext, Outlet, Scripts } from '@tanstack/react-router';
import { NotFound } from '../components/not-found';
import { SiteShell } from '../components/site-shell';
import { AppToaster } from '../components/ui/toaster';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <>
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
