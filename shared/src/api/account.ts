import type { Role } from '../status.js';
import type { MailBounced } from './mails.js';

/** GET /api/auth/user, and the answer of register, login and profile changes: the user's own view. */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  phone: string | null;
  instagramHandle: string | null;
  role: Role;
  consentMedia: boolean;
  consentQuartett: boolean;
  consentContact: boolean;
  emailVerified: boolean;
  /** A new address waiting for its confirmation link to be opened. */
  pendingEmail: string | null;
  /** GET /api/auth/user only: mails to the address are refused by its server (null: they arrive). */
  mailBounced?: MailBounced | null;
  /** GET /api/auth/user only: a judge of the current edition (the 'Jury' screens open). */
  judge?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A vehicle's owner as staff lists show them: contact data, no secrets. */
export interface Owner {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  role: Role;
}

/** Answers that only confirm something (logout, reset mail sent, password changed, …). */
export interface ServerMessage {
  message: string;
  description?: string;
}

/** POST /api/auth/verify-reset-token */
export interface ResetTokenCheck {
  valid: true;
  /** The account the link resets. */
  email: string;
}
