import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from './constants.js';

/** German texts the server answers with for vehicles, media, uploads and objects. */
export const VEHICLE_MESSAGES = {
  vehicleNotFound: 'Fahrzeug nicht gefunden',
  mediaNotFound: 'Bild nicht gefunden.',
  objectNotFound: 'Datei nicht gefunden.',
  submitOnlyDraft: 'Nur Entwürfe können eingereicht werden.',
  withdrawNotAllowed: 'Entwürfe und abgelehnte Bewerbungen können nicht zurückgezogen werden.',
  confirmOnlyInvited: 'Nur eingeladene Fahrzeuge können bestätigt werden.',
  deleteOnlyDraft: 'Nur Entwürfe können gelöscht werden. Ziehe die Bewerbung zuerst zurück.',
  staleStatus:
    'Der Status wurde inzwischen von jemand anderem geändert. Bitte lade das Fahrzeug neu und versuche es erneut.',
  statusUnchanged: 'Der Status ist unverändert.',
  reviewsStaffOnly: 'Der Änderungsverlauf ist nur für das Prüfteam sichtbar.',
  tooManyImages: 'Ein Fahrzeug kann höchstens 10 Bilder haben.',
  objectMissing: 'Die hochgeladene Datei wurde nicht gefunden. Bitte lade das Bild erneut hoch.',
  objectForeign: 'Dieses Bild gehört nicht zu deinen Uploads.',
  objectTooLarge: 'Das Bild darf höchstens 10 MB groß sein.',
  objectNotImage: 'Nur Bilddateien sind erlaubt.',
  objectAlreadyAttached: 'Dieses Bild ist bereits einem Fahrzeug zugeordnet.',
} as const;

/** Why the worker refused an uploaded file; shown to the owner as the media's rejectionReason. */
export const IMAGE_REJECTION_REASONS = {
  invalid: 'Die Datei ist kein gültiges Bild.',
  unsupported:
    'Dieses Bildformat wird nicht unterstützt. Bitte lade das Bild als JPEG, PNG, WebP, AVIF oder GIF hoch.',
  tooManyPixels: `Das Bild hat zu viele Pixel: Erlaubt sind höchstens ${MAX_IMAGE_PIXELS / 1_000_000} Megapixel.`,
  tooLarge: `Die Datei ist größer als ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`,
  missing: 'Die Datei wurde nicht gefunden. Bitte lade das Bild erneut hoch.',
} as const;
