import type { MailState } from '../mail-fate.js';

/** One mail about an application, in GET /api/admin/vehicles/:id/emails. */
export interface VehicleMail {
  id: string;
  template: string;
  /** The mail's German name (Eingangsbestätigung, Absage, …). */
  name: string;
  subject: string | null;
  recipient: string;
  state: MailState;
  attempts: number;
  /** The server's answer of a refused or deferred mail, the reason a held one was held. */
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  /** 'Erneut senden' was asked for and the resend has not failed. */
  resent: boolean;
  /** The version of the edition's text it was rendered with (0: the default text); null: not rendered. */
  templateVersion: number | null;
}

export interface VehicleMails {
  mails: VehicleMail[];
}

/**
 * On the owner's own view (GET /api/auth/user): mails to their address are refused. Without the
 * receiving server's answer, which only the staff see.
 */
export interface MailBounced {
  address: string;
  since: string;
}
