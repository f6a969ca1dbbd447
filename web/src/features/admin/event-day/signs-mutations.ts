import type { SignFormat } from '@schlosstreffen/shared';
import type { SignExport } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { SIGNS_PATH, signKeys } from './signs-queries';

/** POST /api/admin/signs: the format's set renders anew; the list is re-read (and starts polling). */
export function useStartSignSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (format: SignFormat) => api.post<SignExport>(SIGNS_PATH, { format }),
    onSuccess: (sign) => {
      queryClient.setQueryData<SignExport[]>(signKeys.sets, (sets) =>
        sets ? [...sets.filter((other) => other.id !== sign.id), sign] : [sign],
      );
      return queryClient.invalidateQueries({ queryKey: signKeys.sets });
    },
  });
}
