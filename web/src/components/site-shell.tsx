import type { MouseEvent, ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** The id of every page's one `main` landmark, the target of 'Zum Inhalt springen'. */
export const MAIN_CONTENT_ID = 'inhalt';

/**
 * For the content of a page that opens with a menu of its own inside `main` (the admin area's):
 * 'Zum Inhalt springen' leads past that menu to it. Focusable by script only.
 */
export const SKIP_TARGET = { 'data-skip-target': '', tabIndex: -1 } as const;

/**
 * The first Tab stop of every page, visible once focused: moves the focus past header and menus to
 * the page's content (without the router seeing a new address).
 */
function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    (main.querySelector<HTMLElement>('[data-skip-target]') ?? main).focus();
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="sr-only rounded-full bg-gold-500 text-sm font-semibold text-night-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-5 focus:py-2.5"
    >
      Zum Inhalt springen
    </a>
  );
}

/** Page frame shared by every route: skip link, fixed header, content (padded below the header), footer. */
export function SiteShell({ children }: { children: ReactNode }) {
  return (
    // overflow-x-clip rather than hidden: it creates no scroll container, so sticky panels keep working.
    <div className="relative isolate flex min-h-dvh flex-col overflow-x-clip bg-night-950">
      <SkipLink />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[36rem] bg-[radial-gradient(ellipse_at_top,rgba(212,168,72,0.16),transparent_65%)]"
      />
      <SiteHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col pt-16 outline-none md:pt-20">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
