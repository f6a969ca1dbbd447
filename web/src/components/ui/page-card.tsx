import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { XMarkIcon } from './icons';

const WIDTHS = {
  sm: 'max-w-md',
  md: 'max-w-xl',
  lg: 'max-w-3xl',
  xl: 'max-w-5xl',
} as const;

/** The round close button in a card's corner: a link back, to '/' or '/login' as the page sets it. */
export function CloseLink({
  to,
  label = 'Schließen',
}: {
  to: '/' | '/login' | '/dashboard';
  label?: string;
}) {
  return (
    <Link
      to={to}
      aria-label={label}
      title={label}
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-full border border-white/10 text-ash-300 transition-colors hover:border-gold-400/60 hover:text-parchment"
    >
      <XMarkIcon className="size-4" />
    </Link>
  );
}

/**
 * A page that is one card (forms such as login, register, visitor registration, the wizard): the
 * page's h1, an optional lead text, a close button to `closeTo`, then the content.
 */
export function PageCard({
  title,
  description,
  closeTo,
  width = 'sm',
  children,
  footer,
}: {
  title: ReactNode;
  description?: ReactNode;
  closeTo?: '/' | '/login' | '/dashboard';
  width?: keyof typeof WIDTHS;
  children: ReactNode;
  /** Under the card, e.g. 'Noch kein Konto? Registrieren'. */
  footer?: ReactNode;
}) {
  return (
    <section
      className={`mx-auto flex w-full ${WIDTHS[width]} flex-1 flex-col justify-center px-4 py-10 sm:px-6 sm:py-16`}
    >
      <div className="rounded-2xl border border-white/10 bg-night-900/80 p-6 shadow-2xl shadow-black/40 backdrop-blur sm:p-8">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="font-display text-3xl text-parchment">{title}</h1>
            {description ? <p className="mt-2 text-sm text-ash-300">{description}</p> : null}
          </div>
          {closeTo ? <CloseLink to={closeTo} /> : null}
        </div>
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-ash-300">{footer}</div> : null}
    </section>
  );
}
