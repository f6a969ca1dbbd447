import * as v from 'valibot';

/**
 * Personal data: the consents of the application, what withdrawing each one means, the retention
 * periods and the German texts of the self-service pages.
 */

export const CONSENT_KINDS = ['media', 'quartett', 'contact', 'instagram'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];
/** The consents every submission of an application gives (the wizard's required checkboxes). */
export const SUBMISSION_CONSENT_KINDS = [
  'media',
  'quartett',
  'contact',
] as const satisfies readonly ConsentKind[];
export type SubmissionConsentKind = (typeof SUBMISSION_CONSENT_KINDS)[number];

/**
 * The consents of the application wizard's last step, exactly as shown. `version` names the wording:
 * a changed text gets a new version, so every recorded consent says what was agreed to.
 */
export const CONSENTS = {
  media: {
    field: 'consentMedia',
    version: '2026-01',
    label: 'Mediennutzung',
    text: 'Ich willige ein, dass die Bilder meines Fahrzeugs auf der Website und in den sozialen Medien des Schlosstreffens veröffentlicht werden dürfen.',
    /** What withdrawing it does, as the profile states before and carries out after. */
    withdrawal:
      'Dein Fahrzeug verschwindet von der öffentlichen Startseite, und wir verwenden seine Bilder nicht mehr für neue Veröffentlichungen.',
  },
  quartett: {
    field: 'consentQuartett',
    version: '2026-01',
    label: 'Auto-Quartett',
    text: 'Ich willige ein, dass mein Fahrzeug mit seinen technischen Daten, Bildern und meinem Namen im Auto-Quartett des Schlosstreffens erscheint.',
    withdrawal:
      'Dein Fahrzeug kommt in keinen künftigen Druck des Auto-Quartetts mehr. Bereits gedruckte Karten können wir nicht zurückholen.',
  },
  contact: {
    field: 'consentContact',
    version: '2026-01',
    label: 'Kontaktaufnahme',
    text: 'Ich willige ein, dass mich das Team des Schlosstreffens zu meiner Bewerbung kontaktieren darf.',
    withdrawal:
      'Wir schreiben dir keine E-Mails mehr zu deiner Bewerbung (auch keine Einladung); den Stand siehst du weiter im Dashboard. Nur Mails, die du selbst anforderst (Passwort, E-Mail-Änderung, Datenexport, Kontolöschung), erhältst du weiterhin.',
  },
  /** Optional, off until the owner gives it for a confirmed car: its page shows their Instagram name. */
  instagram: {
    field: 'consentInstagram',
    version: '2026-01',
    label: 'Instagram-Namen auf der Fahrzeugseite zeigen',
    text: 'Ich willige ein, dass mein Instagram-Name auf der öffentlichen Seite meines Fahrzeugs beim Schlosstreffen gezeigt wird.',
    withdrawal: 'Die Seite deines Fahrzeugs zeigt deinen Instagram-Namen nicht mehr.',
  },
} as const satisfies Record<
  ConsentKind,
  { field: string; version: string; label: string; text: string; withdrawal: string }
>;

/** Where a consent was given. */
export const CONSENT_SOURCES = {
  application: 'Bewerbungsformular',
  migration: 'Bewerbung vor Einführung der Protokollierung',
  dashboard: 'Dashboard',
} as const;
export type ConsentSource = keyof typeof CONSENT_SOURCES;

export * from './retention.js';

export const PRIVACY_MESSAGES = {
  consentNotFound: 'Einwilligung nicht gefunden.',
  consentWithdrawn: 'Einwilligung widerrufen',
  consentAlreadyWithdrawn: 'Diese Einwilligung ist bereits widerrufen.',
  /** The Instagram name on a car's page: only for a confirmed car. */
  instagramNotConfirmed: 'Deinen Instagram-Namen kannst du nur für ein bestätigtes Fahrzeug zeigen.',
  instagramGiven: 'Dein Instagram-Name erscheint jetzt auf der Seite deines Fahrzeugs.',
  /** Written into the status log (actor's own entry). */
  consentWithdrawnLog: (label: string) => `Einwilligung „${label}“ widerrufen`,
  exportStarted: 'Dein Datenexport wird erstellt.',
  exportRunning: 'Ein Datenexport wird bereits erstellt.',
  exportNotFound: 'Kein Datenexport vorhanden.',
  accountDeleted: 'Dein Konto und alle zugehörigen Daten wurden gelöscht.',
  passwordRequiredForEmail: 'Bitte gib dein aktuelles Passwort ein, um die E-Mail-Adresse zu ändern.',
  emailChangePending: (email: string) =>
    `Wir haben dir einen Bestätigungslink an ${email} geschickt. Die neue Adresse gilt, sobald du ihn öffnest.`,
  emailChanged: 'Deine E-Mail-Adresse wurde geändert.',
  emailLinkInvalid: 'Der Bestätigungslink ist ungültig oder abgelaufen.',
  /** A new account's address was confirmed by its link. */
  emailConfirmed: 'Deine E-Mail-Adresse ist bestätigt. Du kannst jetzt Bewerbungen einreichen.',
  /** Refusal of what needs a confirmed address (submitting an application). */
  emailUnconfirmed:
    'Bitte bestätige zuerst deine E-Mail-Adresse: Öffne den Link, den wir dir geschickt haben. Entwürfe kannst du schon speichern.',
  confirmationSent: (email: string) =>
    `Wir haben dir einen neuen Bestätigungslink an ${email} geschickt. Er ist 48 Stunden gültig.`,
  alreadyConfirmed: 'Deine E-Mail-Adresse ist bereits bestätigt.',
  emailChangeCancelled:
    'Die Änderung der E-Mail-Adresse wurde abgebrochen. Dein Konto nutzt weiter die bisherige Adresse.',
  deletedAccount: 'Gelöschtes Konto',
  visitorConfirmed: 'Deine Vormerkung ist bestätigt. Wir halten dich über das Event auf dem Laufenden.',
} as const;

const password = v.pipe(v.string('Passwort ist erforderlich'), v.nonEmpty('Passwort ist erforderlich'));

/** POST /api/account/delete */
export const AccountDeleteSchema = v.object({ password });
export type AccountDeleteBody = v.InferOutput<typeof AccountDeleteSchema>;

/** A token from a mailed link (email change, visitor confirm and unsubscribe). */
export const LinkTokenSchema = v.object({
  token: v.pipe(v.string('Der Link ist ungültig.'), v.nonEmpty('Der Link ist ungültig.'), v.maxLength(300)),
});
