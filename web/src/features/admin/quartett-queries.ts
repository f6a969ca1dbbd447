import type { QuartettSetStatus } from '@schlosstreffen/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiGet } from '../../lib/api';
import { invalidateVehicles } from '../vehicles/vehicle-queries';

/** A quartett print export as GET/POST /api/admin/quartett-sets present it. */
export interface QuartettSet {
  id: string;
  title: string;
  version: number;
  status: QuartettSetStatus;
  statusLabel: string;
  /** Rendering progress in percent. */
  progress: number;
  cardCount: number;
  exportFileUrl: string | null;
  downloadName: string;
  /** The PDF as an attachment (`?download=`), once ready. */
  downloadUrl: string | null;
  /** Why the export failed. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  releasedAt: string | null;
}

export const quartettKeys = {
  sets: ['admin', 'quartett-sets'] as const,
};

const SETS_PATH = '/api/admin/quartett-sets';

/** Whether the worker still has to finish this set. */
export const isQuartettSetRunning = (set: Pick<QuartettSet, 'status'>) =>
  set.status === 'queued' || set.status === 'rendering';

/** How often the list is re-read while an export is queued or rendering. */
export const QUARTETT_POLL_MS = 1000;

/**
 * `refetchInterval` of the export list. The app otherwise never polls (spec section 9); this is
 * the one exception: the worker renders the PDF in the background and reports progress only in the
 * set's row, so while a set is queued or rendering the list is re-read every second to show its
 * progress live. Once no set is running, polling stops.
 */
export function quartettRefetchInterval(query: { state: { data?: QuartettSet[] } }): number | false {
  return query.state.data?.some(isQuartettSetRunning) ? QUARTETT_POLL_MS : false;
}

/** Every version, newest first (admins only). */
export const quartettSetsQueryOptions = queryOptions({
  queryKey: quartettKeys.sets,
  queryFn: () => apiGet<QuartettSet[]>(SETS_PATH),
  refetchInterval: quartettRefetchInterval,
});

/** POST /api/admin/quartett-sets: a new version is queued; the list is re-read (and starts polling). */
export function useCreateQuartettSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string }) => api.post<QuartettSet>(SETS_PATH, body),
    onSuccess: (set) => {
      queryClient.setQueryData<QuartettSet[]>(quartettKeys.sets, (sets) =>
        sets ? [set, ...sets.filter((other) => other.id !== set.id)] : [set],
      );
      return queryClient.invalidateQueries({ queryKey: quartettKeys.sets });
    },
  });
}

/** POST …/{id}/release: locks the data of the set's vehicles; the vehicle reads are refetched too. */
export function useReleaseQuartettSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<QuartettSet>(`${SETS_PATH}/${encodeURIComponent(id)}/release`),
    onSuccess: (released) => {
      queryClient.setQueryData<QuartettSet[]>(quartettKeys.sets, (sets) =>
        sets?.map((set) => (set.id === released.id ? released : set)),
      );
      void invalidateVehicles(queryClient);
    },
    // A conflict (already released, not ready) means the list is out of date.
    onError: () => queryClient.invalidateQueries({ queryKey: quartettKeys.sets }),
  });
}
