/**
 * The gate's words and rules, shared by the api and the check-in screen: every answer to a check-in
 * carries a machine code, and the German text of each code is defined here and nowhere else.
 */

/**
 * What became of a check-in (online) or of a scan (the admission rule, offline as online):
 * checked_in lets the car in; the others say why not.
 */
export const CHECK_IN_RESULTS = [
  'checked_in',
  'already_checked_in',
  'unknown_code',
  'not_confirmed',
  'not_admitted',
  'fee_open',
  'outside_window',
  'other_edition',
] as const;
export type CheckInResultCode = (typeof CHECK_IN_RESULTS)[number];

/** The gate name of check-ins at the online screen, and a device's name until it is given one. */
export const ONLINE_GATE = 'Einlass';

/** A typed start number (else the input is a check-in code). */
const START_NUMBER_PATTERN = /^\d{1,9}$/;

/** The start number a typed code stands for, or null when it is a check-in code. */
export function startNumberOf(code: string): number | null {
  return START_NUMBER_PATTERN.test(code) ? Number(code) : null;
}

/** A check-in code is at most this long; a longer one is unknown. */
export const CHECK_IN_CODE_MAX_LENGTH = 200;

/** German texts of the gate: by result code first, then the gate's own. */
export const CHECK_IN_MESSAGES = {
  checked_in: 'Eingecheckt',
  /** The time is HH:MM in the event's time zone. */
  already_checked_in: (time: string) => `Bereits eingecheckt um ${time} Uhr`,
  unknown_code: 'Unbekannter Check-in-Code oder Startnummer. Bitte prüfe die Eingabe.',
  not_confirmed: 'Die Teilnahme ist noch nicht bestätigt. Einlass erst nach der Bestätigung.',
  not_admitted: 'Dieses Fahrzeug ist nicht mehr eingeladen und kann nicht eingecheckt werden.',
  /** A confirmed car whose participation fee is not (fully) paid: in after 'Bar bezahlt'. */
  fee_open: 'Startgeld offen',
  /** Under 'Startgeld offen': the amount still open, formatted. */
  feeOpenHint: (amount: string) =>
    `Noch offen: ${amount}. Nach der Barzahlung „Bar bezahlt“ buchen, dann einchecken.`,
  feeCashBooked: (amount: string) => `Bar bezahlt: ${amount} gebucht.`,
  feeCashNothingOpen: 'Für dieses Fahrzeug ist kein Startgeld offen.',
  /** A check-in code of another edition's invitation (its name, 'Schlosstreffen 2026'). */
  other_edition: (edition: string) => `Einladung gilt für ${edition}`,
  /** A check-in at the online screen outside the gate window; times as venueDateTime. */
  outside_window: (opensAt: string, closesAt: string) =>
    `Der Einlass ist geschlossen. Eingecheckt wird vom ${opensAt} bis ${closesAt}.`,
  /** A synced scan another gate had been first with; the time is HH:MM. */
  duplicate: (gate: string, time: string) => `Doppelt: schon um ${time} Uhr an „${gate}“ eingecheckt`,
  /** A synced scan dated outside the gate window (a wrong device clock, or a forged time); times as venueDateTime. */
  scanOutsideWindow: (scannedAt: string, opensAt: string, closesAt: string) =>
    `Außerhalb der Einlasszeit: Scan vom ${scannedAt} nicht übernommen. Eingecheckt wird vom ${opensAt} bis ${closesAt}. Bitte die Uhrzeit des Geräts prüfen.`,
  /** The result's headline where the sentence is too long for it. */
  unknownHeadline: 'Unbekannter Code',
  notConfirmedHeadline: 'Nicht bestätigt',
  /** Without a time to name. */
  alreadyCheckedInNoTime: 'Bereits eingecheckt',
  codeRequired: 'Bitte gib einen Check-in-Code oder eine Startnummer ein.',
  gateRequired: 'Bitte gib diesem Einlass einen Namen.',
  gateMax: 'Der Name des Einlasses darf höchstens 40 Zeichen lang sein.',
  gateListCursor: 'Ungültiger Stand der Einlassliste.',
  gateSyncCursor: 'Ungültiger Stand des Abgleichs.',
  gateSyncMax: (max: number) => `Höchstens ${max} Scans je Sendung.`,
} as const;
