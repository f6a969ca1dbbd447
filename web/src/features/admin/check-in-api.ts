import { brandAndModel, INVITATION_MESSAGES, venueTime } from '@schlosstreffen/shared';
import type { CheckInView } from '@schlosstreffen/shared/api';

export type CheckInOutcome =
  | { kind: 'checked-in'; code: string; message: string; view: CheckInView }
  | { kind: 'already'; code: string; message: string; view: CheckInView }
  | { kind: 'unknown'; code: string; message: string }
  | { kind: 'not-confirmed'; code: string; message: string; view: CheckInView | null }
  | {
      kind: 'error';
      code: string;
      title: string;
      message: string;
      /** A passing fault (network, server): the same code may simply be sent again. */
      retry: boolean;
    };

export const CHECK_IN_ERRORS = {
  title: 'Check-in nicht möglich',
  offlineTitle: 'Keine Verbindung',
  offline: 'Der Server ist nicht erreichbar. Bitte prüfe die Internetverbindung und versuche es erneut.',
  server: 'Beim Check-in ist ein Fehler aufgetreten. Bitte versuche es gleich noch einmal.',
  forbidden: 'Du hast keine Berechtigung, Fahrzeuge einzuchecken.',
  signedOut: 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.',
} as const;

/** HH:MM at the venue (the gate's local time), as the server words it. */
export function formatCheckInTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : venueTime(date);
}

/** 'Bereits eingecheckt um HH:MM Uhr': the server's sentence when it says that, else built from checkedInAt. */
export function alreadyCheckedInText(serverMessage: string | undefined, checkedInAt: string | null): string {
  if (serverMessage && /^Bereits eingecheckt um \d{1,2}:\d{2}/.test(serverMessage)) return serverMessage;
  const time = formatCheckInTime(checkedInAt);
  return time ? INVITATION_MESSAGES.alreadyCheckedIn(time) : 'Bereits eingecheckt';
}

export function ownerName(owner: CheckInView['owner']): string {
  if (!owner) return 'Unbekannt';
  return [owner.firstName, owner.lastName].filter(Boolean).join(' ') || 'Unbekannt';
}

/** Brand, model and year under a car's own name; colour and year under brand and model. */
export function vehicleDetails(vehicle: CheckInView['vehicle']): string {
  const brandModel = brandAndModel(vehicle);
  return [
    vehicle.title !== brandModel ? brandModel : null,
    vehicle.color,
    vehicle.year ? String(vehicle.year) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

function isView(body: Record<string, unknown>): boolean {
  return typeof body.startNumber === 'number' && typeof body.vehicle === 'object' && body.vehicle !== null;
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Checks a car in by its check-in code (QR content) or start number. Never rejects: every answer,
 * failures included, comes back as an outcome the gate can show.
 */
export async function submitCheckIn(code: string): Promise<CheckInOutcome> {
  let response: Response;
  try {
    response = await fetch('/api/admin/check-in', {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ code }),
    });
  } catch {
    return {
      kind: 'error',
      code,
      title: CHECK_IN_ERRORS.offlineTitle,
      message: CHECK_IN_ERRORS.offline,
      retry: true,
    };
  }
  const body = await readJson(response);
  const message = typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
  const view = body as unknown as CheckInView;

  if (response.ok && isView(body)) {
    return { kind: 'checked-in', code, message: message ?? INVITATION_MESSAGES.checkedIn, view };
  }
  if (response.status === 409 && body.result === 'already_checked_in' && isView(body)) {
    return { kind: 'already', code, message: alreadyCheckedInText(message, view.checkedInAt), view };
  }
  if (response.status === 409 && body.result === 'not_confirmed') {
    return {
      kind: 'not-confirmed',
      code,
      message: message ?? INVITATION_MESSAGES.notConfirmedDetail,
      view: null,
    };
  }
  // An overlong code (400) is as unknown as a missing one.
  if (response.status === 404 || (response.status === 400 && message === INVITATION_MESSAGES.unknownCode)) {
    return { kind: 'unknown', code, message: message ?? INVITATION_MESSAGES.unknownCode };
  }
  const error = (text: string, retry = false): CheckInOutcome => ({
    kind: 'error',
    code,
    title: CHECK_IN_ERRORS.title,
    message: text,
    retry,
  });
  if (response.status === 401) return error(message ?? CHECK_IN_ERRORS.signedOut);
  if (response.status === 403) return error(message ?? CHECK_IN_ERRORS.forbidden);
  if (response.status >= 500 || response.ok) return error(CHECK_IN_ERRORS.server, true);
  // 400 (empty or overlong code), 409 (no longer invited), 429: the server's own words.
  return error(message ?? CHECK_IN_ERRORS.server, response.status === 429);
}
