import type { JuryResults } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/** The jury's published results of an edition (public; 404 before they are published). */
export const resultsQueryOptions = (year: number) =>
  queryOptions({
    queryKey: ['jury-results', year] as const,
    queryFn: ({ signal }) => apiGet<JuryResults>(`/api/editions/${year}/results`, { signal }),
  });

export const resultsPath = (year: number) => `/ergebnisse/${year}`;
