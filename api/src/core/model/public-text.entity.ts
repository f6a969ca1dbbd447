import { defineEntity, p } from '@mikro-orm/core';
import type { FaqEntry } from '@schlosstreffen/shared';

/**
 * An edition's public texts as admins edited them ('Texte'): the landing page's introduction, the
 * event details text and the FAQ (its entries in the order shown). Null: the default text. The
 * last change names its editor (a staff account; null once that account is gone).
 */
const PublicTextSchema = defineEntity({
  name: 'PublicText',
  tableName: 'public_text',
  properties: {
    editionId: p.uuid().primary(),
    introduction: p.text().nullable(),
    eventDetails: p.text().nullable(),
    faq: p.json<FaqEntry[]>().nullable(),
    updatedBy: p.uuid().nullable(),
    updatedAt: p.datetime(),
  },
});
export class PublicText extends PublicTextSchema.class {}
PublicTextSchema.setClass(PublicText);
