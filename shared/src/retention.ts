/** Retention: how long personal data is kept, per rule (its own module: the site config needs only this). */

/** The retention periods, in days, each with what it removes (admin overview, privacy notice). */
export const RETENTION_RULES = {
  visitorsAfterEvent: {
    label: 'Besucher-Voranmeldungen',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: 30,
  },
  visitorsForNextEdition: {
    label: 'Besucher-Voranmeldungen mit Wunsch nach Information über das nächste Treffen',
    description: 'Tage nach dem Ende der Veranstaltung, längstens bis zur E-Mail über das nächste Treffen',
    defaultDays: 730,
  },
  awardVotersAfterEvent: {
    label: 'Stimmen zum Publikumsliebling mit den E-Mail-Adressen (das Endergebnis bleibt)',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: 30,
  },
  unconfirmedAwardVoters: {
    label: 'Unbestätigte Adressen und Stimmen zum Publikumsliebling',
    description: 'Tage nach der Angabe',
    defaultDays: 7,
  },
  juryScoresAfterEvent: {
    label: 'Einzelbewertungen und Befangenheiten der Jury (die Ergebnisse der Klassen bleiben)',
    description: 'Tage nach dem Ende der Veranstaltung, sobald die Ergebnisse veröffentlicht sind',
    defaultDays: 90,
  },
  juryInvites: {
    label: 'Jury-Einladungen an E-Mail-Adressen',
    description: 'Tage nach dem Versand',
    defaultDays: 14,
  },
  rejectedAfterEvent: {
    label: 'Abgelehnte Bewerbungen mit Fotos',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: 30,
  },
  unconfirmedVisitors: {
    label: 'Unbestätigte Besucher-Voranmeldungen',
    description: 'Tage nach der Anmeldung',
    defaultDays: 7,
  },
  unattachedUploads: {
    label: 'Hochgeladene Originaldateien (bereinigt oder nie zugeordnet)',
    description: 'Tage nach dem Hochladen',
    defaultDays: 1,
  },
  emailLog: { label: 'Protokoll versendeter E-Mails', description: 'Tage nach dem Versand', defaultDays: 30 },
  mailBounces: {
    label: 'Als unzustellbar markierte E-Mail-Adressen (mit der Antwort des Mailservers)',
    description: 'Tage nach der Ablehnung, längstens bis die Adresse geändert oder erneut bestätigt wird',
    defaultDays: 180,
  },
  outbox: {
    label: 'Inhalte erledigter Hintergrundaufträge',
    description: 'Tage nach der Erledigung',
    defaultDays: 30,
  },
  quartettExportsAfterEvent: {
    label: 'Druckdateien des Auto-Quartetts',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: 90,
  },
  gateScansAfterEvent: {
    label: 'Einlass-Scans (Gerät, Einlass, Mitarbeiter); die Check-in-Zeit bleibt an der Einladung',
    description: 'Tage nach dem Ende der Veranstaltung',
    defaultDays: 30,
  },
  accountExports: {
    label: 'Datenexporte für Nutzer',
    description: 'Tage nach der Erstellung',
    defaultDays: 7,
  },
  auditLog: {
    label: 'Protokoll der Team-Aktionen (Person, Aktion, Adresse)',
    description: 'Tage nach dem Eintrag',
    defaultDays: 730,
  },
} as const;
export type RetentionRule = keyof typeof RETENTION_RULES;
export type RetentionPeriods = Record<RetentionRule, number>;

export const DEFAULT_RETENTION: RetentionPeriods = Object.fromEntries(
  Object.entries(RETENTION_RULES).map(([key, rule]) => [key, rule.defaultDays]),
) as RetentionPeriods;
