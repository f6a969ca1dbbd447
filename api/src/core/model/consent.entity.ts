import { defineEntity, p } from '@mikro-orm/core';
import { CONSENT_KINDS, CONSENT_SOURCES, type ConsentSource } from '@schlosstreffen/shared';
import { uuidPk } from './columns.js';
import { Vehicle } from './vehicle.entity.js';
import { User } from './user.entity.js';

/** One consent of one person for one vehicle: when, under which wording, from where; withdrawable. */
const ConsentSchema = defineEntity({
  name: 'Consent',
  tableName: 'consent',
  properties: {
    id: uuidPk(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    vehicle: () => p.manyToOne(Vehicle).nullable().deleteRule('cascade').index(),
    kind: p.enum(CONSENT_KINDS),
    /** Version of the wording (CONSENTS[kind].version) and the wording itself, as shown. */
    version: p.string().length(20),
    wording: p.text(),
    source: p.enum(Object.keys(CONSENT_SOURCES) as ConsentSource[]),
    grantedAt: p.datetime(),
    withdrawnAt: p.datetime().nullable(),
  },
});

export class Consent extends ConsentSchema.class {}
ConsentSchema.setClass(Consent);
