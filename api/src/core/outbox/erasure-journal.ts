/**
 * The erasure journal: every erasure a restore must not undo (account deletions, unsubscribes,
 * voter deletions, retention runs, consent withdrawals, deleted applications and photos) is written
 * in the erasure's own transaction, as a row and the outbox job `erasure.journal`; an erasure
 * refused by a rule rolls back and writes nothing. The worker copies each entry to shared storage
 * (storage/erasure-journal-store.ts), one object per entry, so every host's erasures land in one
 * journal; a restore replays, in order, the entries its snapshot did not see. Entries hold ids and
 * moments, never personal data.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ErasureJournal, type Erasure, type ErasureEntry } from '../model/erasure-journal.entity.js';
import { enqueue } from './outbox.js';

/** The entry a restore is replaying: the erasure it causes is recorded under the entry's own id. */
const replaying = new AsyncLocalStorage<ErasureEntry>();

/** Runs the replay of `entry`: what it erases is journaled as that entry, which shared storage holds already. */
export function replayingErasure<T>(entry: ErasureEntry, run: () => Promise<T>): Promise<T> {
  return replaying.run(entry, run);
}

/**
 * Records an erasure in the caller's unit of work, committed with it: a journal row and the job that
 * copies it to shared storage. While a restore replays an entry, that entry's row instead (marked
 * stored), so a backup of the restored database knows the erasure was made.
 */
export function journalErasure(em: EntityManager, erasure: Erasure): void {
  const fields = {
    kind: erasure.kind,
    subject: erasure.kind === 'retention' ? null : erasure.subject,
    asOf: erasure.kind === 'retention' ? new Date(erasure.asOf) : null,
  };
  const replayed = replaying.getStore();
  if (replayed) {
    em.create(ErasureJournal, {
      ...fields,
      id: replayed.id,
      at: new Date(replayed.at),
      storedAt: new Date(),
    });
    return;
  }
  const row = em.create(ErasureJournal, fields);
  enqueue(em, 'erasure.journal', { entryId: row.id });
}
