import { journalEntry, markJournalEntryStored, type ErasureJournalStore } from '@schlosstreffen/api/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobHandler } from '../dispatch.js';

export interface JournalErasureDeps {
  em: EntityManager;
  /** The journal in shared storage; none configured (no BACKUP_S3_*, no BACKUP_DIR): nothing to write. */
  journal?: ErasureJournalStore;
}

/**
 * Copies one erasure journal entry to the journal in shared storage, then marks its row stored (the
 * lag metric reads the rows not stored yet). Writing the same entry again writes the same object.
 */
export function createJournalErasure(deps: JournalErasureDeps): JobHandler<'erasure.journal'> {
  return async ({ entryId }) => {
    const em = deps.em.fork();
    const entry = await journalEntry(em, entryId);
    if (!entry) return { status: 'gone' };
    if (deps.journal) await deps.journal.put(entry);
    await markJournalEntryStored(em, entryId);
    return { status: deps.journal ? 'stored' : 'no journal configured' };
  };
}
