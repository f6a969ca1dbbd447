import type { LookBack } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/** The look back on an edition that has ended (public). */
export const lookBackQueryOptions = (year: number) =>
  queryOptions({
    queryKey: ['look-back', year] as const,
    queryFn: ({ signal }) => apiGet<LookBack>(`/api/editions/${year}/look-back`, { signal }),
  });
