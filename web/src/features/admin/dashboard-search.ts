import type { VehicleStatus } from '@schlosstreffen/shared';

/**
 * The admin dashboard's URL state (tab, status filter, search). Kept apart from the page: the route
 * validates its search params with it, and route options are part of the entry bundle.
 */

/** The status filter tabs in their order; drafts appear only under Alle. */
export const STATUS_FILTERS = [
  'all',
  'submitted',
  'in_review',
  'waitlist',
  'invited',
  'confirmed',
  'rejected',
] as const satisfies readonly ('all' | VehicleStatus)[];
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export function isStatusFilter(value: unknown): value is StatusFilter {
  return typeof value === 'string' && (STATUS_FILTERS as readonly string[]).includes(value);
}

export type MainTab = 'fahrzeuge' | 'medien';

interface DashboardSearch {
  tab?: 'medien';
  status?: Exclude<StatusFilter, 'all'>;
  q?: string;
}

/** The route's search params: unknown or malformed values are dropped, never an error. */
export function parseDashboardSearch(search: Record<string, unknown>): DashboardSearch {
  const result: DashboardSearch = {};
  if (search.tab === 'medien') result.tab = 'medien';
  if (isStatusFilter(search.status) && search.status !== 'all') result.status = search.status;
  const q = typeof search.q === 'string' ? search.q : typeof search.q === 'number' ? String(search.q) : '';
  if (q.trim()) result.q = q;
  return result;
}
