import type { QuartettSet } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const quartettKeys = {
  sets: ['admin', 'quartett-sets'] as const,
};

export const QUARTETT_SETS_PATH = '/api/admin/quartett-sets';

/** Whether the worker still has to finish this set. */
export const isQuartettSetRunning = (set: Pick<QuartettSet, 'status'>) =>
  set.status === 'queued' || set.status === 'rendering';

/** How often the list is re-read while an export is queued or rendering. */
const QUARTETT_POLL_MS = 1000;

/**
 * `refetchInterval` of the export list. The app otherwise never polls (see query-client.ts); this and
 * the profile's data export are the exceptions: the worker renders the PDF in the background and
 * reports progress only in the set's row, so while a set is queued or rendering the list is re-read
 * every second to show its progress live. Once no set is running, polling stops.
 */
function quartettRefetchInterval(query: { state: { data?: QuartettSet[] } }): number | false {
  return query.state.data?.some(isQuartettSetRunning) ? QUARTETT_POLL_MS : false;
}

/** Every version, newest first (admins only). */
export const quartettSetsQueryOptions = queryOptions({
  queryKey: quartettKeys.sets,
  queryFn: () => apiGet<QuartettSet[]>(QUARTETT_SETS_PATH),
  refetchInterval: quartettRefetchInterval,
});
