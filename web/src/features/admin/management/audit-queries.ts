import type { AuditPage } from '@schlosstreffen/shared';
import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import type { AuditFilters } from './audit-search';

/** GET /api/admin/audit?…: only the filters set, then the page marker. */
export function auditPath(filters: AuditFilters, before?: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (before) params.set('before', before);
  const query = params.toString();
  return `/api/admin/audit${query ? `?${query}` : ''}`;
}

/** The audit log, newest first, page by page ('Mehr laden'); admins only. */
export const auditQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', filters] as const,
    queryFn: ({ pageParam, signal }) => apiGet<AuditPage>(auditPath(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });
