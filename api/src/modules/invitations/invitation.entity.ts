import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from '../../db/columns.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';

const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: uuidPk(),
    vehicle: () => p.oneToOne(Vehicle).owner().deleteRule('cascade').unique(),
    /** Unguessable check-in code encoded in the QR code. */
    qrCode: p.string().length(64).unique(),
    startNumber: p.integer().unique(),
    parkingZone: p.string().length(40),
    checkedIn: p.boolean().default(false),
    checkedInAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});

export class Invitation extends InvitationSchema.class {}
InvitationSchema.setClass(Invitation);
