import { twoDigits, venueClock } from './venue-time.js';

/**
 * The file name of a downloaded image of the media library, the same for a single download and
 * for the entries of the ZIP of all images: vehicle name (else brand_model), upload timestamp (else
 * 'unknown') and the original extension (else jpg), joined by underscores, e.g.
 * `Black_Pearl_2026-11-22T10-30-00.jpg`.
 *
 * The timestamp is the upload time in the event's time zone (Europe/Berlin), written ISO-like with
 * dashes instead of colons so that every file system accepts it. Characters that are illegal in
 * file names (Windows being the strictest: `<>:"/\|?*` and control characters) are removed;
 * whitespace becomes underscores.
 */

export interface MediaFileNameSource {
  /** Object path such as /objects/uploads/{user}/{uuid}.jpg; its extension is kept. */
  url: string;
  createdAt?: string | Date | null;
  vehicle?: { name?: string | null; brand?: string | null; model?: string | null } | null;
}

const UNKNOWN_TIMESTAMP = 'unknown';
const DEFAULT_MEDIA_EXTENSION = 'jpg';
/** Longest vehicle part of a name, in characters; the whole name stays well below 255 bytes. */
const MEDIA_NAME_MAX_LENGTH = 100;

// eslint-disable-next-line no-control-regex
const ILLEGAL = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

/** A name part without illegal characters, whitespace runs as one underscore, no dots or underscores at its ends. */
export function sanitizeFileNamePart(text: string): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .replace(ILLEGAL, '')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[._]+|[._]+$/g, '');
  return Array.from(cleaned)
    .slice(0, MEDIA_NAME_MAX_LENGTH)
    .join('')
    .replace(/[._]+$/, '');
}

/** `2026-11-22T10-30-00` (wall clock in Europe/Berlin), or 'unknown' without a valid date. */
export function mediaTimestamp(createdAt: string | Date | null | undefined): string {
  if (createdAt === null || createdAt === undefined || createdAt === '') return UNKNOWN_TIMESTAMP;
  const date = createdAt instanceof Date ? createdAt : new Date(createdAt);
  if (Number.isNaN(date.getTime())) return UNKNOWN_TIMESTAMP;
  const { year, month, day, hour, minute, second } = venueClock(date);
  return `${year}-${[month, day].map(twoDigits).join('-')}T${[hour, minute, second].map(twoDigits).join('-')}`;
}

/** The extension of the object's file name in lower case (`jpg`, `png`, `webp`…), else jpg. */
export function mediaExtension(url: string | null | undefined): string {
  const file = (url ?? '').split(/[?#]/)[0]!.split('/').at(-1) ?? '';
  const match = /\.([a-z0-9]{1,5})$/i.exec(file);
  return match ? match[1]!.toLowerCase() : DEFAULT_MEDIA_EXTENSION;
}

/** The vehicle part: its name, else brand_model; 'bild' when neither says anything. */
function mediaVehiclePart(vehicle: MediaFileNameSource['vehicle']): string {
  const name = sanitizeFileNamePart(vehicle?.name ?? '');
  if (name) return name;
  const brandModel = sanitizeFileNamePart(
    [vehicle?.brand, vehicle?.model]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(' '),
  );
  return brandModel || 'bild';
}

export function mediaFileName(media: MediaFileNameSource): string {
  return `${mediaVehiclePart(media.vehicle)}_${mediaTimestamp(media.createdAt)}.${mediaExtension(media.url)}`;
}

/**
 * The name itself while it is free, else `name_2.ext`, `name_3.ext`, … Compared case-insensitively
 * (Windows and macOS unpack onto such file systems), so no entry overwrites another.
 */
export function uniqueEntryName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem}_${n}${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
