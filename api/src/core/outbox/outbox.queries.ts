/** The SQL of the outbox relay. */
import type { EntityManager } from '@mikro-orm/postgresql';

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
