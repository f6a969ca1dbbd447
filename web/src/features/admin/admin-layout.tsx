import { Link, Outlet } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { notify } from '../../components/ui/toaster';
import { useCurrentUser } from '../../lib/current-user';
import { ACCESS_DENIED, mayAccess } from './admin-access';
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

const navLinkClass =
  'shrink-0 rounded-full px-4 py-2 text-sm font-medium text-ash-300 transition-colors hover:bg-white/5 hover:text-parchment data-[status=active]:bg-gold-500/15 data-[status=active]:text-gold-200';

function NavLink({
  to,
  children,
}: {
  to:
    | '/admin/dashboard'
    | '/admin/pruefungen'
    | '/admin/pruefung'
    | '/admin/check-in'
    | '/admin/einlass'
    | '/admin/quartett'
    | '/admin/besucher'
    | '/admin/besucher-updates'
    | '/admin/ausgaben'
    | '/admin/texte'
    | '/admin/mail-vorlagen'
    | '/admin/datenschutz'
    | '/admin/protokoll'
    | '/admin/team';
  children: ReactNode;
}) {
  return (
    <Link to={to} className={navLinkClass} activeProps={{ 'aria-current': 'page' }}>
      {children}
    </Link>
  );
}

/**
 * The admin area's frame: staff only (others see 'Zugriff verweigert'), a navigation between its
 * screens; quartett exports, visitors, retention and the queue dashboard are for admins only.
 */
export function AdminLayout() {
  const { data: user } = useCurrentUser();
  const edition = useChosenEdition();
  if (!user || !mayAccess(user.role, 'staff')) return <AccessDenied />;
  const isAdmin = user.role === 'admin';
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6">
      <nav aria-label="Adminbereich" className="-mx-1 mb-8 flex gap-1 overflow-x-auto px-1 pb-1">
        <NavLink to="/admin/pruefungen">Meine Prüfungen</NavLink>
        <NavLink to="/admin/dashboard">Bewerbungen</NavLink>
        <NavLink to="/admin/check-in">Check-in</NavLink>
        <NavLink to="/admin/einlass">Einlass</NavLink>
        {isAdmin ? (
          <>
            <NavLink to="/admin/quartett">Auto-Quartett</NavLink>
            <NavLink to="/admin/besucher">Besucher</NavLink>
            <NavLink to="/admin/besucher-updates">Besucher-Updates</NavLink>
            <NavLink to="/admin/pruefung">Prüfung</NavLink>
            <NavLink to="/admin/ausgaben">Ausgaben</NavLink>
            <NavLink to="/admin/texte">Texte</NavLink>
            <NavLink to="/admin/mail-vorlagen">E-Mail-Vorlagen</NavLink>
            <NavLink to="/admin/team">Team</NavLink>
            <NavLink to="/admin/datenschutz">Datenschutz</NavLink>
            <NavLink to="/admin/protokoll">Protokoll</NavLink>
            {/* Served by the API (bull-board), so a full page load, not a client route. */}
            <a href="/admin/queues" className={navLinkClass}>
              Warteschlangen
            </a>
          </>
        ) : null}
      </nav>
      <EditionSwitch />
      {/* A screen of another edition starts afresh: its lists, forms and downloads are that edition's. */}
      <div key={edition ?? 'current'} className="flex flex-1 flex-col">
        <Outlet />
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
