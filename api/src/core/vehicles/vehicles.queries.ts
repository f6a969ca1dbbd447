/**
 * The SQL of the staff lists and the organizers' export: the dashboard's filter (status and search)
 * as one SQL condition shared by the paged list, the counts and the export, the sorts' keyset
 * comparisons, and the statements that read a page's keys, the counts and the export's batches.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { VEHICLE_STATUSES, type AdminVehicleFilter, type AdminVehicleSort } from '@schlosstreffen/shared';
import { AT_MICROS, MICROS } from '../db/micros.js';
import { noWithdrawnConsent } from '../model/consent-state.js';
import { LAST_SUBMISSION_JOIN, SCORE_JOIN } from '../model/review-facts.js';

/** The dashboard's filter: the edition, a status ('all' or one status) and the search. */
export interface ApplicationFilter {
  /** The staff lists show one edition at a time. */
  editionId: string;
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

/** The search on vehicle `v` of the edition: brand, model, or the owner's first or last name contain the text. */
function searchCondition(q: string, editionId: string): Sql | undefined {
  const needle = q.trim();
  if (!needle) return undefined;
  const pattern = `%${escapeLike(needle)}%`;
  // A union of the two searches, so each can use its trigram indexes (an OR across the two tables
  // would scan every vehicle).
  return {
    sql: `v.id in (select x.id from vehicle x where x.edition_id = ? and (x.brand ilike ? or x.model ilike ?)
                   union select x.id from vehicle x join users u on u.id = x.user_id
                          where x.edition_id = ? and (u.first_name ilike ? or u.last_name ilike ?))`,
    params: [editionId, pattern, pattern, editionId, pattern, pattern],
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

const editionCondition = (editionId: string): Sql => ({ sql: 'v.edition_id = ?', params: [editionId] });

/** The filter on vehicle `v` (edition, status and search) as a `where` clause; the export uses it too. */
function applicationWhere(filter: ApplicationFilter, after?: Sql): Sql {
  return whereOf(
    editionCondition(filter.editionId),
    statusCondition(filter.status),
    searchCondition(filter.q, filter.editionId),
    after,
  );
}

/** Per sort: the key columns of vehicle `v`, their order, and the comparison that continues after a row. */
export const SORTS: Record<
  AdminVehicleSort,
  { keys: string[]; casts: string[]; order: string; after: string }
> = {
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

/** The edition's vehicles per status over the search (statuses without any are left out). */
export async function statusCounts(
  em: EntityManager,
  editionId: string,
  q: string,
): Promise<Record<string, number>> {
  const searched = whereOf(editionCondition(editionId), searchCondition(q, editionId));
  const [row] = await em.getConnection().execute<{ counts: Record<string, number> }[]>(
    `select
       (select coalesce(json_object_agg(c.status, c.n), '{}') from
          (select v.status, count(*)::int as n from vehicle v ${searched.sql} group by v.status) c) as counts`,
    searched.params,
  );
  return row!.counts;
}

/**
 * One page of the filtered vehicles in the sort's order, after the row whose sort key is `after`:
 * per row its id, its other sort keys as text (timestamps in microseconds) and its id again.
 */
export async function vehiclePageKeys(
  em: EntityManager,
  filter: ApplicationFilter,
  sortName: AdminVehicleSort,
  after: string[] | undefined,
  limit: number,
): Promise<[string, ...string[]][]> {
  const sort = SORTS[sortName];
  const paged = applicationWhere(filter, after ? { sql: sort.after, params: after } : undefined);
  const [row] = await em.getConnection().execute<{ page: [string, ...string[]][] }[]>(
    `select coalesce(json_agg(json_build_array(p.id, ${sort.keys
      .filter((key) => key !== 'id')
      .map((key) => (key === 'created_at' ? MICROS('p.created_at') : `p.${key}::text`))
      .join(', ')}, p.id) order by ${sort.order}), '[]') as page from
          (select ${sort.keys.map((key) => `v.${key}`).join(', ')} from vehicle v ${paged.sql}
            order by ${sort.order} limit ?) p`,
    [...paged.params, limit],
  );
  return row!.page;
}

/** Every media row of the edition's applications. */
export async function mediaTotal(em: EntityManager, editionId: string): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<{ total: number }[]>(
      `select count(*)::int as total from media m join vehicle v on v.id = m.vehicle_id where v.edition_id = ?`,
      [editionId],
    );
  return row!.total;
}

/** One page of the media library, newest first, after the row (`after`: microseconds, id): id and microseconds. */
export async function mediaPageKeys(
  em: EntityManager,
  editionId: string,
  after: string[] | undefined,
  limit: number,
): Promise<[string, string][]> {
  const [row] = await em.getConnection().execute<{ page: [string, string][] }[]>(
    `select coalesce(json_agg(json_build_array(p.id, ${MICROS('p.created_at')})
                                order by p.created_at desc, p.id desc), '[]') as page
         from (select m.id, m.created_at from media m join vehicle v on v.id = m.vehicle_id
                where v.edition_id = ?
                ${after ? `and (m.created_at, m.id) < (${AT_MICROS}, ?::uuid)` : ''}
                order by m.created_at desc, m.id desc limit ?) p`,
    [editionId, ...(after ?? []), limit],
  );
  return row!.page;
}

/** Rows per statement of the export: memory stays flat however many applications there are. */
export const EXPORT_BATCH = 500;

/**
 * One batch of the organizers' export, filtered like the dashboard, newest first, after the row
 * whose `after_created_at` (text) and id are given.
 */
export function applicationBatch(
  em: EntityManager,
  filter: ApplicationFilter,
  after?: { createdAt: unknown; id: unknown },
): Promise<Array<Record<string, unknown>>> {
  const where = applicationWhere(
    filter,
    after
      ? { sql: '(v.created_at, v.id) < (?::timestamptz, ?::uuid)', params: [after.createdAt, after.id] }
      : undefined,
  );
  return em.getConnection().execute<Array<Record<string, unknown>>>(
    `select v.id, v.status, v.brand, v.model, v.name, v.year, v.color,
              u.first_name, u.last_name, u.email, u.phone,
              sub.submitted_at, s.score,
              i.start_number, i.parking_zone, i.confirm_by, i.release_reason, i.checked_in_at,
              cs.gate as checked_in_gate, v.created_at::text as after_created_at
         from (select v.* from vehicle v ${where.sql}
                order by v.created_at desc, v.id desc limit ${EXPORT_BATCH}) v
         join users u on u.id = v.user_id
         left join invitation i on i.vehicle_id = v.id
         left join check_in_scan cs on cs.id = i.checked_in_scan_id
         ${SCORE_JOIN}
         ${LAST_SUBMISSION_JOIN}
        order by v.created_at desc, v.id desc`,
    where.params,
  );
}

/** An application as the staff's bulk status change previews it: status, title, owner, contact consent. */
export interface BulkStatusRow {
  id: string;
  status: string;
  brand: string;
  model: string;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
  contact_withdrawn: boolean;
  /** Every row the selection matched, whatever the limit. */
  total: number;
}

const BULK_COLUMNS = `v.id, v.status, v.brand, v.model, v.name, u.first_name, u.last_name, u.email,
       (not ${noWithdrawnConsent('v', 'contact')}) as contact_withdrawn, (count(*) over ())::int as total`;

/**
 * The applications of the dashboard's filter (edition, status, search) in the list's default order
 * (newest first), at most `limit`, each with the number of all matches.
 */
export function bulkStatusRowsOfFilter(
  em: EntityManager,
  filter: ApplicationFilter,
  limit: number,
): Promise<BulkStatusRow[]> {
  const where = applicationWhere(filter);
  return em.getConnection().execute<BulkStatusRow[]>(
    `select ${BULK_COLUMNS}
       from vehicle v join users u on u.id = v.user_id
       ${where.sql}
      order by v.created_at desc, v.id desc
      limit ?`,
    [...where.params, limit],
  );
}

/** The edition's applications among `ids` (those of other editions, or gone, are left out). */
export function bulkStatusRowsOfIds(
  em: EntityManager,
  editionId: string,
  ids: readonly string[],
): Promise<BulkStatusRow[]> {
  return em.getConnection().execute<BulkStatusRow[]>(
    `select ${BULK_COLUMNS}
       from vehicle v join users u on u.id = v.user_id
      where v.edition_id = ? and v.id = any(?::uuid[])`,
    // The ids as one array literal: a bound array would be spread into a list.
    [editionId, `{${ids.join(',')}}`],
  );
}

export interface OtherApplicationRow {
  id: string;
  car_id: string;
  title: string;
  status: string;
  year: number;
  edition_name: string;
  score: number | null;
  start_number: number | null;
  checked_in: boolean;
}

/** The owner's applications other than `vehicleId`, newest edition first, with score and arrival. */
export function otherApplications(em: EntityManager, vehicleId: string): Promise<OtherApplicationRow[]> {
  return em.getConnection().execute<OtherApplicationRow[]>(
    `select v.id, v.car_id, v.title, v.status, e.year, e.name as edition_name, s.score,
            i.start_number, (i.checked_in_at is not null) as checked_in
       from vehicle me
       join vehicle v on v.user_id = me.user_id and v.id <> me.id
       join edition e on e.id = v.edition_id
       left join invitation i on i.vehicle_id = v.id
       ${SCORE_JOIN}
      where me.id = ?
      order by e.year desc, v.created_at desc`,
    [vehicleId],
  );
}
