import { createLinkToken, verifyLinkToken } from '../crypto/link-token.js';

export const CONFIRM_PURPOSE = 'confirm';
export const DECLINE_PURPOSE = 'decline';

/** An invitation as its mailed links name it: the row and the moment it was issued. */
type Issuance = { id: string; issuedAt: Date };

const issuanceSubject = (invitation: Issuance) => `${invitation.id}_${invitation.issuedAt.getTime()}`;

/** The invitation id and issue moment (ms) a link's subject names, or null. */
function parseIssuance(subject: string | null): { invitationId: string; issuedAtMs: number } | null {
  const match = subject && /^([0-9a-f-]{36})_(\d{1,15})$/.exec(subject);
  return match ? { invitationId: match[1]!, issuedAtMs: Number(match[2]) } : null;
}

/**
 * Token of the invitation mail's confirm link: names the invitation and the moment it was issued,
 * so the link of a place given up earlier cannot confirm the place issued again later.
 */
export const createInvitationConfirmToken = (secret: string, invitation: Issuance) =>
  createLinkToken(secret, 'invitation', CONFIRM_PURPOSE, issuanceSubject(invitation));

/** Link in the invitation mail; the page posts its token to /api/invitations/confirm. */
export const invitationConfirmUrl = (publicUrl: string, secret: string, invitation: Issuance) =>
  `${publicUrl}/einladung?token=${encodeURIComponent(createInvitationConfirmToken(secret, invitation))}`;

/**
 * What a confirm token was issued for: the invitation and its issue moment (ms); a token of the
 * earlier form names the invitation only (`issuedAtMs` null). Null when the token is not ours.
 */
export function verifyInvitationConfirmToken(
  secret: string,
  token: unknown,
): { invitationId: string; issuedAtMs: number | null } | null {
  const subject = verifyLinkToken(secret, 'invitation', CONFIRM_PURPOSE, token);
  if (subject && /^[0-9a-f-]{36}$/.test(subject)) return { invitationId: subject, issuedAtMs: null };
  return parseIssuance(subject);
}

/**
 * Token of the decline link: names the invitation and the moment it was issued, so a link of a
 * place given up earlier cannot decline the place the vehicle holds now.
 */
export const createInvitationDeclineToken = (secret: string, invitation: Issuance) =>
  createLinkToken(secret, 'invitation', DECLINE_PURPOSE, issuanceSubject(invitation));

/** Link in the invitation and reminder mails; the page asks before it posts the token. */
export const invitationDeclineUrl = (publicUrl: string, secret: string, invitation: Issuance) =>
  `${publicUrl}/einladung/absagen?token=${encodeURIComponent(createInvitationDeclineToken(secret, invitation))}`;

/** The invitation id and issue moment (ms) a decline token was made for, or null. */
export const verifyInvitationDeclineToken = (secret: string, token: unknown) =>
  parseIssuance(verifyLinkToken(secret, 'invitation', DECLINE_PURPOSE, token));
