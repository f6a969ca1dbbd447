import type { Owner, Vehicle } from '../../lib/types';

/** Shown where a value is missing (spec: Drehmoment and Zylinder tiles). */
export const NOT_AVAILABLE = 'N/A';

const numberFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

/** A technical value in de-DE notation with its unit ("5,4 s", "1.050 kg"); 'N/A' when missing. */
export function formatSpec(value: number | string | null | undefined, unit?: string): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return NOT_AVAILABLE;
  const text = numberFormat.format(number);
  return unit ? `${text} ${unit}` : text;
}

/** A vehicle's title: its name, else brand plus model. */
export function vehicleTitle(vehicle: Pick<Vehicle, 'name' | 'brand' | 'model'>): string {
  const name = vehicle.name?.trim();
  return name || `${vehicle.brand} ${vehicle.model}`.trim();
}

/** Brand and model (only when a name is the title), year and colour, joined by ' · '. */
export function vehicleSubline(
  vehicle: Pick<Vehicle, 'name' | 'brand' | 'model' | 'year' | 'color'>,
): string {
  const parts: string[] = [];
  if (vehicle.name?.trim()) parts.push(`${vehicle.brand} ${vehicle.model}`.trim());
  if (vehicle.year) parts.push(String(vehicle.year));
  const color = vehicle.color?.trim();
  if (color) parts.push(color);
  return parts.join(' · ');
}

/** The owner line of the admin lists: full name, else email, else 'Unbekannt'. */
export function ownerLabel(
  owner: Pick<Owner, 'firstName' | 'lastName' | 'email'> | null | undefined,
): string {
  const fullName = [owner?.firstName, owner?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return fullName || owner?.email?.trim() || 'Unbekannt';
}
