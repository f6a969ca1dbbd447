import { defineEntity, p } from '@mikro-orm/core';
import { uuidPk } from './columns.js';

/** What an erasure names: a row's id, or for a retention run the moment it judged by. */
export const ERASURE_KINDS = [
  /** An account and everything that named the person. */
  'account',
  /** A visitor's pre-registration (unsubscribe, which also ends the next edition's consent). */
  'visitor',
  /** An address of the visitors' award with its votes. */
  'award-voter',
  /** A retention run at a moment (`asOf`): running it again at that moment erases the same. */
  'retention',
  /** A consent withdrawn (media, quartett, contact, Instagram). */
  'consent',
  /** An application deleted by its owner. */
  'application',
  /** A photo deleted. */
  'photo',
] as const;
export type ErasureKind = (typeof ERASURE_KINDS)[number];

/**
 * One erasure a restore must not undo, recorded in the erasure's own transaction (ids and moments,
 * never personal data). The worker copies it to the journal in shared storage and sets `storedAt`;
 * a restored database holds the rows of every erasure its snapshot saw.
 */
const ErasureJournalSchema = defineEntity({
  name: 'ErasureJournal',
  tableName: 'erasure_journal',
  properties: {
    id: uuidPk(),
    kind: p.enum(ERASURE_KINDS),
    /** The erased row's id; null for a retention run. */
    subject: p.string().length(64).nullable(),
    /** A retention run's moment. */
    asOf: p.datetime().nullable(),
    /** The database's clock when the row was written, comparable with a backup's snapshot. */
    at: p.datetime().defaultRaw('clock_timestamp()').index(),
    /** When the worker wrote it to the journal in shared storage. */
    storedAt: p.datetime().nullable(),
  },
});

export class ErasureJournal extends ErasureJournalSchema.class {}
ErasureJournalSchema.setClass(ErasureJournal);

/** What was erased: a row by its id, or a retention run by the moment it judged by. */
export type Erasure =
  { kind: Exclude<ErasureKind, 'retention'>; subject: string } | { kind: 'retention'; asOf: string };

/** A journal entry as shared storage holds it: the erasure, its id and its moment (ISO, the database's clock). */
export type ErasureEntry = Erasure & { id: string; at: string };
