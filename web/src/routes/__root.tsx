import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFound } from '../components/not-found';
import { SiteShell } from '../components/site-shell';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  );
}
