import { Link, Outlet } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { SKIP_TARGET } from '../../components/site-shell';
import { notify } from '../../components/ui/toaster';
import { useCurrentUser } from '../../lib/current-user';
import { ACCESS_DENIED, mayAccess } from './admin-access';
import { AdminNav } from './admin-nav';
import { EditionSwitch, useChosenEdition } from './edition-switch';

/**
 * Users who are neither admin nor reviewer: 'Zugriff verweigert' on the page and as a toast, and
 * no admin API call (the routes' `head()` gives the page that title).
 */
function AccessDenied() {
  useEffect(() => {
    notify.error(ACCESS_DENIED.title, undefined, ACCESS_DENIED.text);
  }, []);
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-6 py-24 text-center">
      <div className="rounded-2xl border border-red-500/30 bg-night-900/80 p-8">
        <h1 className="font-display text-3xl text-parchment">{ACCESS_DENIED.title}</h1>
        <p className="mt-4 text-ash-300">{ACCESS_DENIED.text}</p>
        <Link
          to="/"
          className="mt-8 inline-flex rounded-full border border-gold-500/40 px-6 py-2.5 text-sm font-semibold text-gold-200 hover:border-gold-400 hover:bg-gold-500/10"
        >
          Zur Startseite
        </Link>
      </div>
    </section>
  );
}

/**
 * The admin area's frame: staff only (others see 'Zugriff verweigert'), its menu in groups (a side
 * column on wide screens, a menu button on narrow ones), the edition switch above every screen.
 * Quartett exports, visitors, retention and the queue dashboard are for admins only.
 */
export function AdminLayout() {
  const { data: user } = useCurrentUser();
  const edition = useChosenEdition();
  if (!user || !mayAccess(user.role, 'staff')) return <AccessDenied />;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 lg:flex-row lg:gap-10">
      <AdminNav role={user.role} />
      {/* 'Zum Inhalt springen' leads here, past the menu. */}
      <div {...SKIP_TARGET} className="flex min-w-0 flex-1 flex-col outline-none">
        <EditionSwitch />
        {/* A screen of another edition starts afresh: its lists, forms and downloads are that edition's. */}
        <div key={edition ?? 'current'} className="flex flex-1 flex-col">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

/** For admin-only screens inside the staff area. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  if (!user || !mayAccess(user.role, 'admin')) return <AccessDenied />;
  return <>{children}</>;
}
