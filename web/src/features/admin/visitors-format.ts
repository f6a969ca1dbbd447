import { EVENT_TIMEZONE } from '@schlosstreffen/shared';
import type { AdminVisitor } from '@schlosstreffen/shared/api';

/** How /admin/besucher shows and searches the visitor list. */

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
