import {
  brandAndModel,
  CHECK_IN_MESSAGES,
  formatEuro,
  venueTime,
  VISITOR_GATE_MESSAGES,
  type VisitorScanRefusal,
} from '@schlosstreffen/shared';
import type {
  CheckInRefusal,
  CheckInResult,
  CheckInView,
  GateVisitorScanState,
  ServerMessage,
} from '@schlosstreffen/shared/api';
import { api, isApiError } from '../../lib/api';

/** A confirmed car whose fee is open: not let in until 'Bar bezahlt' is booked. */
export interface FeeOpenOutcome {
  kind: 'fee-open';
  code: string;
  /** The hint with the amount still open. */
  message: string;
  /** The amount still open, in cents; null when the answer did not name it. */
  openCents: number | null;
  view: CheckInView;
  /** Why booking the cash payment did not work (no connection, the server's words). */
  cashError?: string;
}

/** Which way a visitor ticket is scanned: at the entrance, or (where exit scanning is on) the exit. */
export type VisitorDirection = 'in' | 'out';

/** A visitor ticket's verdict, from this device's list or from the server. */
export interface VisitorOutcome {
  kind: 'visitor';
  code: string;
  direction: VisitorDirection;
  /** As the server counts it; duplicate: already on the grounds. */
  result: GateVisitorScanState['result'];
  reason: VisitorScanRefusal | null;
  /** The gate's words: 'Besucher eingelassen', 'Bereits eingecheckt um … Uhr', … */
  message: string;
  /** The ticket's first entry. */
  firstIn: string | null;
  firstGate: string | null;
}

export type CheckInOutcome = (
  | { kind: 'checked-in'; code: string; message: string; view: CheckInView }
  | { kind: 'already'; code: string; message: string; view: CheckInView }
  | { kind: 'unknown'; code: string; message: string }
  | { kind: 'not-confirmed'; code: string; message: string; view: CheckInView | null }
  | FeeOpenOutcome
  | VisitorOutcome
  | {
      kind: 'error';
      code: string;
      title: string;
      message: string;
      /** A passing fault (network, server): the same code may simply be sent again. */
      retry: boolean;
    }
) & {
  /** What was done before this verdict, shown above it: 'Bar bezahlt: 25,00 € gebucht.' */
  note?: string;
};

export const CHECK_IN_ERRORS = {
  title: 'Check-in nicht möglich',
  offlineTitle: 'Keine Verbindung',
  offline: 'Der Server ist nicht erreichbar. Bitte prüfe die Internetverbindung und versuche es erneut.',
  server: 'Beim Check-in ist ein Fehler aufgetreten. Bitte versuche es gleich noch einmal.',
  forbidden: 'Du hast keine Berechtigung, Fahrzeuge einzuchecken.',
  signedOut: 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.',
  cashOffline:
    '„Bar bezahlt“ braucht eine Verbindung zum Server. Bitte prüfe die Internetverbindung und versuche es erneut.',
} as const;

/** The 'Startgeld offen' verdict, with the open amount in its hint when it is known. */
export function feeOpenOutcome(code: string, view: CheckInView, openCents: unknown): FeeOpenOutcome {
  const cents = typeof openCents === 'number' && Number.isSafeInteger(openCents) ? openCents : null;
  return {
    kind: 'fee-open',
    code,
    message: cents === null ? CHECK_IN_MESSAGES.fee_open : CHECK_IN_MESSAGES.feeOpenHint(formatEuro(cents)),
    openCents: cents,
    view,
  };
}

/** HH:MM at the venue (the gate's local time), as the server words it. */
export function formatCheckInTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : venueTime(date);
}

