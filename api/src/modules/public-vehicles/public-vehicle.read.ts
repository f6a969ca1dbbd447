import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface PublicList {
  body: string;
  etag: string;
}

/** The public list as served: the read model's rows in listing order, with an ETag over the bytes. */
export async function readPublicList(em: EntityManager): Promise<PublicList> {
  const rows = await em
    .getConnection()
    .execute<{ data: unknown }[]>(`select data from public_vehicle order by listed_at, vehicle_id`);
  const body = JSON.stringify(rows.map((row) => row.data));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag };
}
