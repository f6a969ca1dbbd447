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
    },
    VISITOR_TICKET_MESSAGES.capacity,
  ),
);
export type VisitorTickets = NonNullable<v.InferOutput<typeof VisitorTicketsSchema>>;

/** issued: admits its holder · waiting: on the waiting list · returned: given back (or its holder deleted). */
export const VISITOR_TICKET_STATES = ['issued', 'waiting', 'returned'] as const;
export type VisitorTicketState = (typeof VISITOR_TICKET_STATES)[number];
