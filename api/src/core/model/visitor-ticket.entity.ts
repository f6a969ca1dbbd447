import { defineEntity, p } from '@mikro-orm/core';
import { VISITOR_SCAN_KINDS, VISITOR_SCAN_RESULTS, VISITOR_TICKET_STATES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { User } from './user.entity.js';
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
    /** At the gate (replayed from its scans): the first entry's time and gate, inside now, the latest scan counted. */
    firstInAt: p.datetime().nullable(),
    firstInGate: p.string().length(40).nullable(),
    inside: p.boolean().default(false),
    lastScanAt: p.datetime().nullable(),
    /** When its standing at the gate last changed: a gate's list delta names it. */
    gateChangedAt: p.datetime().nullable(),
  },
});
export class VisitorTicket extends VisitorTicketSchema.class {}
VisitorTicketSchema.setClass(VisitorTicket);

/**
 * One scan of a visitor ticket at a gate (in, out), or a walk-in counted at the day's till (no
 * ticket), kept under the id the device gave it. `result` is what it counts as, replayed per ticket
 * in the order the scans were made, so scans synced late or twice count once and in their place.
 * It names the gate and the staff account, never the visitor; the ticket's deletion leaves it
 * without one, and the edition's counts stay.
 */
const VisitorTicketScanSchema = defineEntity({
  name: 'VisitorTicketScan',
  tableName: 'visitor_ticket_scan',
  indexes: [
    { name: 'visitor_ticket_scan_ticket_index', properties: ['ticket', 'scannedAt', 'id'] },
    { name: 'visitor_ticket_scan_device_index', properties: ['deviceId', 'resultChangedAt'] },
    { name: 'visitor_ticket_scan_edition_index', properties: ['edition', 'kind', 'result'] },
  ],
  properties: {
    id: p.uuid().primary(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    ticket: () => p.manyToOne(VisitorTicket).nullable().deleteRule('set null'),
    kind: p.enum(VISITOR_SCAN_KINDS),
    result: p.enum(VISITOR_SCAN_RESULTS),
    deviceId: p.uuid().nullable(),
    gate: p.string().length(40),
    scannedAt: p.datetime(),
    receivedAt: p.datetime().defaultRaw('now()'),
    resultChangedAt: p.datetime(),
    staff: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});
export class VisitorTicketScan extends VisitorTicketScanSchema.class {}
VisitorTicketScanSchema.setClass(VisitorTicketScan);
