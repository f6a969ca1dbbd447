import type { SignExport } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const signKeys = {
  sets: ['admin', 'signs'] as const,
};

export const SIGNS_PATH = '/api/admin/signs';

/** Whether the worker still has to finish this PDF. */
export const isSignExportRunning = (sign: Pick<SignExport, 'status'>) =>
  sign.status === 'queued' || sign.status === 'rendering';

/** How often the list is re-read while a set is queued or rendering. */
const SIGNS_POLL_MS = 1000;

/**
 * The current edition's sign sets, one per format (admins only). Like the quartett's exports, the
 * list is re-read every second while a set renders (its progress is only in its row), then no more.
 */
export const signSetsQueryOptions = queryOptions({
  queryKey: signKeys.sets,
  queryFn: () => apiGet<SignExport[]>(SIGNS_PATH),
  refetchInterval: (query: { state: { data?: SignExport[] } }) =>
    query.state.data?.some(isSignExportRunning) ? SIGNS_POLL_MS : false,
});
