import * as v from 'valibot';
import { INVITATION_MESSAGES, QUARTETT_MESSAGES } from '../event-messages.js';
import { GATE_SYNC_MAX_SCANS } from '../gate-window.js';
import { fieldObject } from './issues.js';

/** Body of POST /api/admin/check-in: a check-in code (from the QR code) or a start number. */
export const CheckInSchema = fieldObject({
  code: v.pipe(
    v.string(INVITATION_MESSAGES.codeRequired),
    v.trim(),
    v.nonEmpty(INVITATION_MESSAGES.codeRequired),
    v.maxLength(200, INVITATION_MESSAGES.unknownCode),
  ),
});
export type CheckInInput = v.InferOutput<typeof CheckInSchema>;

/** Body of POST /api/invitations/confirm: the token of the invitation mail's confirm link. */
export const InvitationConfirmSchema = fieldObject({
  token: v.pipe(
    v.string(INVITATION_MESSAGES.confirmLinkInvalid),
    v.trim(),
    v.nonEmpty(INVITATION_MESSAGES.confirmLinkInvalid),
    v.maxLength(300, INVITATION_MESSAGES.confirmLinkInvalid),
  ),
});

/** Body of POST /api/invitations/decline: the token of the 'Teilnahme absagen' link. */
export const InvitationDeclineSchema = fieldObject({
  token: v.pipe(
    v.string(INVITATION_MESSAGES.declineLinkInvalid),
    v.trim(),
    v.nonEmpty(INVITATION_MESSAGES.declineLinkInvalid),
    v.maxLength(300, INVITATION_MESSAGES.declineLinkInvalid),
  ),
});

/** Body of PUT /api/admin/waitlist/settings. */
export const WaitlistSettingsSchema = fieldObject({ autoMoveUp: v.boolean() });

/** Body of POST /api/admin/waitlist/invite: the suggested vehicle to invite. */
export const WaitlistInviteSchema = fieldObject({
  vehicleId: v.pipe(v.string(), v.uuid()),
});

/** Body of POST /api/admin/quartett-sets. */
export const QuartettSetCreateSchema = fieldObject({
  title: v.pipe(
    v.string(QUARTETT_MESSAGES.titleRequired),
    v.trim(),
    v.nonEmpty(QUARTETT_MESSAGES.titleRequired),
    v.maxLength(200, QUARTETT_MESSAGES.titleMax),
  ),
});

/** One scan a gate queued: its own id (a resend is the same scan), the invitation and the device's time. */
export const GateScanSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  invitationId: v.pipe(v.string(), v.uuid()),
  scannedAt: v.pipe(v.string(), v.isoTimestamp()),
});

/** A gate's name ('Tor A'), as the device names itself and the scans carry it. */
export const GateNameSchema = v.pipe(
  v.string(INVITATION_MESSAGES.gateRequired),
  v.trim(),
  v.nonEmpty(INVITATION_MESSAGES.gateRequired),
  v.maxLength(40, INVITATION_MESSAGES.gateMax),
);

/** Body of POST /api/admin/check-in/sync. */
export const GateSyncSchema = fieldObject({
  deviceId: v.pipe(v.string(), v.uuid()),
  gate: GateNameSchema,
  scans: v.pipe(
    v.array(GateScanSchema),
    v.maxLength(GATE_SYNC_MAX_SCANS, INVITATION_MESSAGES.gateSyncMax(GATE_SYNC_MAX_SCANS)),
  ),
});
export type GateSyncInput = v.InferOutput<typeof GateSyncSchema>;
