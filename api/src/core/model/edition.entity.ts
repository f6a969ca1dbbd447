import { defineEntity, p } from '@mikro-orm/core';
import type { EditionFee, VisitorTickets } from '@schlosstreffen/shared';
import { createdAt, updatedAt, uuidPk } from './columns.js';

/** A parking zone of an edition, in order of allocation. */
export interface ParkingZone {
  name: string;
  capacity: number;
}

/**
 * One meeting: the Schlosstreffen of a year. Its phase follows from its moments and
 * whether a later edition is current (`editionPhaseAt` of shared); the current edition (the public
 * site's) is the one whose `currentFrom` came last.
 */
const EditionSchema = defineEntity({
  name: 'Edition',
  tableName: 'edition',
  properties: {
    id: uuidPk(),
    year: p.integer().unique(),
    name: p.string().length(100),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    /** Scans count from here to `endsAt` (a clock tolerance either side). */
    gateOpensAt: p.datetime(),
    place: p.string().length(200),
    /** When applications open; null while the edition is in preparation. */
    applicationsOpenAt: p.datetime().nullable(),
    /** The last day of applications, `YYYY-MM-DD` at the venue. */
    applicationDeadline: p.string().length(10),
    parkingZones: p.json<ParkingZone[]>(),
    confirmDays: p.integer(),
    cutoffDays: p.integer(),
    reminderDays: p.integer(),
    /** From this moment on the public site shows this edition (until a later one's moment). */
    currentFrom: p.datetime().nullable(),
    /** The start number the edition gives next (taken under the row's lock: never given twice). */
    nextStartNumber: p.integer().default(1),
    /** How many reviewers each submitted application gets. */
    reviewersPerApplication: p.integer().default(2),
    /** 'Teilnahmegebühr': amount, account, days to pay, refund rule; null: no fee. */
    fee: p.json<EditionFee>().nullable(),
    /** 'Besuchertickets': the visitor capacity; null: pre-registration without tickets. */
    visitorTickets: p.json<VisitorTickets>().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export class Edition extends EditionSchema.class {}
EditionSchema.setClass(Edition);
