import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ADMIN_LIST_MESSAGES,
  VEHICLE_STATUSES,
  type AdminVehicleFilter,
  type AdminVehicleSort,
} from '@schlosstreffen/shared';
import { AT_MICROS, MICROS } from '../db/micros.js';
import { invalid } from '../errors.js';
import { Media } from '../model/media.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';

/**
 * The staff lists in PostgreSQL: the dashboard's filter (status and search) as one SQL condition
 * shared by the paged list, the counts and the organizers' export, and keyset paging (the cursor
 * carries the sort key of the last row, never an offset).
 */

/** The dashboard's filter: a status ('all' or one status) and the search. */
export interface ApplicationFilter {
  status: AdminVehicleFilter;
  /**
   * Case-insensitive substring of brand, model or the owner's first or last name; empty matches
   * everything.
   */
  q: string;
}

interface Sql {
  sql: string;
  params: unknown[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The search on vehicle `v`: brand, model, or the owner's first or last name contain the text. */
function searchCondition(q: string): Sql | undefined {
  const needle = q.trim();
  if (!needle) return undefined;
  const pattern = `%${escapeLike(needle)}%`;
  // A union of the two searches, so each can use its trigram indexes (an OR across the two tables
  // would scan every vehicle).
  return {
    sql: `v.id in (select x.id from vehicle x where x.brand ilike ? or x.model ilike ?
                   union select x.id from vehicle x join users u on u.id = x.user_id
                          where u.first_name ilike ? or u.last_name ilike ?)`,
    params: [pattern, pattern, pattern, pattern],
  };
}

function statusCondition(status: AdminVehicleFilter): Sql | undefined {
  if (status === 'all' || !VEHICLE_STATUSES.includes(status)) return undefined;
  return { sql: 'v.status = ?', params: [status] };
}

/** `where …` of the given conditions (true when none). */
function whereOf(...conditions: (Sql | undefined)[]): Sql {
  const present = conditions.filter((condition): condition is Sql => condition !== undefined);
  return {
    sql: present.length ? `where ${present.map((condition) => condition.sql).join(' and ')}` : '',
    params: present.flatMap((condition) => condition.params),
  };
}

/** The filter on vehicle `v` (status and search) as a `where` clause; the export uses it too. */
export function applicationWhere(filter: ApplicationFilter, after?: Sql): Sql {
  return whereOf(statusCondition(filter.status), searchCondition(filter.q), after);
}

/** Per sort: the key columns of vehicle `v`, their order, and the comparison that continues after a row. */
const SORTS: Record<AdminVehicleSort, { keys: string[]; casts: string[]; order: string; after: string }> = {
  newest: {
    keys: ['created_at', 'id'],
    casts: ['timestamptz', 'uuid'],
    order: 'created_at desc, id desc',
    after: `(v.created_at, v.id) < (${AT_MICROS}, ?::uuid)`,
  },
  oldest: {
    keys: ['created_at', 'id'],
    casts: ['timestamptz', 'uuid'],
    order: 'created_at asc, id asc',
    after: `(v.created_at, v.id) > (${AT_MICROS}, ?::uuid)`,
  },
  brand: {
    keys: ['brand', 'model', 'id'],
    casts: ['text', 'text', 'uuid'],
    order: 'brand asc, model asc, id asc',
    after: '(v.brand, v.model, v.id) > (?, ?, ?::uuid)',
  },
};

/** Newest first, like the dashboard: the export's order. */
export const NEWEST_FIRST = 'v.created_at desc, v.id desc';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An opaque cursor: the list's name and the sort key of the last row, as base64url JSON. */
export function encodeCursor(list: string, keys: readonly string[]): string {
  return Buffer.from(JSON.stringify([list, ...keys])).toString('base64url');
}

/**
 * The sort key a cursor carries, checked against the list it must belong to; anything else is a
 * 400. Timestamps travel as microseconds, so no precision is lost.
 */
export function decodeCursor(cursor: string, list: string, casts: readonly string[]): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid(ADMIN_LIST_MESSAGES.cursor);
  }
  if (
    !Array.isArray(parsed) ||
    parsed[0] !== list ||
    parsed.length !== casts.length + 1 ||
    !parsed.every((item) => typeof item === 'string' && item.length <= 200)
  ) {
    throw invalid(ADMIN_LIST_MESSAGES.cursor);
  }
  const keys = parsed.slice(1) as string[];
  keys.forEach((key, index) => {
    const cast = casts[index];
    const ok = cast === 'uuid' ? UUID.test(key) : cast === 'timestamptz' ? /^-?\d{1,17}$/.test(key) : true;
    if (!ok) throw invalid(ADMIN_LIST_MESSAGES.cursor);
  });
  return keys;
}

export interface AdminVehiclePageQuery extends ApplicationFilter {
  sort: AdminVehicleSort;
  cursor?: string | undefined;
  limit: number;
}

export interface AdminVehiclePageResult {
  vehicles: Vehicle[];
  counts: Record<AdminVehicleFilter, number>;
  nextCursor: string | null;
}

