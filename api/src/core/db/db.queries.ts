/**
 * The SQL of the database as a dependency, and the two ways the queries modules run raw SQL: each
 * statement in the transaction of the entity manager it is given (or on its own outside one).
 */
import type { EntityManager } from '@mikro-orm/postgresql';

/** One round trip: whether the database answers. */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await em.getConnection().execute('select 1');
}

/** The rows a statement returns. */
export function selectRows<T extends object>(
  em: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/** How many rows a statement changed. */
export async function runStatement(em: EntityManager, sql: string, params: unknown[] = []): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(sql, params, 'run', em.getTransactionContext());
  return result.affectedRows;
}
