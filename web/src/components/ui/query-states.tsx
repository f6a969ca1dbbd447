import type { ReactNode } from 'react';
import { Button } from './button';
import { errorText, RETRY_HINT } from './toaster';

/** The states of a list that loads on mount: loading (with a skeleton), load error and empty. */

type HeadingLevel = 'h2' | 'h3';

/** Announces the loading to screen readers; `children` is the (aria-hidden) skeleton. */
export function Loading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <p role="status" className="sr-only">
        {label}
      </p>
      {children}
    </div>
  );
}

/** What LoadError needs of a query result. */
interface RetryableQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * An alert with the server's message and a retry button. `compact` fits a panel beside other
 * content instead of a page's main area.
 */
export function LoadError({
  title,
  query,
  headingLevel: Heading = 'h2',
  compact = false,
}: {
  title: string;
  query: RetryableQuery;
  headingLevel?: HeadingLevel;
  compact?: boolean;
}) {
  return (
    <div
      role="alert"
      className={`rounded-2xl border border-red-400/30 bg-red-950/30 text-center ${compact ? 'p-6' : 'mx-auto max-w-lg p-8'}`}
    >
      <Heading className={`font-display text-parchment ${compact ? 'text-xl' : 'text-2xl'}`}>{title}</Heading>
      <p className="mt-2 text-sm text-ash-300">
        {errorText(query.error) ?? 'Ein Fehler ist aufgetreten.'} {RETRY_HINT}
      </p>
      <Button
        className={compact ? 'mt-5' : 'mt-6'}
        variant="secondary"
        disabled={query.isFetching}
        onClick={() => void query.refetch()}
      >
        {query.isFetching ? 'Lädt...' : 'Erneut versuchen'}
      </Button>
    </div>
  );
}

/**
 * An alert in the flow of a panel: what could not be loaded (the server's message, else `fallback`)
 * and a retry button.
 */
export function InlineLoadError({
  query,
  fallback,
  className = '',
}: {
  query: RetryableQuery;
  fallback: string;
  className?: string;
}) {
  return (
    <div role="alert" className={`flex flex-col items-start gap-3 text-sm text-ash-300 ${className}`}>
      <p>
        {errorText(query.error) ?? fallback} {RETRY_HINT}
      </p>
      <Button variant="secondary" disabled={query.isFetching} onClick={() => void query.refetch()}>
        {query.isFetching ? 'Lädt...' : 'Erneut versuchen'}
      </Button>
    </div>
  );
}

/** A dashed box with an icon in a gold ring, a heading, a line of text and an optional action. */
export function EmptyState({
  icon,
  title,
  headingLevel: Heading = 'h2',
  children,
  action,
  compact = false,
}: {
  /** The aria-hidden icon, sized by the caller. */
  icon: ReactNode;
  title: string;
  headingLevel?: HeadingLevel;
  children: ReactNode;
  action?: ReactNode;
  /** A smaller ring and tighter spacing. */
  compact?: boolean;
}) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-14 text-center">
      <div
        className={`flex items-center justify-center rounded-full border border-gold-500/30 bg-gold-500/5 text-gold-400 ${compact ? 'size-16' : 'size-20'}`}
      >
        {icon}
      </div>
      <Heading className={`font-display text-2xl text-parchment ${compact ? 'mt-5' : 'mt-6'}`}>
        {title}
      </Heading>
      <p className="mt-2 text-sm text-ash-300">{children}</p>
      {action}
    </div>
  );
}

/** Loading with one skeleton block; `className` gives its height and surface (e.g. 'h-96 bg-night-900'). */
export function LoadingBlock({ label, className }: { label: string; className: string }) {
  return (
    <Loading label={label}>
      <div
        aria-hidden="true"
        className={`animate-pulse rounded-2xl motion-reduce:animate-none ${className}`}
      />
    </Loading>
  );
}
