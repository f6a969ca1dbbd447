import { HEADER_SCROLL_THRESHOLD_PX, isStaffRole } from '@schlosstreffen/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  currentUserQueryOptions,
  runSignOutCleanups,
  useCurrentUser,
  userDisplayName,
} from '../lib/current-user';
import {
  CastleMark,
  CloseIcon,
  LoginIcon,
  LogoutIcon,
  MenuIcon,
  ProfileIcon,
  ShieldIcon,
  UserIcon,
} from './icons';
import { PrimaryActionLink, useCallToAction, VISITOR_LABEL } from './call-to-action';
import { SocialLinks } from './social-links';
import { api } from '../lib/api';
import { LOGOUT_NOTICE_KEY } from '../lib/logout-notice';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import { buttonClass } from './ui/button';
import { notify } from './ui/toaster';

/** Indirection so tests can observe the reload after logout. */
export const browserPage = {
  reload: () => window.location.reload(),
};

const LOGOUT_TITLE = 'Erfolgreich abgemeldet';
const LOGOUT_TEXT = 'Bis bald!';

/** True once the window is scrolled further than `threshold` pixels. */
function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    // Read at the next frame: reading scrollY during the first commit would force the page's
    // first layout inside the render task.
    const frame = requestAnimationFrame(update);
    window.addEventListener('scroll', update, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
    };
  }, [threshold]);
  return scrolled;
}

/** POST /api/auth/logout; on success: toast, go to /, reload, so no signed-in state survives. */
function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/auth/logout', {}),
    onSuccess: async () => {
      notify.success(LOGOUT_TITLE, LOGOUT_TEXT);
      try {
        sessionStorage.setItem(LOGOUT_NOTICE_KEY, '1');
      } catch {
        // Storage unavailable (private mode): the toast just does not survive the reload.
      }
      queryClient.setQueryData(currentUserQueryOptions.queryKey, null);
      // What a feature keeps on the device (a gate's list of the event's cars) goes with the user.
      await runSignOutCleanups();
      await navigate({ to: '/' });
      browserPage.reload();
    },
    onError: (error) => notify.error('Fehler beim Abmelden', error),
  });
}

function useLogoutNoticeAfterReload() {
  useEffect(() => {
    try {
      if (sessionStorage.getItem(LOGOUT_NOTICE_KEY) === null) return;
      sessionStorage.removeItem(LOGOUT_NOTICE_KEY);
    } catch {
      return;
    }
    notify.success(LOGOUT_TITLE, LOGOUT_TEXT);
  }, []);
}

const iconButtonClass =
  'inline-flex size-10 items-center justify-center rounded-full border border-gold-500/30 text-gold-200 transition-colors hover:border-gold-400 hover:bg-gold-500/10 disabled:cursor-wait disabled:opacity-60';

function Wordmark() {
  return (
    <Link
      to="/"
      aria-label="Schlosstreffen – zur Startseite"
      className="group flex items-center gap-2.5 rounded-md text-gold-300 transition-colors hover:text-gold-200"
    >
      <span className="flex size-9 items-center justify-center rounded-full border border-gold-500/40 bg-night-900/60 transition-colors group-hover:border-gold-400">
        <CastleMark className="size-5" />
      </span>
      <span className="font-display text-lg tracking-[0.22em] uppercase sm:text-xl">Schlosstreffen</span>
    </Link>
  );
}

/** Wide screens: the signed-in user's dashboard button and logout icon, or the login icon. */
function DesktopAccount({
  user,
  pending,
  onLogout,
  loggingOut,
}: {
  user: CurrentUser | null | undefined;
  pending: boolean;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  // Nothing while the session is being checked, so no login icon flashes for signed-in users.
  if (pending) return <span aria-hidden="true" className="size-10" />;
  if (!user) {
    return (
      <Link to="/login" aria-label="Anmelden" title="Anmelden" className={iconButtonClass}>
        <LoginIcon />
      </Link>
    );
  }
  return (
    <>
      {isStaffRole(user.role) ? (
        <Link
          to={user.role === 'reviewer' ? '/admin/pruefungen' : '/admin/dashboard'}
          className={buttonClass('ghost', 'px-4')}
        >
          <ShieldIcon className="size-4" />
          Admin
        </Link>
      ) : null}
      {user.judge ? (
        <Link to="/jury" className={buttonClass('ghost', 'px-4')}>
          Jury
        </Link>
      ) : null}
      <Link to="/dashboard" title="Zum Dashboard" className={buttonClass('secondary', 'max-w-48 px-4')}>
        <UserIcon className="size-4 shrink-0" />
        <span className="truncate">{userDisplayName(user)}</span>
      </Link>
      <Link to="/profile" aria-label="Mein Profil" title="Mein Profil" className={iconButtonClass}>
        <ProfileIcon />
      </Link>
      <button
        type="button"
        aria-label="Abmelden"
        title="Abmelden"
        onClick={onLogout}
        disabled={loggingOut}
        aria-busy={loggingOut || undefined}
        className={iconButtonClass}
      >
        <LogoutIcon />
      </button>
    </>
  );
}

function MenuSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs tracking-[0.25em] text-ash-400 uppercase">{title}</p>
      {children}
    </div>
  );
}

/**
 * Fixed site header on every page: transparent at the top, blurred and opaque once the page
 * is scrolled past 50 px. Small screens get a toggle menu with the social links, the two calls to
 * action and the account links; wide screens show the account button or the login icon directly.
 */
