import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from '../../db/columns.js';

const QuartettSetSchema = defineEntity({
  name: 'QuartettSet',
  tableName: 'quartett_set',
  properties: {
    id: uuidPk(),
    title: p.string().length(200),
    version: p.integer().unique(),
    cardCount: p.integer().default(0),
    rulesUrl: p.string().nullable(),
    designTemplate: p.string().nullable(),
    exportFileUrl: p.string().nullable(),
    createdAt: createdAt(),
  },
});

export class QuartettSet extends QuartettSetSchema.class {}
QuartettSetSchema.setClass(QuartettSet);
