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
