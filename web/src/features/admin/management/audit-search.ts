import type { AuditAction } from '@schlosstreffen/shared';

/**
 * The Protokoll page's URL state (person, action, date range), kept apart from the page: the route
 * validates its search params with it, and route options are part of the entry bundle.
 */
export interface AuditSearch {
  person?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * An action's shape ('area.verb'): the route checks only that, so the action catalogue stays out of
 * the entry bundle; an unknown action simply finds no rows (the API answers with its German message).
 */
const ACTION = /^[a-z_]+\.[a-z_]+$/;

/** Unknown or malformed values are dropped, never an error; every key is present (undefined when dropped). */
export function parseAuditSearch(search: Record<string, unknown>): AuditSearch {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const action = text(search.action);
  return {
    person: UUID.test(text(search.person)) ? text(search.person) : undefined,
    action: ACTION.test(action) ? (action as AuditAction) : undefined,
    from: DATE.test(text(search.from)) ? text(search.from) : undefined,
    to: DATE.test(text(search.to)) ? text(search.to) : undefined,
  };
}

/** The page's filters: a person's id, an action, venue dates (YYYY-MM-DD); '' for none. */
export interface AuditFilters {
  person: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

export const filtersOf = (search: AuditSearch): AuditFilters => ({
  person: search.person ?? '',
  action: search.action ?? '',
  from: search.from ?? '',
  to: search.to ?? '',
});
