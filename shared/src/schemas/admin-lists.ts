import * as v from 'valibot';
import { VEHICLE_STATUSES, type VehicleStatus } from '../status.js';

/**
 * The query parameters of the staff lists (GET /api/admin/vehicles, /api/admin/vehicles.csv and
 * /api/admin/media): status filter, search, sort and keyset paging by an opaque cursor.
 */

/** The dashboard's status filters: every status, or all of them. */
const ADMIN_VEHICLE_FILTERS = ['all', ...VEHICLE_STATUSES] as const;
export type AdminVehicleFilter = 'all' | VehicleStatus;

/** Orders of the staff vehicle list; newest first is the dashboard's. */
export const ADMIN_VEHICLE_SORTS = ['newest', 'oldest', 'brand'] as const;
export type AdminVehicleSort = (typeof ADMIN_VEHICLE_SORTS)[number];

/** Vehicles per page (each carries its media, owner and invitation) and the largest page a client may ask for. */
export const ADMIN_VEHICLE_PAGE = { size: 12, max: 50 } as const;
/** Media library items per page. */
export const ADMIN_MEDIA_PAGE = { size: 48, max: 100 } as const;
const ADMIN_SEARCH_MAX = 200;
const CURSOR_MAX = 600;

export const ADMIN_LIST_MESSAGES = {
  status: 'Unbekannter Statusfilter.',
  sort: 'Unbekannte Sortierung.',
  search: `Der Suchbegriff darf höchstens ${ADMIN_SEARCH_MAX} Zeichen lang sein.`,
  cursor: 'Ungültige Seitenmarke. Bitte laden Sie die Liste neu.',
  limit: (max: number) => `Die Seitengröße muss eine ganze Zahl von 1 bis ${max} sein.`,
} as const;

const cursor = v.optional(
  v.pipe(
    v.string(ADMIN_LIST_MESSAGES.cursor),
    v.maxLength(CURSOR_MAX, ADMIN_LIST_MESSAGES.cursor),
    v.regex(/^[A-Za-z0-9_-]*$/, ADMIN_LIST_MESSAGES.cursor),
  ),
);

const limit = (page: { size: number; max: number }) =>
  v.optional(
    v.pipe(
      v.string(ADMIN_LIST_MESSAGES.limit(page.max)),
      v.regex(/^\d{1,4}$/, ADMIN_LIST_MESSAGES.limit(page.max)),
      v.transform(Number),
      v.minValue(1, ADMIN_LIST_MESSAGES.limit(page.max)),
      v.maxValue(page.max, ADMIN_LIST_MESSAGES.limit(page.max)),
    ),
    String(page.size),
  );

const search = v.optional(
  v.pipe(
    v.string(ADMIN_LIST_MESSAGES.search),
    v.maxLength(ADMIN_SEARCH_MAX, ADMIN_LIST_MESSAGES.search),
    v.transform((text) => text.trim()),
  ),
  '',
);

const status = v.optional(v.picklist(ADMIN_VEHICLE_FILTERS, ADMIN_LIST_MESSAGES.status), 'all');

/** GET /api/admin/vehicles?status=&q=&sort=&cursor=&limit= (query strings; a repeated key is invalid). */
export const AdminVehicleListQuerySchema = v.object({
  status,
  q: search,
  sort: v.optional(v.picklist(ADMIN_VEHICLE_SORTS, ADMIN_LIST_MESSAGES.sort), 'newest'),
  cursor,
  limit: limit(ADMIN_VEHICLE_PAGE),
});

/** GET /api/admin/vehicles.csv?status=&q=: the same filter, every matching application. */
export const AdminVehicleExportQuerySchema = v.object({ status, q: search });

/** GET /api/admin/media?cursor=&limit=: newest first. */
export const AdminMediaListQuerySchema = v.object({ cursor, limit: limit(ADMIN_MEDIA_PAGE) });
