import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BULK_STATUS_MAX,
  BULK_STATUS_MESSAGES,
  personLabel,
  REVIEW_MESSAGES,
  statusMailPreview,
  vehicleDisplayName,
  type AdminVehicleFilter,
  type ReviewConflictKind,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type {
  BulkStatusPreview,
  BulkStatusPreviewRow,
  BulkStatusRowResult,
  BulkStatusSkippedRow,
} from '@schlosstreffen/shared/api';
import { invalid } from '../errors.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import { announcedSubjects } from '../texts/mail-templates.js';
import { holdsPlace } from '../invitations/places.js';
import { consentWithdrawn } from '../model/consent-state.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { conflictsOn } from '../reviews/reviews.js';
import { authorizeStaff, conflictWith } from '../vehicle-policy.js';
import { bulkStatusRowsOfFilter, bulkStatusRowsOfIds, type BulkStatusRow } from './vehicles.queries.js';

/**
 * Staff change the status of many applications of one edition at once. The preview reads what each
 * row would do (the mail, to whom, or why it is left out); the change then runs row by row, each in
 * a transaction of its own with the old status the preview showed, exactly as a single change does:
 * its status-log row, its effects through the outbox, the public list. A row whose status has moved
 * on is refused alone; one already in the target status is left as it is (a request sent again
 * changes and mails nothing a second time).
 */

/** The hand-picked applications, or every hit of the dashboard's filter. */
export type BulkSelection =
  { ids: readonly string[] } | { filter: { status: AdminVehicleFilter; q: string } };

/** Why a row of the staff member's own application, or of a person they are biased towards, is left out. */
const conflictReason = (conflict: ReviewConflictKind) =>
  conflict === 'own' ? REVIEW_MESSAGES.conflictBulkOwn : REVIEW_MESSAGES.conflictBulkBias;

/** What a change to `target` would mail this row's owner; null with the reason when nothing. */
function mailOf(
  target: VehicleStatus,
  contactWithdrawn: boolean,
  subject: string,
): Pick<BulkStatusPreviewRow, 'mail' | 'noMail'> {
  const mail = statusMailPreview(target);
  if (!mail) return { mail: null, noMail: BULK_STATUS_MESSAGES.noMailForStatus(target) };
  if (contactWithdrawn) return { mail: null, noMail: BULK_STATUS_MESSAGES.contactWithdrawn };
  return { mail: { ...mail, subject }, noMail: null };
}

/** The preview of changing the selection of the edition to `target` by `user`; nothing is written. */
export async function previewBulkStatus(
  em: EntityManager,
  user: User,
  editionId: string,
  target: VehicleStatus,
  selection: BulkSelection,
  at: Date,
): Promise<BulkStatusPreview> {
  // An edition that is over changes no status: nothing to preview.
  await assertEditionOpenForChanges(em, editionId, at, 'staff');
  let rows: BulkStatusRow[];
  const skipped: BulkStatusSkippedRow[] = [];
  let selected: number;
  if ('filter' in selection) {
    rows = await bulkStatusRowsOfFilter(
      em,
      { editionId, status: selection.filter.status, q: selection.filter.q },
      BULK_STATUS_MAX + 1,
    );
    selected = rows[0]?.total ?? 0;
    if (selected > BULK_STATUS_MAX) throw invalid(BULK_STATUS_MESSAGES.tooManyMatched(selected));
  } else {
    const found = new Map(
      (await bulkStatusRowsOfIds(em, editionId, selection.ids)).map((row) => [row.id, row]),
    );
    rows = [];
    for (const id of selection.ids) {
      const row = found.get(id.toLowerCase());
      if (row) rows.push(row);
      else skipped.push({ id, title: null, status: null, reason: BULK_STATUS_MESSAGES.notInEdition });
    }
    selected = selection.ids.length;
  }

  // Each owner's subject as the edition's text of that mail stands now.
  const template = statusMailPreview(target)?.template;
  const subjectOf = template ? await announcedSubjects(em, editionId, template) : () => '';
  const changes: BulkStatusPreviewRow[] = [];
  const conflicts = await conflictsOn(
    em,
    user,
    rows.map((row) => row.id),
  );
  for (const row of rows) {
    const status = row.status as VehicleStatus;
    const title = vehicleDisplayName(row);
    const conflict = conflicts.get(row.id);
    if (conflict) {
      skipped.push({ id: row.id, title, status, reason: conflictReason(conflict) });
      continue;
    }
    if (status === target) {
      skipped.push({ id: row.id, title, status, reason: BULK_STATUS_MESSAGES.alreadyInStatus(target) });
      continue;
    }
    changes.push({
      id: row.id,
      title,
      oldStatus: status,
      owner: {
        name: personLabel({ firstName: row.first_name, lastName: row.last_name, email: row.email }),
        email: row.email,
      },
      ...mailOf(
        target,
        row.contact_withdrawn,
        subjectOf({ firstName: row.first_name ?? '', vehicleTitle: title }),
      ),
    });
  }
  return {
    status: target,
    selected,
    changes,
    skipped,
    mails: changes.filter((change) => change.mail).length,
    placesFreed: holdsPlace(target) ? 0 : changes.filter((change) => holdsPlace(change.oldStatus)).length,
  };
}

