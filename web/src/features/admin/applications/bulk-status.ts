import { bulkResult, STATUS_LABELS, type VehicleStatus } from '@schlosstreffen/shared';
import type { BulkStatusPreview, BulkStatusResult, BulkStatusRowResult } from '@schlosstreffen/shared/api';
import { api } from '../../../lib/api';
import type { StatusFilter } from './dashboard-search';

/**
 * The dashboard's bulk status change, without React: what is selected, the preview's and the
 * change's requests (the change sent in chunks, so the dialog shows its progress), and the German
 * texts of counts and outcomes.
 */

/** Hand-picked cards (id → title), or every hit of a filter and search as the list showed them. */
export type BulkSelection =
  | { kind: 'ids'; ids: ReadonlyMap<string, string> }
  | { kind: 'filter'; status: StatusFilter; q: string; count: number };

export const NO_SELECTION: BulkSelection = { kind: 'ids', ids: new Map() };

export const selectedCount = (selection: BulkSelection): number =>
  selection.kind === 'ids' ? selection.ids.size : selection.count;

/** The selection with the card added or removed. */
export function toggled(selection: BulkSelection, id: string, title: string): BulkSelection {
  const ids = new Map(selection.kind === 'ids' ? selection.ids : []);
  if (ids.has(id)) ids.delete(id);
  else ids.set(id, title);
  return { kind: 'ids', ids };
}

/** The body of POST /api/admin/vehicles/bulk-status/preview. */
export function previewBody(selection: BulkSelection, status: VehicleStatus) {
  return selection.kind === 'ids'
    ? { status, ids: [...selection.ids.keys()] }
    : { status, filter: { status: selection.status, q: selection.q.trim() } };
}

export const fetchBulkPreview = (selection: BulkSelection, status: VehicleStatus) =>
  api.post<BulkStatusPreview>('/api/admin/vehicles/bulk-status/preview', previewBody(selection, status));

/** Rows per request of the change: small enough for steady progress, one request per chunk. */
export const BULK_CHUNK = 50;

export interface BulkProgress {
  done: number;
  total: number;
}

/** A change that stopped part-way: the rows answered so far; the rest may be sent again safely. */
export class BulkApplyError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly answered: BulkStatusRowResult[],
  ) {
    super('bulk status change stopped');
  }
}

/**
 * Sends the change chunk after chunk and reports the progress after each. A failing request stops
 * it with the rows answered so far; sending the rest (or all) again changes nothing twice.
 */
export async function applyInChunks(
  changes: readonly { id: string; oldStatus: VehicleStatus }[],
  status: VehicleStatus,
  comment: string,
  onProgress: (progress: BulkProgress) => void,
  send: (body: unknown) => Promise<BulkStatusResult> = (body) =>
    api.post<BulkStatusResult>('/api/admin/vehicles/bulk-status', body),
): Promise<BulkStatusResult> {
  const rows: BulkStatusRowResult[] = [];
  onProgress({ done: 0, total: changes.length });
  for (let start = 0; start < changes.length; start += BULK_CHUNK) {
    const chunk = changes.slice(start, start + BULK_CHUNK).map(({ id, oldStatus }) => ({ id, oldStatus }));
    try {
      const result = await send({ status, changes: chunk, comment: comment.trim() || null });
      rows.push(...result.rows);
    } catch (error) {
      throw new BulkApplyError(error, rows);
    }
    onProgress({ done: rows.length, total: changes.length });
  }
  return bulkResult(status, rows);
}

const label = (status: VehicleStatus) => `„${STATUS_LABELS[status]}“`;

/** 'Es werden 50 E-Mails versendet an:' and its singular and none. */
export function mailsHeading(mails: number): string {
  if (mails === 0) return 'Es werden keine E-Mails versendet.';
  if (mails === 1) return 'Es wird 1 E-Mail versendet an:';
  return `Es werden ${mails} E-Mails versendet an:`;
}

/** '48 von 50 ausgewählten Bewerbungen werden auf „Warteliste“ gesetzt.' */
export function changesLine(preview: BulkStatusPreview): string {
  const changes = preview.changes.length;
  if (changes === 0) return 'Keine der ausgewählten Bewerbungen ändert sich.';
  const subject =
    changes !== preview.selected
      ? `${changes} von ${preview.selected} ausgewählten Bewerbungen`
      : changes === 1
        ? '1 Bewerbung'
        : `${changes} Bewerbungen`;
  return `${subject} ${changes === 1 ? 'wird' : 'werden'} auf ${label(preview.status)} gesetzt.`;
}

/** '48 geändert, 2 abgelehnt' (and how many stood there already). */
export function resultLine(result: BulkStatusResult): string {
  const parts = [`${result.changed} geändert`];
  if (result.refused) parts.push(`${result.refused} abgelehnt`);
  if (result.unchanged) parts.push(`${result.unchanged} bereits auf ${label(result.status)}`);
  return parts.join(', ');
}

/** '48 E-Mails sind unterwegs.' */
export function mailsLine(result: BulkStatusResult): string {
  if (result.mails === 0) return 'Es wurden keine E-Mails verschickt.';
  return result.mails === 1 ? '1 E-Mail ist unterwegs.' : `${result.mails} E-Mails sind unterwegs.`;
}
