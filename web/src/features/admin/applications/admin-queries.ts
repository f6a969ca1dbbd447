import type { AdminVehicleSort, StatusHistoryEntry } from '@schlosstreffen/shared';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import type { AdminVehiclePage, Consent, MediaLibraryPage } from '@schlosstreffen/shared/api';
import type { StatusFilter } from './dashboard-search';
import { vehicleKeys } from '../../vehicles/vehicle-queries';

/**
 * The admin area's reads. Route loaders use them, so they are part of the entry bundle: writes are
 * in admin-mutations.ts.
 */

/** Under `vehicles`, so `invalidateVehicles` refreshes the history along with the lists. */
export const historyKey = (vehicleId: string) => ['vehicles', 'history', vehicleId] as const;

/** What the dashboard's vehicle list asks the server for; the search is sent trimmed. */
export interface AdminVehicleParams {
  status: StatusFilter;
  q: string;
  sort?: AdminVehicleSort;
}

/** GET /api/admin/vehicles?…: only what differs from the defaults, then the cursor. */
export function adminVehiclesUrl({ status, q, sort = 'newest' }: AdminVehicleParams, cursor?: string | null) {
  const params = new URLSearchParams();
  if (status !== 'all') params.set('status', status);
  if (q.trim()) params.set('q', q.trim());
  if (sort !== 'newest') params.set('sort', sort);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/api/admin/vehicles${query ? `?${query}` : ''}`;
}

/**
 * The staff vehicle list, page by page (keyset cursor), filtered and searched on the server; each
 * page carries the counts per status for the search. Under `vehicles`, so `invalidateVehicles`
 * refetches it after every change.
 */
export const adminVehiclesQueryOptions = (params: AdminVehicleParams) =>
  infiniteQueryOptions({
    queryKey: [
      ...vehicleKeys.admin,
      { status: params.status, q: params.q.trim(), sort: params.sort ?? 'newest' },
    ],
    queryFn: ({ pageParam, signal }) =>
      apiGet<AdminVehiclePage>(adminVehiclesUrl(params, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

/**
 * The media library, page by page, newest first, with the total (GET /api/admin/media; staff only).
 * Under `vehicles`, so `invalidateVehicles` after an image change refreshes it too.
 */
export const mediaLibraryQueryOptions = infiniteQueryOptions({
  queryKey: ['vehicles', 'media-library'] as const,
  queryFn: ({ pageParam, signal }) =>
    apiGet<MediaLibraryPage>(
      pageParam ? `/api/admin/media?cursor=${encodeURIComponent(pageParam)}` : '/api/admin/media',
      { signal },
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

/**
 * The number of images (the Medien tab's count) without loading the library: its total, read with
 * the smallest page. Under `vehicles` like the library.
 */
export const mediaCountQueryOptions = queryOptions({
  queryKey: ['vehicles', 'media-count'] as const,
  queryFn: ({ signal }) =>
    apiGet<MediaLibraryPage>('/api/admin/media?limit=1', { signal }).then((page) => page.total),
});

export const vehicleHistoryQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: historyKey(vehicleId),
    queryFn: () => apiGet<StatusHistoryEntry[]>(`/api/vehicles/${encodeURIComponent(vehicleId)}/reviews`),
  });

/** The consents recorded for a vehicle (staff and the owner); under `vehicles` like the history. */
export const vehicleConsentsQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: ['vehicles', 'consents', 'vehicle', vehicleId] as const,
    queryFn: () => apiGet<Consent[]>(`/api/vehicles/${encodeURIComponent(vehicleId)}/consents`),
  });