export interface BulkChange {
  id: string;
  oldStatus: VehicleStatus;
}

/** The bulk change's options for every row. */
export interface BulkChangeOptions {
  editionId: string;
  status: VehicleStatus;
  comment?: string | undefined;
}

/**
 * One row of a bulk change, in the caller's transaction: the vehicle locked and checked against the
 * edition, the target and the old status. Returns the vehicle to change, or the row's answer when
 * it is not to change (not in the edition, there already, moved on since the preview).
 */
export async function lockBulkRow(
  em: EntityManager,
  user: User,
  row: BulkChange,
  options: BulkChangeOptions,
): Promise<{ vehicle: Vehicle } | { result: BulkStatusRowResult }> {
  const vehicle = await em.findOne(
    Vehicle,
    { id: row.id, edition: options.editionId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!vehicle) {
    const reason = BULK_STATUS_MESSAGES.notInEdition;
    return { result: { id: row.id, title: null, outcome: 'refused', status: null, reason, mail: false } };
  }
  const answer = (outcome: 'unchanged' | 'refused', reason: string) => ({
    result: {
      id: vehicle.id,
      title: vehicleDisplayName(vehicle),
      outcome,
      status: vehicle.status,
      reason,
      mail: false,
    },
  });
  // Nobody changes the status of their own application or of a person they are biased towards.
  const conflict = await conflictWith(em, user, vehicle.user.id);
  if (conflict) return answer('refused', conflictReason(conflict));
  await authorizeStaff(em, user, 'setAnyStatus', vehicle);
  // Already there (this request sent again, or someone else was quicker): nothing to write or mail.
  if (vehicle.status === options.status) {
    return answer('unchanged', BULK_STATUS_MESSAGES.alreadyInStatus(options.status));
  }
  if (vehicle.status !== row.oldStatus) {
    return answer('refused', BULK_STATUS_MESSAGES.stale(row.oldStatus, vehicle.status));
  }
  return { vehicle };
}

/** The answer of a row that changed: whether its change mailed the owner (as status-effects.ts decides). */
export async function changedRow(em: EntityManager, vehicle: Vehicle): Promise<BulkStatusRowResult> {
  const mail =
    statusMailPreview(vehicle.status) !== undefined && !(await consentWithdrawn(em, vehicle.id, 'contact'));
  return {
    id: vehicle.id,
    title: vehicleDisplayName(vehicle),
    outcome: 'changed',
    status: vehicle.status,
    reason: null,
    mail,
  };
}
