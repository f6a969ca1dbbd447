import { defineEntity, p } from '@mikro-orm/core';
import { uuidPk } from './columns.js';
import { Vehicle } from './vehicle.entity.js';
import { QuartettSet } from './quartett-set.entity.js';

/** A vehicle's card in a quartett set; a released set locks the data of these vehicles. */
const QuartettCardSchema = defineEntity({
  name: 'QuartettCard',
  tableName: 'quartett_card',
  uniques: [{ properties: ['set', 'vehicle'] }, { properties: ['set', 'position'] }],
  properties: {
    id: uuidPk(),
    set: () => p.manyToOne(QuartettSet).deleteRule('cascade'),
    vehicle: () => p.manyToOne(Vehicle).deleteRule('cascade').index(),
    /** A1, A2, … in print order. */
    code: p.string().length(8),
    position: p.integer(),
  },
});

export class QuartettCard extends QuartettCardSchema.class {}
QuartettCardSchema.setClass(QuartettCard);
