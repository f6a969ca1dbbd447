import { defineEntity, p } from '@mikro-orm/core';
import { uuidPk } from './columns.js';

/**
 * One version of an edition's mail text ('E-Mail-Vorlagen'): every save adds a version, the highest
 * is the one mails use; without any, a mail uses its default text (version 0). `isDefault`: this
 * version restored the default text. `createdBy`: the staff account that saved it (null once gone).
 */
const MailTemplateSchema = defineEntity({
  name: 'MailTemplate',
  tableName: 'mail_template',
  properties: {
    id: uuidPk(),
    editionId: p.uuid(),
    mail: p.string().length(40),
    version: p.integer(),
    subject: p.text(),
    body: p.text(),
    isDefault: p.boolean().default(false),
    createdBy: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});
export class MailTemplate extends MailTemplateSchema.class {}
MailTemplateSchema.setClass(MailTemplate);

/** The version each mail uses of these rows (one edition's): its highest, by mail. */
export function versionsInUse(rows: readonly MailTemplate[]): Map<string, MailTemplate> {
  const inUse = new Map<string, MailTemplate>();
  for (const row of rows) if ((inUse.get(row.mail)?.version ?? 0) < row.version) inUse.set(row.mail, row);
  return inUse;
}
