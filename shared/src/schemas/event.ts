import * as v from 'valibot';
import { INVITATION_MESSAGES, QUARTETT_MESSAGES } from '../event-messages.js';
import { fieldObject } from './issues.js';

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
