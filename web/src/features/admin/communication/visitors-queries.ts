import type { AdminVisitorList, VisitorState } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** The CSV export (semicolons, UTF-8 with BOM), served as an attachment. */
export const VISITORS_CSV_URL = '/api/admin/visitors.csv';

/** In the order the counts are shown. */
export const VISITOR_STATES: readonly VisitorState[] = ['confirmed', 'pending', 'unsubscribed'];

/** Every visitor pre-registration with counts per state (admins only). */
export const adminVisitorsQueryOptions = queryOptions({
  queryKey: ['admin', 'visitors'] as const,
  queryFn: () => apiGet<AdminVisitorList>('/api/admin/visitors'),
});