/** 'Bereits eingecheckt um HH:MM Uhr', from the first check-in's time (the text of already_checked_in). */
export function alreadyCheckedInText(checkedInAt: string | null): string {
  const time = formatCheckInTime(checkedInAt);
  return time ? CHECK_IN_MESSAGES.already_checked_in(time) : CHECK_IN_MESSAGES.alreadyCheckedInNoTime;
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

function isView(body: object | undefined): body is CheckInView {
  if (!body) return false;
  const { startNumber, vehicle } = body as Partial<CheckInView>;
  return typeof startNumber === 'number' && typeof vehicle === 'object' && vehicle !== null;
}

/** The server could not be reached: try again. */
const unreachable = (code: string): CheckInOutcome => ({
  kind: 'error',
  code,
  title: CHECK_IN_ERRORS.offlineTitle,
  message: CHECK_IN_ERRORS.offline,
  retry: true,
});

/**
 * Checks a car in by its check-in code (QR content) or start number. Never rejects: every answer,
 * failures included, comes back as an outcome the gate can show. The server's result code says
 * what happened; the gate's texts for it come from the shared CHECK_IN_MESSAGES.
 */
export async function submitCheckIn(code: string): Promise<CheckInOutcome> {
  const error = (text: string, retry = false): CheckInOutcome => ({
    kind: 'error',
    code,
    title: CHECK_IN_ERRORS.title,
    message: text,
    retry,
  });
  let answer: CheckInResult;
  try {
    answer = await api.post<CheckInResult>('/api/admin/check-in', { code });
  } catch (failure) {
    // An answer that is no JSON comes from something in between, not from the api.
    if (failure instanceof SyntaxError) return error(CHECK_IN_ERRORS.server, true);
    if (!isApiError(failure)) return unreachable(code);
    const body = failure.body as Partial<CheckInRefusal> | undefined;
    const message = failure.fromBody ? failure.serverMessage : undefined;
    if (body?.result === 'already_checked_in' && isView(body)) {
      return { kind: 'already', code, message: alreadyCheckedInText(body.checkedInAt), view: body };
    }
    if (body?.result === 'fee_open' && isView(body)) {
      return feeOpenOutcome(code, body, (body as { feeOpenCents?: unknown }).feeOpenCents);
    }
    if (body?.result === 'not_confirmed') {
      return { kind: 'not-confirmed', code, message: CHECK_IN_MESSAGES.not_confirmed, view: null };
    }
    // An overlong code (400) is as unknown as a missing one.
    if (failure.status === 404 || body?.result === 'unknown_code') {
      return { kind: 'unknown', code, message: CHECK_IN_MESSAGES.unknown_code };
    }
    if (failure.status === 401) return error(message ?? CHECK_IN_ERRORS.signedOut);
    if (failure.status === 403) return error(message ?? CHECK_IN_ERRORS.forbidden);
    if (failure.status >= 500) return error(CHECK_IN_ERRORS.server, true);
    // 400 (empty code), 409 (no longer invited, outside the gate window), 429: the server's own words.
    return error(message ?? CHECK_IN_ERRORS.server, failure.status === 429);
  }
  if (!isView(answer)) return error(CHECK_IN_ERRORS.server, true);
  return { kind: 'checked-in', code, message: CHECK_IN_MESSAGES.checked_in, view: answer };
}

/** What booking a cash payment at the gate came to. */
export type CashBooking =
  | { kind: 'booked'; message: string }
  /** 409: nothing open (paid meanwhile, or booked at another gate). */
  | { kind: 'nothing-open'; message: string }
  | { kind: 'failed'; message: string };

/**
 * 'Bar bezahlt': books the open fee of the car with this code (or start number) as paid in cash at
 * this gate. Never rejects.
 */
export async function bookCashPayment(code: string, gate: string): Promise<CashBooking> {
  try {
    const answer = await api.post<ServerMessage>('/api/admin/check-in/cash', { code, gate });
    return { kind: 'booked', message: answer.message };
  } catch (failure) {
    if (!isApiError(failure)) {
      return {
        kind: 'failed',
        message: failure instanceof SyntaxError ? CHECK_IN_ERRORS.server : CHECK_IN_ERRORS.cashOffline,
      };
    }
    const message = failure.fromBody ? failure.serverMessage : undefined;
    if (failure.status === 409) {
      return { kind: 'nothing-open', message: message ?? CHECK_IN_MESSAGES.feeCashNothingOpen };
    }
    if (failure.status === 401) return { kind: 'failed', message: message ?? CHECK_IN_ERRORS.signedOut };
    if (failure.status === 403) return { kind: 'failed', message: message ?? CHECK_IN_ERRORS.forbidden };
    if (failure.status >= 500) return { kind: 'failed', message: CHECK_IN_ERRORS.server };
    return { kind: 'failed', message: message ?? CHECK_IN_ERRORS.server };
  }
}

/** The gate's words for what a visitor scan came to (the server's own for a refusal it explains). */
function visitorMessage(state: Omit<GateVisitorScanState, 'id' | 'ticketId' | 'kind'>): string {
  switch (state.result) {
    case 'admitted':
    case 'readmitted':
    case 'exited':
    case 'not_inside':
      return VISITOR_GATE_MESSAGES[state.result];
    case 'duplicate':
      return alreadyCheckedInText(state.firstIn);
    case 'refused':
      return state.reason === 'ticket_invalid' || state.reason === 'exit_off'
        ? VISITOR_GATE_MESSAGES[state.reason]
        : state.message || VISITOR_GATE_MESSAGES.ticket_invalid;
  }
}

/** A visitor scan's verdict as the gate shows it. */
export function visitorOutcome(
  code: string,
  direction: VisitorDirection,
  state: Omit<GateVisitorScanState, 'id' | 'ticketId' | 'kind'>,
): VisitorOutcome {
  return {
    kind: 'visitor',
    code,
    direction,
    result: state.result,
    reason: state.reason,
    message: visitorMessage(state),
    firstIn: state.firstIn,
    firstGate: state.firstGate,
  };
}

/**
 * Scans a visitor ticket in or out at the server (a device without a list): the server records the
 * scan itself. Never rejects; an unknown ticket is refused as invalid.
 */
export async function submitVisitorScan(
  code: string,
  direction: VisitorDirection,
  gate?: string,
): Promise<CheckInOutcome> {
  const error = (message: string, retry = false): CheckInOutcome => ({
    kind: 'error',
    code,
    title: CHECK_IN_ERRORS.title,
    message,
    retry,
  });
  try {
    const answer = await api.post<GateVisitorScanState>('/api/admin/check-in/visitor', {
      code,
      kind: direction,
      ...(gate ? { gate } : {}),
    });
    if (typeof answer?.result !== 'string') return error(CHECK_IN_ERRORS.server, true);
    return visitorOutcome(code, direction, answer);
  } catch (failure) {
    if (failure instanceof SyntaxError) return error(CHECK_IN_ERRORS.server, true);
    if (!isApiError(failure)) return unreachable(code);
    const message = failure.fromBody ? failure.serverMessage : undefined;
    // Unknown, given back or deleted.
    if (failure.status === 404) {
      return visitorOutcome(code, direction, {
        result: 'refused',
        reason: 'ticket_invalid',
        message: VISITOR_GATE_MESSAGES.ticket_invalid,
        firstIn: null,
        firstGate: null,
      });
    }
    if (failure.status === 401) return error(message ?? CHECK_IN_ERRORS.signedOut);
    if (failure.status === 403) return error(message ?? CHECK_IN_ERRORS.forbidden);
    if (failure.status >= 500) return error(CHECK_IN_ERRORS.server, true);
    return error(message ?? CHECK_IN_ERRORS.server, failure.status === 429);
  }
}
