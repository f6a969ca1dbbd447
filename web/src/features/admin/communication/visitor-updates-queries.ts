import type { VisitorUpdate, VisitorUpdateList } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** Reads of the Besucher-Updates page; the route loader uses them, so they stay out of the page's chunk. */

export const visitorUpdatesQueryOptions = queryOptions({
  queryKey: ['admin', 'visitor-updates'] as const,
  queryFn: () => apiGet<VisitorUpdateList>('/api/admin/visitor-updates'),
  // While one is being sent, the history's counts follow it.
  refetchInterval: (query) =>
    query.state.data?.updates.some((update) => update.status === 'sending') ? 1500 : false,
});

/** One update; polled while its preview is rendered or while it is being sent. */
export const visitorUpdateQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'visitor-updates', id] as const,
    queryFn: () => apiGet<VisitorUpdate>(`/api/admin/visitor-updates/${encodeURIComponent(id)}`),
    refetchInterval: (query) => {
      const update = query.state.data;
      if (!update) return false;
      if (update.status === 'sending') return 1500;
      return update.status === 'draft' && !update.previewReady ? 800 : false;
    },
  });
