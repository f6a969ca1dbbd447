/** The SQL of the outbox relay. */
import type { EntityManager } from '@mikro-orm/postgresql';

/** Whether any outbox row waits to be published, in one plain statement. */
export async function anyUnpublished(em: EntityManager): Promise<boolean> {
  const rows = await em
    .getConnection()
    .execute<unknown[]>('select 1 from outbox where published_at is null limit 1');
  return rows.length > 0;
}
