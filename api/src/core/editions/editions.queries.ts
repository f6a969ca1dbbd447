/** The SQL of editions: applications counted per edition. */
import type { EntityManager } from '@mikro-orm/postgresql';

/** Applications per edition id (editions without any are left out). */
export async function applicationsPerEdition(em: EntityManager): Promise<Map<string, number>> {
  const rows = await em
    .getConnection()
    .execute<Array<{ edition_id: string; n: number }>>(
      `select edition_id, count(*)::int as n from vehicle group by edition_id`,
    );
  return new Map(rows.map((row) => [row.edition_id, row.n]));
}
