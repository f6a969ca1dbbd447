import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { Vehicle } from './vehicle.entity.js';

/** Why a place was given up: unconfirmed past its date, declined by the owner, or revoked by staff. */
export const RELEASE_REASONS = ['lapsed', 'declined', 'revoked'] as const;
export type ReleaseReason = (typeof RELEASE_REASONS)[number];

const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  uniques: [{ properties: ['edition', 'startNumber'] }],
  properties: {
    id: uuidPk(),
    vehicle: () => p.oneToOne(Vehicle).owner().deleteRule('cascade').unique(),
    /** The vehicle's edition: its gate list is the only one the code opens. */
    edition: () => p.manyToOne(Edition),
    /** Unguessable check-in code encoded in the QR code. */
    qrCode: p.string().length(64).unique(),
    /** Counted per edition (its `nextStartNumber`): unique in the edition and never given twice. */
    startNumber: p.integer(),
    parkingZone: p.string().length(40),
    checkedIn: p.boolean().default(false),
    checkedInAt: p.datetime().nullable(),
    /** The earliest scan of this car (its gate and time): it won against any later one. */
    checkedInScanId: p.uuid().nullable(),
    /** When this place was given (a vehicle invited again gets a new number, zone and date). */
    issuedAt: p.datetime().defaultRaw('now()'),
    /** Unconfirmed by then, the invitation lapses; null for invitations issued before deadlines. */
    confirmBy: p.datetime().nullable(),
    /** When the reminder mail was queued; set once. */
    remindedAt: p.datetime().nullable(),
    /** When the place was given up, and why; the start number stays taken. */
    releasedAt: p.datetime().nullable(),
    releaseReason: p.enum(RELEASE_REASONS).nullable(),
    /** When the given-up place went to a vehicle from the waitlist (each place is passed on once). */
    passedOnAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});

export class Invitation extends InvitationSchema.class {}
InvitationSchema.setClass(Invitation);
