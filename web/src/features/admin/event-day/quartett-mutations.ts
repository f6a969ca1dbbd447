import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { invalidateVehicles } from '../../vehicles/vehicle-queries';
import type { QuartettSet } from '@schlosstreffen/shared/api';
import { QUARTETT_SETS_PATH, quartettKeys } from './quartett-queries';

/** POST /api/admin/quartett-sets: a new version is queued; the list is re-read (and starts polling). */
export function useCreateQuartettSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string }) => api.post<QuartettSet>(QUARTETT_SETS_PATH, body),
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
    mutationFn: (id: string) =>
      api.post<QuartettSet>(`${QUARTETT_SETS_PATH}/${encodeURIComponent(id)}/release`),
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
