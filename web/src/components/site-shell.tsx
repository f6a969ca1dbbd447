import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Page frame shared by every route: fixed header, content (padded below the header), footer. */
export function SiteShell({ children }: { children: ReactNode }) {
  return (
    // overflow-x-clip rather than hidden: it creates no scroll container, so sticky panels keep working.
    <div className="relative isolate flex min-h-dvh flex-col overflow-x-clip bg-night-950">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[36rem] bg-[radial-gradient(ellipse_at_top,rgba(212,168,72,0.16),transparent_65%)]"
      />
      <SiteHeader />
      <main className="flex flex-1 flex-col pt-16 md:pt-20">{children}</main>
      <SiteFooter />
    </div>
  );
}
