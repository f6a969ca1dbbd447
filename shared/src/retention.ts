/** Retention: how long personal data is kept, per rule, with what each rule removes (labels for people). */
import { RETENTION_DEFAULT_DAYS, type RetentionRule } from './retention-periods.js';

export { DEFAULT_RETENTION, RETENTION_DEFAULT_DAYS } from './retention-periods.js';
export type { RetentionPeriods, RetentionRule } from './retention-periods.js';

/** The retention periods, in days, each with what it removes (admin overview, privacy notice). */
export const RETENTION_RULES: Record<
  RetentionRule,
  { label: string; description: string; defaultDays: number }
> = {
  visitorsAfterEvent: {
    label: 'Besucher-Voranmeldungen',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.visitorsAfterEvent,
  },
  visitorsForNextEdition: {
    label: 'Besucher-Voranmeldungen mit Wunsch nach Information über das nächste Treffen',
    description: 'Tage nach dem Ende der Veranstaltung, längstens bis zur E-Mail über das nächste Treffen',
    defaultDays: RETENTION_DEFAULT_DAYS.visitorsForNextEdition,
  },
  awardVotersAfterEvent: {
    label: 'Stimmen zum Publikumsliebling mit den E-Mail-Adressen (das Endergebnis bleibt)',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.awardVotersAfterEvent,
  },
  unconfirmedAwardVoters: {
    label: 'Unbestätigte Adressen und Stimmen zum Publikumsliebling',
    description: 'Tage nach der Angabe',
    defaultDays: RETENTION_DEFAULT_DAYS.unconfirmedAwardVoters,
  },
  juryScoresAfterEvent: {
    label: 'Einzelbewertungen und Befangenheiten der Jury (die Ergebnisse der Klassen bleiben)',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.juryScoresAfterEvent,
  },
  juryInvites: {
    label: 'Jury-Einladungen an E-Mail-Adressen',
    description: 'Tage nach dem Versand',
    defaultDays: RETENTION_DEFAULT_DAYS.juryInvites,
  },
  unassignedBankLines: {
    label:
      'Nicht zugeordnete Zahlungseingänge: Name, IBAN und Verwendungszweck des Zahlers (Betrag und Datum bleiben)',
    description: 'Tage nach dem Einlesen des Kontoauszugs',
    defaultDays: RETENTION_DEFAULT_DAYS.unassignedBankLines,
  },
  rejectedAfterEvent: {
    label: 'Abgelehnte Bewerbungen mit Fotos',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.rejectedAfterEvent,
  },
  unconfirmedVisitors: {
    label: 'Unbestätigte Besucher-Voranmeldungen',
    description: 'Tage nach der Anmeldung',
    defaultDays: RETENTION_DEFAULT_DAYS.unconfirmedVisitors,
  },
  unattachedUploads: {
    label: 'Hochgeladene Originaldateien (bereinigt oder nie zugeordnet)',
    description: 'Tage nach dem Hochladen',
    defaultDays: RETENTION_DEFAULT_DAYS.unattachedUploads,
  },
  emailLog: {
    label: 'Protokoll versendeter E-Mails',
    description: 'Tage nach dem Versand',
    defaultDays: RETENTION_DEFAULT_DAYS.emailLog,
  },
  mailBounces: {
    label: 'Als unzustellbar markierte E-Mail-Adressen (mit der Antwort des Mailservers)',
    description: 'Tage nach der Ablehnung, längstens bis die Adresse geändert oder erneut bestätigt wird',
    defaultDays: RETENTION_DEFAULT_DAYS.mailBounces,
  },
  outbox: {
    label: 'Inhalte erledigter Hintergrundaufträge',
    description: 'Tage nach der Erledigung',
    defaultDays: RETENTION_DEFAULT_DAYS.outbox,
  },
  quartettExportsAfterEvent: {
    label: 'Druckdateien des Auto-Quartetts',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.quartettExportsAfterEvent,
  },
  gateScansAfterEvent: {
    label: 'Einlass-Scans (Gerät, Einlass, Mitarbeiter); die Check-in-Zeit bleibt an der Einladung',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: RETENTION_DEFAULT_DAYS.gateScansAfterEvent,
  },
  accountExports: {
    label: 'Datenexporte für Nutzer',
    description: 'Tage nach der Erstellung',
    defaultDays: RETENTION_DEFAULT_DAYS.accountExports,
  },
  auditLog: {
    label: 'Protokoll der Team-Aktionen (Person, Aktion, Adresse)',
    description: 'Tage nach dem Eintrag',
    defaultDays: RETENTION_DEFAULT_DAYS.auditLog,
  },
};
