/**
 * The JSON bodies the API answers with, one type each: the api's presenters are checked against
 * them (`satisfies`) and the web client reads them. Dates travel as ISO strings.
 */
export type * from './account.js';
export type * from './event.js';
export type * from './check-in.js';
export type * from './media.js';
export type * from './vehicles.js';
export type * from './bulk-status.js';
export type * from './mails.js';
export type { StatusHistoryEntry } from '../status.js';
export type * from './privacy.js';
export type * from './editions.js';
export type * from './second-factor.js';
export type * from './reviews.js';
export type * from './award.js';
export type * from './public-texts.js';
export type * from './mail-templates.js';
export type * from './signs.js';
export type * from './jury.js';
export type * from './payments.js';
