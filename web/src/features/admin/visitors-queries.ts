import type { VISITOR_STATE_LABELS } from '@schlosstreffen/shared';
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

export type VisitorState = keyof typeof VISITOR_STATE_LABELS;

/** A visitor pre-registration as GET /api/admin/visitors lists it. */
export interface AdminVisitor {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  state: VisitorState;
}

export interface AdminVisitorList {
  /** Newest first. */
  visitors: AdminVisitor[];
  counts: { total: number } & Record<VisitorState, number>;
}

/** The CSV export (semicolons, UTF-8 with BOM), served as an attachment. */
export const VISITORS_CSV_URL = '/api/admin/visitors.csv';

/** In the order the counts are shown. */
export const VISITOR_STATES: readonly VisitorState[] = ['confirmed', 'pending', 'unsubscribed'];

/** Every visitor pre-registration with counts per state (admins only). */
export const adminVisitorsQueryOptions = queryOptions({
  queryKey: ['admin', 'visitors'] as const,
  queryFn: () => apiGet<AdminVisitorList>('/api/admin/visitors'),
});

export const visitorName = (visitor: Pick<AdminVisitor, 'firstName' | 'lastName'>) =>
  `${visitor.firstName} ${visitor.lastName}`.trim();

/** Case-insensitive substring search on the full name or the email address. */
export function filterVisitors(visitors: AdminVisitor[], query: string): AdminVisitor[] {
  const needle = query.trim().toLocaleLowerCase('de-DE');
  if (!needle) return visitors;
  return visitors.filter(
    (visitor) =>
      visitorName(visitor).toLocaleLowerCase('de-DE').includes(needle) ||
      visitor.email.toLocaleLowerCase('de-DE').includes(needle),
  );
}

const dateTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: EVENT_TIMEZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** de-DE date and time at the venue, e.g. '22.11.2026, 23:45'. */
export function formatVisitorDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '–' : dateTime.format(date);
}
