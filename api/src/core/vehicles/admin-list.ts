import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ADMIN_LIST_MESSAGES,
  VEHICLE_STATUSES,
  type AdminVehicleFilter,
  type AdminVehicleSort,
} from '@schlosstreffen/shared';
import { invalid } from '../errors.js';
import { Media } from '../model/media.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import {
  mediaPageKeys,
  mediaTotal,
  SORTS,
  statusCounts,
  vehiclePageKeys,
  type ApplicationFilter,
} from './vehicles.queries.js';

/**
 * The staff lists: keyset paging (the cursor carries the sort key of the last row, never an
 * offset) over the statements in vehicles.queries.ts, the filter and counts shared with the export.
 */

export type { ApplicationFilter } from './vehicles.queries.js';

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
  // A cursor continues the list of its edition and order only.
  const list = `vehicles:${query.editionId}:${query.sort}`;
  const after = query.cursor ? decodeCursor(query.cursor, list, sort.casts) : undefined;
  // The counts scan the search's rows; the page reads a few by index: both at once, on two connections.
  const totals = statusCounts(em, query.editionId, query.q);
  const rows = (async () => {
    const page = await vehiclePageKeys(em, query, query.sort, after, query.limit + 1);
    const more = page.length > query.limit;
    const shown = more ? page.slice(0, query.limit) : page;
    const ids = shown.map(([id]) => id);
    const found = ids.length
      ? await em.find(Vehicle, { id: { $in: ids } }, { populate: ['user', 'media'], strategy: 'joined' })
      : [];
    return { more, shown, ids, found };
  })();
  const [perStatus, { more, shown, ids, found }] = await Promise.all([totals, rows]);
  const byId = new Map<string, Vehicle>(found.map((vehicle) => [vehicle.id, vehicle]));
  const counts = Object.fromEntries(
    (['all', ...VEHICLE_STATUSES] as const).map((status) => [status, 0]),
  ) as Record<AdminVehicleFilter, number>;
  for (const [status, n] of Object.entries(perStatus)) {
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
  editionId: string,
  query: { cursor?: string | undefined; limit: number },
): Promise<MediaPageResult> {
  const after = query.cursor ? decodeCursor(query.cursor, MEDIA_LIST, MEDIA_CASTS) : undefined;
  // The total beside the page, on two connections.
  const total = mediaTotal(em, editionId);
  const rows = (async () => {
    const page = await mediaPageKeys(em, editionId, after, query.limit + 1);
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
  const [count, { more, shown, ids, found }] = await Promise.all([total, rows]);
  const byId = new Map<string, Media>(found.map((media) => [media.id, media]));
  const last = shown.at(-1);
  return {
    items: ids.flatMap((id) => byId.get(id) ?? []),
    total: count,
    nextCursor: more && last ? encodeCursor(MEDIA_LIST, [last[1], last[0]]) : null,
  };
}
