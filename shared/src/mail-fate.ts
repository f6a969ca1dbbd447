import type { EmailTemplateName } from './jobs.js';
import { isMailKey, MAIL_DEFINITIONS } from './mail-templates.js';

/**
 * What became of a mail, as the staff see it in the application's 'E-Mails' block: accepted by the
 * receiving server, deferred and retried, refused for good (with the server's answer; the address is
 * marked only when the server refused the recipient), or held back because the address bounced
 * before. 'wird gesendet' while it waits for the worker.
 */
/**
 * Mails a person asks for right now and that carry the link proving the address: tried even when
 * the address is marked as bounced (the person is waiting for it). Every other mail to a marked
 * address is held back.
 */
export const REQUESTED_MAIL_TEMPLATES: ReadonlySet<EmailTemplateName> = new Set<EmailTemplateName>([
  'account-confirm',
  'password-reset',
  'email-change-confirm',
  'visitor-confirmation',
]);

export const MAIL_STATES = ['pending', 'sent', 'deferred', 'refused', 'held', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export const MAIL_STATE_LABELS: Record<MailState, string> = {
  pending: 'wird gesendet',
  sent: 'zugestellt',
  deferred: 'wird erneut versucht',
  refused: 'abgelehnt',
  held: 'zurückgehalten',
  failed: 'fehlgeschlagen',
};

/** A mail's German name, as 'E-Mail-Vorlagen' lists it (Eingangsbestätigung, Absage, …). */
export const applicationMailName = (template: string): string =>
  isMailKey(template) ? MAIL_DEFINITIONS[template].label : template;

export const MAIL_FATE_MESSAGES = {
  mailNotFound: 'Diese E-Mail gibt es nicht (mehr).',
  resendPending: 'Diese E-Mail wurde bereits erneut gesendet.',
  resendGone: 'Diese E-Mail kann nicht mehr erneut gesendet werden: ihr Inhalt ist nicht mehr gespeichert.',
  resendNoContact: 'Der Halter hat die Einwilligung zur Kontaktaufnahme widerrufen.',
  resendUnconfirmed: 'Die E-Mail-Adresse des Halters ist nicht bestätigt.',
  resendBounced: (address: string) =>
    `E-Mails an ${address} werden abgelehnt. Erneut senden ist möglich, sobald der Halter seine Adresse korrigiert hat.`,
  resent: 'Die E-Mail wird erneut gesendet.',
} as const;

/**
 * The owner's dashboard notice while mails to their address are held back: German only; the
 * receiving server's own answer is for the staff's view.
 */
export const mailBouncedNotice = (address: string): string =>
  `Die E-Mail an ${address} wurde vom Empfänger-Server abgelehnt. Bitte korrigieren Sie Ihre E-Mail-Adresse im Profil.`;
