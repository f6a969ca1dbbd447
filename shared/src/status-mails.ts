import type { EmailTemplateName } from './jobs.js';
import type { VehicleStatus } from './status.js';

/**
 * Which mail a status sends its applicant, and the mails' subjects: the api queues them, the worker
 * renders them under these subjects, the staff's bulk preview announces them.
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

/** Subjects of the application mails (German; the applicant is addressed with du). */
export const APPLICATION_MAIL_SUBJECTS = {
  'application-received': 'Deine Bewerbung ist eingegangen – Schlosstreffen',
  'application-waitlist': 'Du stehst auf der Warteliste – Schlosstreffen',
  'application-confirmed': 'Deine Teilnahme ist bestätigt – Schlosstreffen',
  'application-rejected': 'Deine Bewerbung beim Schlosstreffen',
} as const satisfies Partial<Record<EmailTemplateName, string>>;

/** The invitation's subject names the start number, which its job gives. */
export const invitationMailSubject = (startNumber: number | string): string =>
  `Deine Einladung zum Schlosstreffen – Startnummer ${startNumber}`;

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
  const subject =
    template === 'invitation'
      ? invitationMailSubject('…')
      : APPLICATION_MAIL_SUBJECTS[template as keyof typeof APPLICATION_MAIL_SUBJECTS];
  return { template, kind: STATUS_MAIL_KINDS[template] ?? template, subject };
}
