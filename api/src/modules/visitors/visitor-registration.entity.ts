import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from '../../db/columns.js';

const VisitorRegistrationSchema = defineEntity({
  name: 'VisitorRegistration',
  tableName: 'visitor_registration',
  properties: {
    id: uuidPk(),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    email: p.string().length(254).index(),
    phone: p.string().length(40).nullable(),
    createdAt: createdAt(),
  },
});

export class VisitorRegistration extends VisitorRegistrationSchema.class {}
VisitorRegistrationSchema.setClass(VisitorRegistration);
