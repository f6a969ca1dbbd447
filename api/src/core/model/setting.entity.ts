import { defineEntity, p } from '@mikro-orm/core';
import { updatedAt } from './columns.js';

/** Settings the admin changes at run time (e.g. automatic moving up from the waitlist). */
const SettingSchema = defineEntity({
  name: 'Setting',
  tableName: 'setting',
  properties: {
    key: p.string().length(60).primary(),
    value: p.json<unknown>(),
    updatedAt: updatedAt(),
  },
});

export class Setting extends SettingSchema.class {}
SettingSchema.setClass(Setting);
