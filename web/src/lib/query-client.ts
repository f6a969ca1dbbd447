import { QueryClient } from '@tanstack/react-query';

/**
 * Data fetching defaults: cached data never goes stale, no refetch on window
 * focus, no polling, no retries for reads or writes. Writes refresh data by invalidating queries.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
