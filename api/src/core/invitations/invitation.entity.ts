import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from '../db/columns.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';

const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: uuidPk(),
    vehicle: () => p.oneToOne(Vehicle).owner().deleteRule('cascade').unique(),
    /** Unguessable check-in code encoded in the QR code. */
    qrCode: p.string().length(64).unique(),
    /** From a sequence: unique and never reused, even after a rejection or a rolled-back issue. */
    startNumber: p.integer().unique().defaultRaw(`nextval('invitation_start_number_seq')`),
    parkingZone: p.string().length(40),
    checkedIn: p.boolean().default(false),
    checkedInAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});

export class Invitation extends InvitationSchema.class {}
InvitationSchema.setClass(Invitation);
