import * as v from 'valibot';
import { STATUS_LABELS, VEHICLE_STATUSES, type VehicleStatus } from '../status.js';
import { fieldObject } from './issues.js';

/**
 * An admin's correction of a past edition's record (POST /api/admin/vehicles/:id/correction): a
 * wrong status, or whether a confirmed car came through the gate, always with a reason. It lands in
 * the status log (kind 'correction', the reason its note) and in the audit log.
 */

/** The shortest reason a correction takes, and the longest. */
export const CORRECTION_REASON = { min: 10, max: 2000 } as const;

/** The check-in as the record and the owner's dashboard name it after the meeting. */
export const CHECK_IN_OUTCOME_LABELS = { true: 'Eingecheckt', false: 'Nicht erschienen' } as const;
export const checkInOutcomeLabel = (checkedIn: boolean): string => CHECK_IN_OUTCOME_LABELS[`${checkedIn}`];

export const CORRECTION_MESSAGES = {
  reason: `Bitte geben Sie einen Grund für die Korrektur an (mindestens ${CORRECTION_REASON.min} Zeichen).`,
  reasonMax: `Der Grund darf höchstens ${CORRECTION_REASON.max} Zeichen lang sein.`,
  status: 'Ungültiger Status',
  checkedIn: 'Bitte geben Sie an, ob das Fahrzeug eingecheckt war (ja oder nein).',
  nothing: 'Die Korrektur ändert nichts: Status und Check-in sind bereits so erfasst.',
  notOver: (name: string) =>
    `${name} ist noch nicht vorbei: Ändern Sie den Status wie gewohnt über „Status aktualisieren“.`,
  checkInNeedsConfirmed:
    'Den Check-in gibt es nur für ein bestätigtes Fahrzeug mit Einladung. Korrigieren Sie zuerst den Status.',
  /** The status log's note: what the check-in now is, then the reason. */
  note: (reason: string, checkedIn: boolean | undefined) =>
    checkedIn === undefined ? reason : `Check-in: ${checkInOutcomeLabel(checkedIn)}\n${reason}`,
  done: 'Korrektur gespeichert',
  /** The status log entry's title. */
  entry: 'Korrektur',
  statusChange: (from: VehicleStatus, to: VehicleStatus) => `${STATUS_LABELS[from]} → ${STATUS_LABELS[to]}`,
} as const;

export const CorrectionSchema = fieldObject({
  status: v.optional(v.picklist(VEHICLE_STATUSES, CORRECTION_MESSAGES.status)),
  checkedIn: v.optional(v.boolean(CORRECTION_MESSAGES.checkedIn)),
  reason: v.pipe(
    v.string(CORRECTION_MESSAGES.reason),
    v.trim(),
    v.minLength(CORRECTION_REASON.min, CORRECTION_MESSAGES.reason),
    v.maxLength(CORRECTION_REASON.max, CORRECTION_MESSAGES.reasonMax),
  ),
});
export type Correction = v.InferOutput<typeof CorrectionSchema>;
