import { createLinkToken, verifyLinkToken } from '../crypto/link-token.js';

export const CONFIRM_PURPOSE = 'confirm';

/** Token of the invitation mail's confirm link. */
export const createInvitationConfirmToken = (secret: string, invitationId: string) =>
  createLinkToken(secret, 'invitation', CONFIRM_PURPOSE, invitationId);

/** Link in the invitation mail; the page posts its token to /api/invitations/confirm. */
export const invitationConfirmUrl = (publicUrl: string, secret: string, invitationId: string) =>
  `${publicUrl}/einladung?token=${encodeURIComponent(createInvitationConfirmToken(secret, invitationId))}`;

/** The invitation id a confirm token was issued for, or null. */
export const verifyInvitationConfirmToken = (secret: string, token: unknown) =>
  verifyLinkToken(secret, 'invitation', CONFIRM_PURPOSE, token);
