import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** Page frame shared by every route: header with the wordmark, content, footer. */
export function SiteShell({ children }: { children: ReactNode }) {
  return (
    <div className="relative isolate flex min-h-dvh flex-col overflow-hidden bg-night-950">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[36rem] bg-[radial-gradient(ellipse_at_top,rgba(212,168,72,0.16),transparent_65%)]"
      />
      <header className="border-b border-gold-500/10">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-5">
          <Link
            to="/"
            className="font-display text-xl tracking-[0.2em] text-gold-300 uppercase transition-colors hover:text-gold-200"
          >
            Schlosstreffen
          </Link>
          <span className="hidden text-xs tracking-[0.3em] text-ash-400 uppercase sm:inline">
            Tuning-Treffen am Schloss
          </span>
        </div>
      </header>
      <main className="flex flex-1 flex-col">{children}</main>
      <footer className="border-t border-gold-500/10">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-6 py-8 text-sm text-ash-400 sm:flex-row sm:justify-between">
          <span>© 2026 Schlosstreffen</span>
          <span>Historisches Schloss · Sachsen</span>
        </div>
      </footer>
    </div>
  );
}
