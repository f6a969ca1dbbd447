import { createLinkToken, verifyLinkToken } from '../crypto/link-token.js';

export const CONFIRM_PURPOSE = 'confirm';
export const DECLINE_PURPOSE = 'decline';

/** Token of the invitation mail's confirm link. */
export const createInvitationConfirmToken = (secret: string, invitationId: string) =>
  createLinkToken(secret, 'invitation', CONFIRM_PURPOSE, invitationId);

/** Link in the invitation mail; the page posts its token to /api/invitations/confirm. */
export const invitationConfirmUrl = (publicUrl: string, secret: string, invitationId: string) =>
  `${publicUrl}/einladung?token=${encodeURIComponent(createInvitationConfirmToken(secret, invitationId))}`;

/** The invitation id a confirm token was issued for, or null. */
export const verifyInvitationConfirmToken = (secret: string, token: unknown) =>
  verifyLinkToken(secret, 'invitation', CONFIRM_PURPOSE, token);

/**
 * Token of the decline link: names the invitation and the moment it was issued, so a link of a
 * place given up earlier cannot decline the place the vehicle holds now.
 */
export const createInvitationDeclineToken = (secret: string, invitation: { id: string; issuedAt: Date }) =>
  createLinkToken(secret, 'invitation', DECLINE_PURPOSE, `${invitation.id}_${invitation.issuedAt.getTime()}`);

/** Link in the invitation and reminder mails; the page asks before it posts the token. */
export const invitationDeclineUrl = (
  publicUrl: string,
  secret: string,
  invitation: { id: string; issuedAt: Date },
) =>
  `${publicUrl}/einladung/absagen?token=${encodeURIComponent(createInvitationDeclineToken(secret, invitation))}`;

/** The invitation id and issue moment (ms) a decline token was made for, or null. */
export function verifyInvitationDeclineToken(
  secret: string,
  token: unknown,
): { invitationId: string; issuedAtMs: number } | null {
  const subject = verifyLinkToken(secret, 'invitation', DECLINE_PURPOSE, token);
  const match = subject && /^([0-9a-f-]{36})_(\d{1,15})$/.exec(subject);
  return match ? { invitationId: match[1]!, issuedAtMs: Number(match[2]) } : null;
}
