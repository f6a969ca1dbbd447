/** How vehicles and people are shown: one rule for api, worker (mails, print) and web. Dates: venue-time.ts. */

/** Shown where a value is missing (the Drehmoment and Zylinder tiles, the print cards). */
const NOT_AVAILABLE = 'N/A';

const numberFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

/** A technical value in de-DE notation with its unit ("5,4 s", "1.050 kg"); 'N/A' when missing. */
export function formatSpec(value: number | string | null | undefined, unit?: string): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return NOT_AVAILABLE;
  const text = numberFormat.format(number);
  return unit ? `${text} ${unit}` : text;
}

interface Named {
  name?: string | null;
  brand: string;
  model: string;
}

/** Brand plus model: the vehicle's `title`, which the server derives and stores, and its name where it has none. */
export function brandAndModel(vehicle: { brand: string; model: string }): string {
  return [vehicle.brand.trim(), vehicle.model.trim()].filter(Boolean).join(' ');
}

/** A vehicle's title everywhere (cards, carousel, mails, print): its name, else brand plus model. */
export function vehicleDisplayName(vehicle: Named): string {
  return vehicle.name?.trim() || brandAndModel(vehicle);
}

/** Brand and model (only when a name is the title), year and colour, joined by ' · '. */
export function vehicleSubline(vehicle: Named & { year?: number | null; color?: string | null }): string {
  const parts: string[] = [];
  if (vehicle.name?.trim()) parts.push(brandAndModel(vehicle));
  if (vehicle.year) parts.push(String(vehicle.year));
  const color = vehicle.color?.trim();
  if (color) parts.push(color);
  return parts.join(' · ');
}

/** A person as lists show them: full name, else email, else 'Unbekannt'. */
export function personLabel(
  person: { firstName?: string | null; lastName?: string | null; email?: string | null } | null | undefined,
): string {
  const fullName = [person?.firstName, person?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return fullName || person?.email?.trim() || 'Unbekannt';
}

/** The six values of a quartett card (and of the vehicle card's tiles). */
export interface CardValueSource {
  ps?: number | null;
  torqueNm?: number | null;
  zeroToHundredS?: number | string | null;
  topSpeedKmh?: number | null;
  cylinders?: number | null;
  weightKg?: number | null;
}

export interface CardValue {
  label: string;
  value: string;
}

/**
 * The values table of a quartett card, in print order: Leistung (PS), Drehmoment (Nm), 0-100 km/h
 * (s), V-Max (km/h), Zylinder, Gewicht (kg); 'N/A' where a value is missing.
 */
export function quartettCardValues(vehicle: CardValueSource): CardValue[] {
  return [
    { label: 'Leistung', value: formatSpec(vehicle.ps, 'PS') },
    { label: 'Drehmoment', value: formatSpec(vehicle.torqueNm, 'Nm') },
    { label: '0-100 km/h', value: formatSpec(vehicle.zeroToHundredS, 's') },
    { label: 'V-Max', value: formatSpec(vehicle.topSpeedKmh, 'km/h') },
    { label: 'Zylinder', value: formatSpec(vehicle.cylinders) },
    { label: 'Gewicht', value: formatSpec(vehicle.weightKg, 'kg') },
  ];
}
