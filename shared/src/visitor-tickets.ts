/**
 * Visitor tickets ('Besucherticket'), optional per edition: a capacity, a free ticket per confirmed
 * address, a waiting list in the order of confirmation. The German texts of it.
 */
import * as v from 'valibot';

export const VISITOR_TICKET_LIMITS = { capacityMax: 100_000 } as const;

export const VISITOR_TICKET_MESSAGES = {
  capacity: `Bitte geben Sie die Zahl der Besucherplätze als ganze Zahl von 1 bis ${VISITOR_TICKET_LIMITS.capacityMax.toLocaleString('de-DE')} an.`,
  capacityBelowIssued: (issued: number) =>
    `Es sind bereits ${issued} Besuchertickets ausgegeben: Die Zahl der Plätze darf nicht kleiner sein.`,
  ticketUnknown: 'Dieses Besucherticket gibt es nicht (mehr).',
  ticketReturned:
    'Du hast dein Besucherticket zurückgegeben. Dein Platz geht an die nächste Person auf der Warteliste.',
  alreadyReturned: 'Dieses Besucherticket ist bereits zurückgegeben.',
  meetingOver: (name: string) =>
    `${name} ist vorbei: Dein Besucherticket bleibt, wie es am Ende des Treffens war.`,
  exitScanning: 'Bitte geben Sie an, ob Besuchertickets auch am Ausgang gescannt werden.',
  confirmed:
    'Deine Adresse ist bestätigt. Dein Besucherticket kommt gleich per E-Mail, mit dem Link zur Ticketseite. Sind alle Plätze vergeben, schreiben wir dir, dass du auf der Warteliste stehst.',
} as const;

/** `visitorTickets` of PATCH /api/admin/editions/{year}: the capacity, or null to switch tickets off. */
export const VisitorTicketsSchema = v.nullable(
  v.object(
    {
      capacity: v.pipe(
        v.number(VISITOR_TICKET_MESSAGES.capacity),
        v.integer(VISITOR_TICKET_MESSAGES.capacity),
        v.minValue(1, VISITOR_TICKET_MESSAGES.capacity),
        v.maxValue(VISITOR_TICKET_LIMITS.capacityMax, VISITOR_TICKET_MESSAGES.capacity),
      ),
      /** Tickets are scanned on the way out too, so a visitor may leave and come back. */
      exitScanning: v.optional(v.boolean(VISITOR_TICKET_MESSAGES.exitScanning), false),
    },
    VISITOR_TICKET_MESSAGES.capacity,
  ),
);
export type VisitorTickets = NonNullable<v.InferOutput<typeof VisitorTicketsSchema>>;

/** issued: admits its holder · waiting: on the waiting list · returned: given back (or its holder deleted). */
export const VISITOR_TICKET_STATES = ['issued', 'waiting', 'returned'] as const;
export type VisitorTicketState = (typeof VISITOR_TICKET_STATES)[number];

/** A visitor ticket's code: 'VT' and 32 characters of base64url (never digits alone: no start number). */
const VISITOR_TICKET_CODE = /^VT[A-Za-z0-9_-]{32}$/;
export const isVisitorTicketCode = (code: string): boolean => VISITOR_TICKET_CODE.test(code);

/** A visitor ticket's scan at the gate: in, out (where exit scanning is on), or a walk-in counted at the day's till. */
export const VISITOR_SCAN_KINDS = ['in', 'out', 'walk_in'] as const;
export type VisitorScanKind = (typeof VISITOR_SCAN_KINDS)[number];

/**
 * What a kept visitor scan counts as, replayed per ticket in the order the scans were made:
 * admitted (first entry), readmitted (back in after an exit), duplicate (already inside),
 * exited, not_inside (an exit scan of a ticket that was not in).
 */
export const VISITOR_SCAN_RESULTS = ['admitted', 'readmitted', 'duplicate', 'exited', 'not_inside'] as const;
export type VisitorScanResult = (typeof VISITOR_SCAN_RESULTS)[number];

/** Why a visitor scan was not taken. */
export type VisitorScanRefusal = 'ticket_invalid' | 'outside_window' | 'exit_off';

/** The gate's words for visitor tickets. */
export const VISITOR_GATE_MESSAGES = {
  admitted: 'Besucher eingelassen',
  readmitted: 'Wieder eingelassen',
  exited: 'Ausgang erfasst',
  not_inside: 'Kein Eingang erfasst: Dieses Besucherticket ist nicht auf dem Gelände.',
  ticket_invalid:
    'Ungültiges Besucherticket: zurückgegeben, gelöscht oder für eine andere Veranstaltung ausgestellt.',
  exit_off: 'Am Ausgang wird bei dieser Veranstaltung nicht gescannt.',
  walkIn: 'Tageskasse: 1 Besucher gezählt',
  walkInButton: '+1 Tageskasse',
  /** The board's warning from 90 % of the capacity on. */
  capacityWarning: (percent: number) => `Achtung: ${percent} % der Besucherplätze sind belegt.`,
} as const;

/** From this share of the capacity on the board warns. */
export const VISITOR_CAPACITY_WARNING = 0.9;