export function SiteHeader() {
  const scrolled = useScrolledPast(HEADER_SCROLL_THRESHOLD_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  const { data: user, isPending } = useCurrentUser();
  const cta = useCallToAction();
  const logout = useLogout();
  useLogoutNoticeAfterReload();

  const menuId = useId();
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const closeMenu = useCallback((restoreFocus: boolean) => {
    setMenuOpen(false);
    if (restoreFocus) toggleRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!menuOpen) return undefined;
    menuRef.current?.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        closeMenu(true);
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) closeMenu(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [menuOpen, closeMenu]);

  const background = menuOpen
    ? 'border-gold-500/15 bg-night-950/95 shadow-lg shadow-black/40 backdrop-blur-md'
    : scrolled
      ? 'border-gold-500/15 bg-night-950/85 shadow-lg shadow-black/40 backdrop-blur-md'
      : 'border-transparent bg-transparent';
  const startLogout = () => logout.mutate();

  return (
    <>
      {/* Outside the header: its backdrop filter would make it the containing block of a fixed child. */}
      {menuOpen ? (
        <div aria-hidden="true" className="fixed inset-0 z-30 bg-black/65 backdrop-blur-[2px] md:hidden" />
      ) : null}
      <header
        ref={headerRef}
        data-scrolled={scrolled}
        className={`fixed inset-x-0 top-0 z-40 border-b transition-[background-color,border-color,box-shadow,backdrop-filter] duration-300 ${background}`}
      >
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5 sm:px-6 md:h-20">
          <Wordmark />

          <nav aria-label="Hauptnavigation" className="hidden items-center gap-2 md:flex">
            <Link
              to="/"
              hash="faq"
              className="hidden rounded-full px-3 py-2 text-sm text-ash-300 transition-colors hover:text-parchment lg:inline-flex"
            >
              FAQ
            </Link>
            {cta.visitorAside ? (
              <Link
                to="/visitor-registration"
                className="hidden rounded-full px-3 py-2 text-sm text-ash-300 transition-colors hover:text-parchment lg:inline-flex"
              >
                {VISITOR_LABEL}
              </Link>
            ) : null}
            {cta.note ? <span className="hidden px-3 text-sm text-ash-300 xl:inline">{cta.note}</span> : null}
            <PrimaryActionLink action={cta.primary} className={buttonClass('primary', 'mr-1 px-4')} />
            <DesktopAccount
              user={user}
              pending={isPending}
              onLogout={startLogout}
              loggingOut={logout.isPending}
            />
          </nav>

          <button
            ref={toggleRef}
            type="button"
            aria-label="Menü"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
            className={`${iconButtonClass} md:hidden`}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>

        {menuOpen ? (
          <div
            ref={menuRef}
            id={menuId}
            className="relative max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-gold-500/15 md:hidden"
            onClick={(event) => {
              if ((event.target as HTMLElement).closest('a')) closeMenu(false);
            }}
          >
            <nav aria-label="Menü" className="mx-auto flex max-w-6xl flex-col gap-7 px-5 pt-6 pb-8">
              <div className="flex flex-col gap-3">
                {cta.note ? <p className="text-sm text-ash-300">{cta.note}</p> : null}
                <PrimaryActionLink action={cta.primary} className={buttonClass('primary', 'w-full py-3')} />
                {cta.visitorAside ? (
                  <Link to="/visitor-registration" className={buttonClass('secondary', 'w-full py-3')}>
                    {VISITOR_LABEL}
                  </Link>
                ) : null}
              </div>

              <MenuSection title="Konto">
                {isPending ? null : user ? (
                  <>
                    <p className="text-sm text-ash-300">
                      Angemeldet als{' '}
                      <span className="font-semibold text-parchment">{userDisplayName(user)}</span>
                    </p>
                    <div className="grid grid-cols-2 gap-3">
                      <Link to="/dashboard" className={buttonClass('secondary', 'w-full')}>
                        <UserIcon className="size-4" />
                        Dashboard
                      </Link>
                      <Link to="/profile" className={buttonClass('secondary', 'w-full')}>
                        <ProfileIcon className="size-4" />
                        Mein Profil
                      </Link>
                      {isStaffRole(user.role) ? (
                        <Link
                          to={user.role === 'reviewer' ? '/admin/pruefungen' : '/admin/dashboard'}
                          className={buttonClass('ghost', 'col-span-2 w-full border border-white/10')}
                        >
                          <ShieldIcon className="size-4" />
                          Admin
                        </Link>
                      ) : null}
                      {user.judge ? (
                        <Link
                          to="/jury"
                          className={buttonClass('ghost', 'col-span-2 w-full border border-white/10')}
                        >
                          Jury
                        </Link>
                      ) : null}
                      <button
                        type="button"
                        onClick={startLogout}
                        disabled={logout.isPending}
                        aria-busy={logout.isPending || undefined}
                        className={buttonClass('ghost', 'col-span-2 w-full border border-white/10')}
                      >
                        <LogoutIcon className="size-4" />
                        Abmelden
                      </button>
                    </div>
                  </>
                ) : (
                  <Link to="/login" className={buttonClass('ghost', 'w-full border border-white/10')}>
                    <LoginIcon className="size-4" />
                    Anmelden
                  </Link>
                )}
              </MenuSection>

              <MenuSection title="Folge uns">
                <SocialLinks
                  className="grid grid-cols-2 gap-3"
                  linkClassName="flex items-center gap-2.5 rounded-xl border border-white/10 bg-night-900/70 px-3.5 py-3 text-sm text-ash-300 transition-colors hover:border-gold-500/40 hover:text-parchment"
                  iconClassName="size-5 text-gold-300"
                />
              </MenuSection>
            </nav>
          </div>
        ) : null}
      </header>
    </>
  );
}
