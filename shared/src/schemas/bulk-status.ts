import * as v from 'valibot';
import { STATUS_LABELS, VEHICLE_STATUSES, type VehicleStatus } from '../status.js';
import { AdminVehicleExportQuerySchema } from './admin-lists.js';
import { fieldObject } from './issues.js';
import type { BulkStatusResult, BulkStatusRowResult } from '../api/bulk-status.js';

/**
 * Staff change the status of many applications at once: a preview of what would change and which
 * mails would go out (POST /api/admin/vehicles/bulk-status/preview), then the change itself, row by
 * row with the old status each row had in the preview (POST /api/admin/vehicles/bulk-status).
 */

/** Applications per request (the preview of a filter, one apply). */
export const BULK_STATUS_MAX = 500;

const label = (status: VehicleStatus) => `„${STATUS_LABELS[status]}“`;

/** German texts of the bulk change: validation, refusals and the reasons per row. */
export const BULK_STATUS_MESSAGES = {
  status: 'Bitte wählen Sie den neuen Status.',
  oldStatus: 'Bisheriger Status ist erforderlich',
  id: 'Ungültige Bewerbungskennung.',
  selection: 'Bitte wählen Sie Bewerbungen aus: einzeln oder alle Treffer des Filters.',
  empty: 'Es ist keine Bewerbung ausgewählt.',
  duplicate: 'Eine Bewerbung ist mehrfach ausgewählt.',
  tooMany: `Höchstens ${BULK_STATUS_MAX} Bewerbungen lassen sich auf einmal ändern. Bitte grenzen Sie die Auswahl ein.`,
  tooManyMatched: (count: number) =>
    `Der Filter trifft ${count} Bewerbungen; höchstens ${BULK_STATUS_MAX} lassen sich auf einmal ändern. Bitte grenzen Sie die Auswahl mit Status oder Suche ein.`,
  comment: 'Interne Notiz muss ein Text sein',
  commentMax: 'Interne Notiz darf höchstens 2000 Zeichen lang sein',
  /** Why a row is left out or refused. */
  alreadyInStatus: (status: VehicleStatus) => `Steht bereits auf ${label(status)}.`,
  stale: (expected: VehicleStatus, now: VehicleStatus) =>
    `Der Status wurde inzwischen geändert: jetzt ${label(now)} statt ${label(expected)}.`,
  notInEdition: 'Diese Bewerbung gibt es in der gewählten Ausgabe nicht (mehr).',
  /** Why a changed row sends no mail. */
  noMailForStatus: (status: VehicleStatus) => `Für ${label(status)} wird keine E-Mail versendet.`,
  contactWithdrawn: 'Keine E-Mail: Die Einwilligung zur Kontaktaufnahme wurde widerrufen.',
} as const;

const StatusSchema = v.picklist(VEHICLE_STATUSES, BULK_STATUS_MESSAGES.status);

const IdSchema = v.pipe(v.string(BULK_STATUS_MESSAGES.id), v.uuid(BULK_STATUS_MESSAGES.id));

const unique = (ids: string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

/**
 * The preview: the target status and either hand-picked `ids` or the dashboard's `filter` (status
 * tab and search; the edition is the request's `?edition=`).
 */
export const BulkStatusPreviewSchema = v.pipe(
  fieldObject({
    status: StatusSchema,
    ids: v.optional(
      v.pipe(
        v.array(IdSchema, BULK_STATUS_MESSAGES.selection),
        v.minLength(1, BULK_STATUS_MESSAGES.empty),
        v.maxLength(BULK_STATUS_MAX, BULK_STATUS_MESSAGES.tooMany),
        v.check(unique, BULK_STATUS_MESSAGES.duplicate),
      ),
    ),
    filter: v.optional(AdminVehicleExportQuerySchema),
  }),
  v.check(
    (input) => (input.ids === undefined) !== (input.filter === undefined),
    BULK_STATUS_MESSAGES.selection,
  ),
);
export type BulkStatusPreviewInput = v.InferOutput<typeof BulkStatusPreviewSchema>;

/** One row of the change: the application and the status it had in the preview. */
export const BulkStatusChangeSchema = fieldObject({
  id: IdSchema,
  oldStatus: v.picklist(VEHICLE_STATUSES, BULK_STATUS_MESSAGES.oldStatus),
});

/** The change: the rows of the preview with their old status, the target status and an internal note. */
export const BulkStatusApplySchema = fieldObject({
  status: StatusSchema,
  changes: v.pipe(
    v.array(BulkStatusChangeSchema, BULK_STATUS_MESSAGES.selection),
    v.minLength(1, BULK_STATUS_MESSAGES.empty),
    v.maxLength(BULK_STATUS_MAX, BULK_STATUS_MESSAGES.tooMany),
    v.check((changes) => unique(changes.map((change) => change.id)), BULK_STATUS_MESSAGES.duplicate),
  ),
  comment: v.pipe(
    v.nullish(
      v.pipe(
        v.string(BULK_STATUS_MESSAGES.comment),
        v.trim(),
        v.maxLength(2000, BULK_STATUS_MESSAGES.commentMax),
      ),
    ),
    v.transform((value) => value || undefined),
  ),
});
export type BulkStatusApply = v.InferOutput<typeof BulkStatusApplySchema>;

/** The answer of a bulk change (or of its chunks together): the rows' outcomes and their counts. */
export function bulkResult(status: VehicleStatus, rows: BulkStatusRowResult[]): BulkStatusResult {
  const count = (outcome: BulkStatusRowResult['outcome']) =>
    rows.filter((row) => row.outcome === outcome).length;
  return {
    status,
    changed: count('changed'),
    unchanged: count('unchanged'),
    refused: count('refused'),
    mails: rows.filter((row) => row.mail).length,
    rows,
  };
}
