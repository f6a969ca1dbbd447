import type { EmailTemplateName } from './jobs.js';
import { MAIL_DEFINITIONS, type MailKey } from './mail-templates.js';
import type { VehicleStatus } from './status.js';

/**
 * Which mail a status sends its applicant: the api queues them, the staff's bulk preview announces
 * them (with the subject of the edition's text).
 */

/** The mail each status event sends its applicant; invited issues the invitation, whose job mails it. */
export const STATUS_MAILS: Partial<Record<VehicleStatus, EmailTemplateName>> = {
  submitted: 'application-received',
  waitlist: 'application-waitlist',
  confirmed: 'application-confirmed',
  rejected: 'application-rejected',
};

/** The mail a change to `status` sends (the invitation for invited), or undefined when none. */
export function statusMailOf(status: VehicleStatus): EmailTemplateName | undefined {
  return status === 'invited' ? 'invitation' : STATUS_MAILS[status];
}

/** What the staff see of a status mail before it goes out: its kind and subject. */
export interface StatusMailPreview {
  template: EmailTemplateName;
  kind: string;
  subject: string;
}

const STATUS_MAIL_KINDS: Partial<Record<EmailTemplateName, string>> = {
  'application-received': 'Eingangsbestätigung',
  'application-waitlist': 'Warteliste',
  'application-confirmed': 'Teilnahmebestätigung',
  'application-rejected': 'Absage',
  invitation: 'Einladung mit Startnummer, Parkzone und QR-Code',
};

/** Kind and subject of the mail a change to `status` sends; undefined when it sends none. */
export function statusMailPreview(status: VehicleStatus): StatusMailPreview | undefined {
  const template = statusMailOf(status);
  if (!template) return undefined;
  // The default text's subject; the api's preview fills in the edition's text per owner.
  const subject = MAIL_DEFINITIONS[template as MailKey].subject.replace(/\{[a-z_]+\}/g, '…');
  return { template, kind: STATUS_MAIL_KINDS[template] ?? template, subject };
}
