/** German texts the server answers with. Spec texts are quoted exactly. */
export const MESSAGES = {
  badRequest: 'Die Anfrage ist ungültig.',
  validationFailed: 'Bitte überprüfe deine Eingaben.',
  malformedJson: 'Der Anfragetext ist kein gültiges JSON.',
  jsonOnly: 'Bitte sende die Daten als JSON (Content-Type: application/json).',
  payloadTooLarge: 'Die Anfrage ist zu groß.',
  databaseUnavailable:
    'Die Datenbank ist gerade nicht erreichbar. Bitte versuche es in einer Minute noch einmal.',
  storageUnavailable:
    'Der Dateispeicher ist gerade nicht erreichbar. Bitte versuche es in einer Minute noch einmal.',
  queuesUnavailable:
    'Die Auftragswarteschlangen sind gerade nicht erreichbar. Bitte versuche es in einer Minute noch einmal.',
  nulCharacter: 'Die Anfrage enthält ein unzulässiges Zeichen (Nullzeichen).',
  foreignOrigin: 'Anfrage von einer fremden Herkunft abgelehnt.',
  httpsRequired:
    'Diese Seite ist nur über HTTPS erreichbar. Bitte öffne sie über ihre https-Adresse (Betrieb: TLS-Proxy davor und TRUST_PROXY setzen).',
  unauthorized: 'Bitte melde dich an.',
  forbidden: 'Dafür fehlt dir die Berechtigung.',
  notFound: 'Nicht gefunden.',
  conflict: 'Die Anfrage steht im Konflikt mit dem aktuellen Stand.',
  tooManyRequests: (seconds: number) =>
    `Zu viele Versuche. Bitte versuche es in ${formatWait(seconds)} erneut.`,
  internal: 'Ein Fehler ist aufgetreten. Bitte versuche es später erneut.',
  emailTaken: 'Diese Email-Adresse ist bereits registriert.',
  invalidCredentials: 'Falsche Email oder Passwort.',
  wrongCurrentPassword: 'Das aktuelle Passwort ist falsch.',
  wrongPassword: 'Das Passwort ist falsch.',
  resetEmailSent: 'Falls die E-Mail-Adresse existiert, wurde ein Reset-Link versendet.',
  resetTokenInvalid: 'Der Reset-Link ist nicht mehr gültig.',
  passwordReset: 'Passwort erfolgreich zurückgesetzt',
  passwordChanged: 'Passwort geändert',
  loggedOut: 'Erfolgreich abgemeldet',
  visitorRegistered: 'Erfolgreich vorgemerkt!',
  visitorConfirmPending:
    'Bitte bestätige deine Vormerkung über den Link in unserer E-Mail, dann halten wir dich über das Event auf dem Laufenden.',
  visitorUnsubscribed: 'Du bist abgemeldet und erhältst keine E-Mails mehr zum Schlosstreffen.',
  visitorLinkInvalid: 'Der Link ist ungültig.',
  queueDashboardReadOnly: 'Im Job-Dashboard lassen sich Jobs nur wiederholen oder aufräumen.',
  queueDashboardFinishedOnly:
    'Im Job-Dashboard lassen sich nur fehlgeschlagene oder abgeschlossene Jobs wiederholen oder aufräumen. Wartende, geplante und laufende Jobs bleiben, wie sie sind.',
} as const;

/** Visitor states as shown to admins (list and CSV export). */
export const VISITOR_STATE_LABELS = {
  pending: 'Unbestätigt',
  confirmed: 'Bestätigt',
  unsubscribed: 'Abgemeldet',
} as const;

/** Header row of the admin visitor export. */
export const VISITOR_CSV_HEADER = [
  'Vorname',
  'Nachname',
  'E-Mail',
  'Telefon',
  'Angemeldet am',
  'Bestätigt am',
  'Status',
] as const;

/** Columns of the organizers' applications export (GET /api/admin/vehicles.csv). */
export const APPLICATION_CSV_HEADER = [
  'Fahrzeug-ID',
  'Status',
  'Marke',
  'Modell',
  'Name',
  'Baujahr',
  'Farbe',
  'Vorname',
  'Nachname',
  'E-Mail',
  'Telefon',
  'Eingereicht am',
  'Bewertung',
  'Startnummer',
  'Parkzone',
  'Bestätigen bis',
  'Einladung',
  'Eingecheckt am',
  'Einlass',
] as const;

/** The 'Einladung' column: whether the place holds, or why it went. */
export const INVITATION_STATE_LABELS = {
  held: 'gültig',
  lapsed: 'abgelaufen',
  declined: 'abgesagt',
  revoked: 'zurückgenommen',
} as const;

function formatWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 Sekunde' : `${seconds} Sekunden`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 Minute' : `${minutes} Minuten`;
}
