import { ADMIN_VEHICLE_SORTS, type AdminVehicleSort, type VehicleStatus } from '@schlosstreffen/shared';

/**
 * The admin dashboard's URL state (tab, status filter, search, sort). Kept apart from the page: the route
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

export function isAdminVehicleSort(value: unknown): value is AdminVehicleSort {
  return typeof value === 'string' && (ADMIN_VEHICLE_SORTS as readonly string[]).includes(value);
}

export type MainTab = 'fahrzeuge' | 'medien';

interface DashboardSearch {
  tab?: 'medien';
  status?: Exclude<StatusFilter, 'all'>;
  q?: string;
  sort?: Exclude<AdminVehicleSort, 'newest'>;
}

/**
 * The route's search params: unknown or malformed values are dropped, never an error. Every key is
 * present (undefined when dropped): the router lays the result over the raw params, so a missing key
 * would let the raw value through.
 */
export function parseDashboardSearch(search: Record<string, unknown>): DashboardSearch {
  const q = typeof search.q === 'string' ? search.q : typeof search.q === 'number' ? String(search.q) : '';
  return {
    tab: search.tab === 'medien' ? 'medien' : undefined,
    status: isStatusFilter(search.status) && search.status !== 'all' ? search.status : undefined,
    q: q.trim() ? q : undefined,
    sort: isAdminVehicleSort(search.sort) && search.sort !== 'newest' ? search.sort : undefined,
  };
}
