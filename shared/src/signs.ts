import * as v from 'valibot';
import { PARKING_ZONE_UNASSIGNED } from './event-messages.js';
import { fieldObject } from './schemas/issues.js';

/**
 * The windshield signs: one per confirmed car holding a start number (a released place does not
 * count). Organizers print an edition's whole set in one of two formats; a single car's sign (from
 * the vehicle's detail dialog, or its owner's dashboard) is always one sign on an A4 landscape page.
 */
export const SIGN_FORMATS = ['a4', 'a5'] as const;
export type SignFormat = (typeof SIGN_FORMATS)[number];

export const SIGN_FORMAT_LABELS: Record<SignFormat, string> = {
  a4: 'A4 quer, ein Schild je Seite',
  a5: 'A5, zwei je A4',
};

export const SIGN_EXPORT_STATUSES = ['queued', 'rendering', 'ready', 'failed'] as const;
export type SignExportStatus = (typeof SIGN_EXPORT_STATUSES)[number];

export const SIGN_EXPORT_STATUS_LABELS: Record<SignExportStatus, string> = {
  queued: 'In Warteschlange',
  rendering: 'Wird erstellt',
  ready: 'Fertig',
  failed: 'Fehlgeschlagen',
};

export const SIGN_MESSAGES = {
  formatRequired: 'Bitte ein Format wählen.',
  notFound: 'Windschild nicht gefunden',
  noSigns: 'Es gibt noch keine bestätigten Fahrzeuge mit Startnummer für Windschilder.',
  /** Stored on an export that found no car with a start number when it ran. */
  exportWithoutSigns: 'Keine bestätigten Fahrzeuge mit Startnummer: Es wurden keine Schilder erstellt.',
  vehicleWithoutSign:
    'Ein Windschild gibt es erst, wenn das Fahrzeug bestätigt ist und eine Startnummer hat.',
  /** Printed under the QR code. */
  scanHint: 'Scannen für Fahrzeugdaten und Abstimmung',
} as const;

/** The zone line printed on a sign. */
export const signZoneLine = (zone: string): string =>
  zone === PARKING_ZONE_UNASSIGNED ? 'Parkzone: wird am Einlass zugewiesen' : `Parkzone ${zone}`;

/** File name a sign PDF is saved under. */
export const signDownloadName = (
  year: number,
  sign: { format: SignFormat; startNumber?: number | null },
): string =>
  sign.startNumber
    ? `Windschild-${year}-Nr-${sign.startNumber}.pdf`
    : `Windschilder-${year}-${sign.format === 'a5' ? 'A5' : 'A4'}.pdf`;

/** Body of POST /api/admin/signs. */
export const SignExportCreateSchema = fieldObject({
  format: v.picklist(SIGN_FORMATS, SIGN_MESSAGES.formatRequired),
});

/** Whether a car has a windshield sign: confirmed, and its place (start number) still held. */
export const holdsSign = (vehicle: {
  status: string;
  invitation?: { releasedAt: string | Date | null } | null;
}): boolean =>
  vehicle.status === 'confirmed' && Boolean(vehicle.invitation) && !vehicle.invitation!.releasedAt;
