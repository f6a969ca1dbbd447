import { EVENT_TIMEZONE } from '@schlosstreffen/shared';

/** Dates of records (consents, exports, retention runs) in de-DE at the venue; '–' when missing or unreadable. */

const zone = { timeZone: EVENT_TIMEZONE } as const;

const date = new Intl.DateTimeFormat('de-DE', { ...zone, day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTime = new Intl.DateTimeFormat('de-DE', {
  ...zone,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

function format(formatter: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return '–';
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '–' : formatter.format(value);
}

/** e.g. '05.03.2026' */
export const formatDate = (iso: string | null | undefined) => format(date, iso);

/** e.g. '05.03.2026, 18:45 Uhr' */
export function formatDateTime(iso: string | null | undefined): string {
  const text = format(dateTime, iso);
  return text === '–' ? text : `${text} Uhr`;
}
