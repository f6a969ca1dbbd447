/** The SQL of the outbox relay and of the erasure journal. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from '../db/db.queries.js';
import type { ErasureEntry, ErasureKind } from '../model/erasure-journal.entity.js';

/** Whether any outbox row waits to be published, in one plain statement. */
export async function anyUnpublished(em: EntityManager): Promise<boolean> {
  const rows = await em
    .getConnection()
    .execute<unknown[]>('select 1 from outbox where published_at is null limit 1');
  return rows.length > 0;
}

/**
 * How long the oldest row that waits to be published has waited, in seconds by the database's
 * clock (so every process reads the same); 0 when none waits. Served by the unpublished rows' index.
 */
export async function oldestUnpublishedAgeSeconds(em: EntityManager): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<{ age: string | number | null }[]>(
      'select extract(epoch from (now() - min(created_at))) as age from outbox where published_at is null',
    );
  return Math.max(0, Number(row?.age ?? 0));
}

type JournalRow = {
  id: string;
  kind: ErasureKind;
  subject: string | null;
  as_of: Date | null;
  at: Date;
};

const entryOf = (row: JournalRow): ErasureEntry => {
  const at = new Date(row.at).toISOString();
  return row.kind === 'retention'
    ? { id: row.id, at, kind: 'retention', asOf: new Date(row.as_of!).toISOString() }
    : { id: row.id, at, kind: row.kind, subject: row.subject! };
};

/** An erasure journal row as its entry; undefined when there is none (pruned). */
export async function journalEntry(em: EntityManager, id: string): Promise<ErasureEntry | undefined> {
  const [row] = await selectRows<JournalRow>(
    em,
    'select id, kind, subject, as_of, at from erasure_journal where id = ?',
    [id],
  );
  return row ? entryOf(row) : undefined;
}

/** Marks a journal entry as written to shared storage. */
export async function markJournalEntryStored(em: EntityManager, id: string): Promise<void> {
  await runStatement(em, 'update erasure_journal set stored_at = now() where id = ? and stored_at is null', [
    id,
  ]);
}

/**
 * How long the oldest journal entry not yet in shared storage has waited, in seconds by the
 * database's clock; 0 when none waits. Erasures within this lag come back if the database is lost.
 */
export async function journalLagSeconds(em: EntityManager): Promise<number> {
  const [row] = await selectRows<{ age: string | number | null }>(
    em,
    'select extract(epoch from (now() - min(at))) as age from erasure_journal where stored_at is null',
  );
  return Math.max(0, Number(row?.age ?? 0));
}

/** The ids of the journal rows from `since` on: the erasures a (restored) database has seen. */
export async function journaledIdsSince(em: EntityManager, since: Date): Promise<Set<string>> {
  const rows = await selectRows<{ id: string }>(em, 'select id from erasure_journal where at >= ?', [since]);
  return new Set(rows.map((row) => row.id));
}

/** Removes journal rows in shared storage since before `before`; returns how many. */
export async function pruneStoredJournalRows(em: EntityManager, before: Date): Promise<number> {
  return runStatement(em, 'delete from erasure_journal where stored_at is not null and at < ?', [before]);
}
