import { formatScore } from './score.js';
import { venueDate } from './venue-time.js';
/** German texts for invitations and the quartett print export (the gate's are in check-in.ts). */

export const INVITATION_MESSAGES = {
  confirmLinkInvalid: 'Der Bestätigungslink ist ungültig. Bitte melde dich an und bestätige im Dashboard.',
  confirmLinkSuperseded:
    'Dieser Bestätigungslink gehört zu einer früheren Einladung. Bitte nimm den Link aus der neuesten Einladungs-E-Mail oder melde dich an und bestätige im Dashboard.',
  confirmed: 'Deine Teilnahme ist bestätigt. Wir freuen uns auf dich!',
  alreadyConfirmed: 'Deine Teilnahme war bereits bestätigt.',
  confirmDeadlinePassed: 'Die Frist zur Bestätigung ist abgelaufen. Dein Platz wurde weitergegeben.',
  invitationReleased: 'Diese Einladung gilt nicht mehr.',
  declineLinkInvalid:
    'Der Absage-Link ist ungültig oder gehört zu einer früheren Einladung. Bitte melde dich an und sage im Dashboard ab.',
  declined: 'Deine Teilnahme ist abgesagt. Dein Platz geht an das nächste Fahrzeug auf der Warteliste.',
  alreadyDeclined: 'Deine Teilnahme war bereits abgesagt.',
  declineOnlyInvited: 'Absagen lässt sich nur eine gültige Einladung oder eine bestätigte Teilnahme.',
} as const;

/** Why a place was given up, as the owner reads it on the dashboard. */
export const RELEASE_NOTICES = {
  lapsed: (deadline: string) =>
    `Einladung abgelaufen: nicht bis ${deadline} bestätigt. Der Platz wurde weitergegeben.`,
  declined: (at: string) => `Teilnahme am ${at} abgesagt. Der Platz wurde weitergegeben.`,
  revoked: (at: string) => `Einladung am ${at} zurückgenommen.`,
} as const;

/** Texts of moving up from the waitlist: status-log reasons and the admin's answers. */
export const PLACES_MESSAGES = {
  /** Which given-up place a moved-up vehicle took over. */
  causeOf: (reason: 'lapsed' | 'declined' | 'revoked', startNumber: number) =>
    `Platz frei durch ${{ lapsed: 'eine abgelaufene Einladung', declined: 'eine Absage', revoked: 'eine Statusänderung' }[reason]}, Startnummer ${startNumber}`,
  declinedLog: (via: 'dashboard' | 'link', startNumber: number | null) =>
    `Teilnahme abgesagt (${via === 'link' ? 'über den Link in der Einladung' : 'im Dashboard'}). Platz freigegeben${startNumber ? `, Startnummer ${startNumber} wird nicht neu vergeben` : ''}.`,
  unpaidLog: (deadline: string, startNumber: number, openAmount: string) =>
    `Startgeld nicht bis ${deadline} bezahlt (offen: ${openAmount}): Platz freigegeben, Startnummer ${startNumber} wird nicht neu vergeben.`,
  lapsedLog: (deadline: string, startNumber: number) =>
    `Einladung nicht bis ${deadline} bestätigt: abgelaufen. Platz freigegeben, Startnummer ${startNumber} wird nicht neu vergeben.`,
  movedUpLog: (candidate: { rank: number; score: number | null; submittedAt: Date }, cause: string) =>
    `Automatisch von der Warteliste nachgerückt (${cause}). Regel: höchste Bewertung, dann frühere Einreichung; Rang ${candidate.rank}, Bewertung ${candidate.score === null ? 'keine' : formatScore(candidate.score)}, eingereicht ${venueDate(candidate.submittedAt)}.`,
  invitedFromSuggestion: (rank: number | null) =>
    `Als Nachrücker von der Warteliste eingeladen${rank ? ` (Rang ${rank})` : ''}.`,
  rule: 'Nachrücken nach höchster Bewertung (Mittel der abgegebenen Bewertungen nach Gewichtung der Kategorien, ohne solche die zuletzt vergebene Punktzahl), bei Gleichstand nach früherer Einreichung.',
  notWaitlisted: 'Dieses Fahrzeug steht nicht auf der Warteliste.',
  noFreePlace: 'Es ist kein Platz frei.',
} as const;

export const QUARTETT_MESSAGES = {
  titleRequired: 'Titel ist erforderlich',
  titleMax: 'Titel darf höchstens 200 Zeichen lang sein',
  setNotFound: 'Quartett-Satz nicht gefunden',
  noConfirmedVehicles: 'Es gibt noch keine bestätigten Fahrzeuge für das Quartett.',
  /** Stored on a set whose export found no confirmed vehicle when it ran. */
  exportWithoutCards: 'Keine bestätigten Fahrzeuge: Der Quartett-Satz wurde ohne Karten abgebrochen.',
  notReady: 'Der Export ist noch nicht fertig. Freigeben lässt sich nur ein fertiger Satz.',
  alreadyReleased: 'Dieser Quartett-Satz ist bereits freigegeben.',
  vehicleLocked:
    'Die Fahrzeugdaten sind für das Auto-Quartett freigegeben und können nicht mehr geändert werden.',
} as const;

export const QUARTETT_SET_STATUSES = ['queued', 'rendering', 'ready', 'failed'] as const;
export type QuartettSetStatus = (typeof QUARTETT_SET_STATUSES)[number];

export const QUARTETT_SET_STATUS_LABELS: Record<QuartettSetStatus, string> = {
  queued: 'In Warteschlange',
  rendering: 'Wird erstellt',
  ready: 'Fertig',
  failed: 'Fehlgeschlagen',
};

/** Parking zone of an invitation issued when every configured zone is full. */
export const PARKING_ZONE_UNASSIGNED = 'Wird am Einlass zugewiesen';
