/** German texts for invitations, check-in and the quartett print export. */

export const INVITATION_MESSAGES = {
  codeRequired: 'Bitte gib einen Check-in-Code oder eine Startnummer ein.',
  unknownCode: 'Unbekannter Check-in-Code oder Startnummer. Bitte prüfe die Eingabe.',
  notAdmitted: 'Dieses Fahrzeug ist nicht mehr eingeladen und kann nicht eingecheckt werden.',
  checkedIn: 'Eingecheckt',
  /** Answer to a repeated check-in; the time is HH:MM in the event's time zone. */
  alreadyCheckedIn: (time: string) => `Bereits eingecheckt um ${time} Uhr`,
  confirmLinkInvalid: 'Der Bestätigungslink ist ungültig. Bitte melde dich an und bestätige im Dashboard.',
  confirmed: 'Deine Teilnahme ist bestätigt. Wir freuen uns auf dich!',
  alreadyConfirmed: 'Deine Teilnahme war bereits bestätigt.',
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
