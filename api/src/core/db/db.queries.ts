/** The SQL of the database as a dependency. */
import type { EntityManager } from '@mikro-orm/postgresql';

/** One round trip: whether the database answers. */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await em.getConnection().execute('select 1');
}
