import { formatAtVenue, type VenueStyle } from '@schlosstreffen/shared';

/** Dates the api sends (ISO strings) as the venue's clock shows them; '–' when missing or unreadable. */
export function formatIso(iso: string | null | undefined, style: VenueStyle): string {
  if (!iso) return '–';
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '–' : formatAtVenue(value, style);
}

/** e.g. '05.03.2026' */
export const formatDate = (iso: string | null | undefined) => formatIso(iso, 'date');

/** e.g. '05.03.2026, 18:45 Uhr' */
export function formatDateTime(iso: string | null | undefined): string {
  const text = formatIso(iso, 'dateTime');
  return text === '–' ? text : `${text} Uhr`;
}
