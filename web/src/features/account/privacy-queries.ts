import type { Consent, DataExport } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/**
 * The profile's privacy reads. The consents sit under `vehicles` (they are given per vehicle), so
 * `invalidateVehicles` refreshes them along with the lists.
 */
export const privacyKeys = {
  consents: ['vehicles', 'consents', 'mine'] as const,
  export: ['account', 'export'] as const,
};

/** The signed-in user's consents, one per kind and vehicle. */
export const myConsentsQueryOptions = queryOptions({
  queryKey: privacyKeys.consents,
  queryFn: () => apiGet<Consent[]>('/api/account/consents'),
});

/** Whether the worker still builds this export. */
export const isExportRunning = (item: Pick<DataExport, 'status'> | null | undefined) =>
  item?.status === 'queued' || item?.status === 'running';

/** How often the export is re-read while it is being built. */
export const EXPORT_POLL_MS = 2000;

/**
 * The latest data export, or null. Besides the quartett list this is the one read that polls: the
 * worker reports its progress only in the export's row, so while it is queued or running it is
 * re-read every 2 s; once it is ready or failed, polling stops.
 */
export const myExportQueryOptions = queryOptions({
  queryKey: privacyKeys.export,
  queryFn: async () => (await apiGet<DataExport | null>('/api/account/export')) ?? null,
  refetchInterval: (query) => (isExportRunning(query.state.data) ? EXPORT_POLL_MS : false),
});
