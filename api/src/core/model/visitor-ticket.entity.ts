import { defineEntity, p } from '@mikro-orm/core';
import { VISITOR_TICKET_STATES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { VisitorRegistration } from './visitor-registration.entity.js';

/**
 * A confirmed visitor's place ('Besucherticket') or their place on the waiting list. The QR code and
 * the ticket page's link hold a random secret; only its SHA-256 is stored (the gate's devices hold
 * the same hashes, no names). Its registration's deletion gives the place back first.
 */
const VisitorTicketSchema = defineEntity({
  name: 'VisitorTicket',
  tableName: 'visitor_ticket',
  indexes: [{ properties: ['edition', 'state', 'queuedAt'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    registration: () => p.oneToOne(VisitorRegistration).owner().unique().deleteRule('cascade'),
    state: p.enum(VISITOR_TICKET_STATES),
    /** SHA-256 (hex) of the ticket's secret; set when issued. */
    secretHash: p.string().length(64).nullable().unique(),
    /** When the address was confirmed: the waiting list's order. */
    queuedAt: p.datetime(),
    issuedAt: p.datetime().nullable(),
    returnedAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});
export class VisitorTicket extends VisitorTicketSchema.class {}
VisitorTicketSchema.setClass(VisitorTicket);