/**
 * One page of the staff vehicle list: one statement for the counts per status (over the search);
 * beside it, one for the page's ids and then one for the page's vehicles with owner and media. The number of statements does not depend on the number
 * of rows.
 */
export async function adminVehiclePage(
  em: EntityManager,
  query: AdminVehiclePageQuery,
): Promise<AdminVehiclePageResult> {
  const sort = SORTS[query.sort];
  const list = `vehicles:${query.sort}`;
  const after = query.cursor
    ? { sql: sort.after, params: decodeCursor(query.cursor, list, sort.casts) }
    : undefined;
  const searched = whereOf(searchCondition(query.q));
  const paged = applicationWhere(query, after);
  const connection = em.getConnection();
  // The counts scan the search's rows; the page reads a few by index: both at once, on two connections.
  const totals = connection.execute<{ counts: Record<string, number> }[]>(
    `select
       (select coalesce(json_object_agg(c.status, c.n), '{}') from
          (select v.status, count(*)::int as n from vehicle v ${searched.sql} group by v.status) c) as counts`,
    searched.params,
  );
  const rows = (async () => {
    const [row] = await connection.execute<{ page: [string, ...string[]][] }[]>(
      `select coalesce(json_agg(json_build_array(p.id, ${sort.keys
        .filter((key) => key !== 'id')
        .map((key) => (key === 'created_at' ? MICROS('p.created_at') : `p.${key}::text`))
        .join(', ')}, p.id) order by ${sort.order}), '[]') as page from
          (select ${sort.keys.map((key) => `v.${key}`).join(', ')} from vehicle v ${paged.sql}
            order by ${sort.order} limit ?) p`,
      [...paged.params, query.limit + 1],
    );
    const page = row!.page;
    const more = page.length > query.limit;
    const shown = more ? page.slice(0, query.limit) : page;
    const ids = shown.map(([id]) => id);
    const found = ids.length
      ? await em.find(Vehicle, { id: { $in: ids } }, { populate: ['user', 'media'], strategy: 'joined' })
      : [];
    return { more, shown, ids, found };
  })();
  const [[row], { more, shown, ids, found }] = await Promise.all([totals, rows]);
  const byId = new Map<string, Vehicle>(found.map((vehicle) => [vehicle.id, vehicle]));
  const counts = Object.fromEntries(
    (['all', ...VEHICLE_STATUSES] as const).map((status) => [status, 0]),
  ) as Record<AdminVehicleFilter, number>;
  for (const [status, n] of Object.entries(row!.counts)) {
    if (status in counts) counts[status as AdminVehicleFilter] = n;
    counts.all += n;
  }
  const last = shown.at(-1);
  return {
    // A vehicle deleted between the two statements is left out.
    vehicles: ids.flatMap((id) => byId.get(id) ?? []),
    counts,
    nextCursor: more && last ? encodeCursor(list, last.slice(1)) : null,
  };
}

export interface MediaPageResult {
  items: Media[];
  total: number;
  nextCursor: string | null;
}

const MEDIA_LIST = 'media';
const MEDIA_CASTS = ['timestamptz', 'uuid'] as const;

/**
 * One page of the staff media library, newest first: one statement for the total and, beside it,
 * one for the page's ids and one for the media with vehicle and owner.
 */
export async function mediaLibraryPage(
  em: EntityManager,
  query: { cursor?: string | undefined; limit: number },
): Promise<MediaPageResult> {
  const after = query.cursor ? decodeCursor(query.cursor, MEDIA_LIST, MEDIA_CASTS) : undefined;
  const connection = em.getConnection();
  // The total beside the page, on two connections.
  const total = connection.execute<{ total: number }[]>('select count(*)::int as total from media');
  const rows = (async () => {
    const [row] = await connection.execute<{ page: [string, string][] }[]>(
      `select coalesce(json_agg(json_build_array(p.id, ${MICROS('p.created_at')})
                                order by p.created_at desc, p.id desc), '[]') as page
         from (select m.id, m.created_at from media m
                ${after ? `where (m.created_at, m.id) < (${AT_MICROS}, ?::uuid)` : ''}
                order by m.created_at desc, m.id desc limit ?) p`,
      [...(after ?? []), query.limit + 1],
    );
    const page = row!.page;
    const more = page.length > query.limit;
    const shown = more ? page.slice(0, query.limit) : page;
    const ids = shown.map(([id]) => id);
    const found = ids.length
      ? await em.find(
          Media,
          { id: { $in: ids } },
          { populate: ['vehicle', 'vehicle.user'], strategy: 'joined' },
        )
      : [];
    return { more, shown, ids, found };
  })();
  const [[row], { more, shown, ids, found }] = await Promise.all([total, rows]);
  const byId = new Map<string, Media>(found.map((media) => [media.id, media]));
  const last = shown.at(-1);
  return {
    items: ids.flatMap((id) => byId.get(id) ?? []),
    total: row!.total,
    nextCursor: more && last ? encodeCursor(MEDIA_LIST, [last[1], last[0]]) : null,
  };
}
