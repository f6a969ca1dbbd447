import * as v from 'valibot';
import { venueInstant } from './venue-time.js';

/**
 * The audit log of staff actions: every action code with its German label (admin page 'Protokoll').
 * A row names who (account id, resolved to a name when read), when, what (the code), the subject
 * (an edition year, a vehicle id, a queue name) and the address; its details hold filters and
 * counts, never copies of personal data.
 */
export const AUDIT_ACTIONS = {
  // Bulk reads of personal data, and opening an applicant's record.
  'vehicles.export_csv': 'Bewerbungen als CSV exportiert',
  'vehicles.view_account': 'Bewerberakte geöffnet (Kontakt, frühere Ausgaben)',
  'vehicles.bulk_preview': 'Empfänger einer Sammeländerung angesehen',
  'media.export_zip': 'Medien als ZIP heruntergeladen',
  'visitors.list': 'Besucherliste angesehen',
  'visitors.export_csv': 'Besucherliste als CSV exportiert',
  'audit.read': 'Protokoll angesehen',
  // Changes outside the status log.
  'waitlist.settings': 'Automatisches Nachrücken umgeschaltet',
  'visitor_updates.create': 'Besucher-Info angelegt',
  'visitor_updates.update': 'Besucher-Info geändert',
  'visitor_updates.send': 'Besucher-Info versendet',
  'editions.create': 'Ausgabe angelegt',
  'editions.update': 'Ausgabe geändert',
  'editions.open': 'Bewerbungsphase geöffnet',
  'editions.current': 'Ausgabe der Website umgestellt',
  'quartett.export': 'Auto-Quartett-Druckdatei erstellt',
  'quartett.release': 'Auto-Quartett freigegeben',
  'signs.export': 'Windschilder zum Druck erstellt',
  'queues.retry': 'Hintergrundaufträge erneut gestartet',
  'queues.clean': 'Hintergrundaufträge entfernt',
  // Reads of job data on the queue dashboard (mail jobs carry addresses and names).
  'queues.jobs': 'Hintergrundaufträge einer Warteschlange mit Daten angesehen',
  'queues.job': 'Hintergrundauftrag mit Daten angesehen',
  'queues.job_logs': 'Meldungen eines Hintergrundauftrags angesehen',
  'review.settings': 'Bewertungseinstellungen geändert',
  'award.open': 'Abstimmung Publikumsliebling geöffnet',
  'award.close': 'Abstimmung Publikumsliebling beendet',
  'award.schedule': 'Zeitpunkte der Abstimmung Publikumsliebling geändert',
  'award.correct': 'Endergebnis Publikumsliebling korrigiert',
  'jury.view': 'Jury angesehen (Jurymitglieder, Einladungen, Befangenheiten)',
  'jury.class_create': 'Jury-Klasse angelegt',
  'jury.class_update': 'Jury-Klasse geändert',
  'jury.class_delete': 'Jury-Klasse gelöscht',
  'jury.judge_add': 'Jurymitglied eingetragen oder per E-Mail eingeladen',
  'jury.judge_update': 'Klassen eines Jurymitglieds geändert',
  'jury.judge_remove': 'Jurymitglied entfernt',
  'jury.invite_withdraw': 'Jury-Einladung zurückgezogen',
  'jury.close': 'Jury-Klasse abgeschlossen',
  'jury.publish': 'Jury-Ergebnisse veröffentlicht',
  'jury.correct': 'Jury-Ergebnis korrigiert',
  'payments.view': 'Zahlungen angesehen (Zahler, IBANs, Verwendungszwecke)',
  'payments.import': 'Kontoauszug eingelesen und Zahlungen gebucht',
  'payments.assign': 'Zahlung von Hand zugeordnet',
  'payments.waive': 'Startgeld erlassen',
  'payments.cash': 'Startgeld bar am Einlass gebucht',
  'payments.refund_export': 'Erstattungen als SEPA-Datei exportiert',
  'payments.refund_file': 'SEPA-Datei der Erstattungen heruntergeladen (Namen, IBANs)',
  'payments.refund_confirm': 'Erstattungen als überwiesen bestätigt',
  'payments.report_csv': 'Kassenbericht als CSV exportiert',
  'texts.update': 'Öffentliche Texte geändert',
  'mail-template.update': 'E-Mail-Vorlage geändert',
  'mail-template.restore': 'E-Mail-Vorlage auf den Standard zurückgesetzt',
  'review.assignment': 'Prüfung einer Bewerbung umverteilt',
  'review.conflict_declare': 'Befangenheit angegeben',
  'review.conflict_withdraw': 'Befangenheit zurückgenommen',
  'accounts.role': 'Rolle geändert',
  'mails.resend': 'E-Mail zu einer Bewerbung erneut gesendet',
  'vehicles.correct': 'Bewerbung einer vergangenen Ausgabe korrigiert',
  // Sign-ins of staff and their second factor.
  'auth.staff_sign_in': 'Anmeldung (Team)',
  'auth.second_factor_setup': 'Zweiter Faktor eingerichtet',
  'auth.second_factor_reset': 'Zweiter Faktor zurückgesetzt',
  'auth.password_reset': 'Passwort eines Teammitglieds zurückgesetzt',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** Actions whose subject is an account (shown by its name now) or an application (by its title now). */
export const AUDIT_ACCOUNT_TARGETS: readonly AuditAction[] = [
  'accounts.role',
  'auth.staff_sign_in',
  'auth.second_factor_setup',
  'auth.second_factor_reset',
  'auth.password_reset',
];
export const AUDIT_VEHICLE_TARGETS: readonly AuditAction[] = [
  'vehicles.view_account',
  'review.assignment',
  'mails.resend',
  'vehicles.correct',
];
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** Who acted: a person in a role, or the system (a command line call, the scheduler). */
export const AUDIT_ACTOR_ROLES = ['user', 'admin', 'reviewer', 'system'] as const;
export type AuditActorRole = (typeof AUDIT_ACTOR_ROLES)[number];

/** One row as the admin page and the data export show it. */
export interface AuditEntry {
  id: string;
  /** The account id; null for the system. */
  actorId: string | null;
  /** The account's current name (full name, else email), 'Gelöschtes Konto' once gone, or the system's name. */
  actorName: string;
  actorRole: AuditActorRole;
  action: AuditAction;
  target: string | null;
  /** The subject's name now, for an account ('Gelöschtes Konto' once gone) or an application; else null. */
  targetName: string | null;
  details: Record<string, unknown>;
  /** The address the request came from; null for the system and after the account was deleted. */
  ip: string | null;
  createdAt: string;
}

/** GET /api/admin/audit: one page, newest first, and the people the log names (the person filter). */
export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next page; null at the end. */
  next: string | null;
  people: { id: string; name: string }[];
}

/** Rows per page and the largest page a client may ask for. */
export const AUDIT_PAGE = { size: 50, max: 200 } as const;

export const AUDIT_MESSAGES = {
  title: 'Protokoll',
  intro:
    'Jede Aktion des Teams, die personenbezogene Daten gesammelt liest oder Einstellungen ändert, steht hier mit Person, Zeit und Adresse. Die Einträge lassen sich nicht ändern.',
  empty: 'Keine Einträge gefunden',
  loadMore: 'Mehr laden',
  system: 'System',
  columns: {
    time: 'Zeit',
    person: 'Person',
    role: 'Rolle',
    action: 'Aktion',
    target: 'Gegenstand',
    address: 'Adresse',
  },
  filters: {
    person: 'Person',
    allPeople: 'Alle Personen',
    action: 'Aktion',
    allActions: 'Alle Aktionen',
    from: 'Von',
    to: 'Bis',
    reset: 'Filter zurücksetzen',
  },
  invalidFilter: 'Der Filter ist ungültig.',
} as const;

const auditDate = v.optional(
  v.pipe(
    v.string(AUDIT_MESSAGES.invalidFilter),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_MESSAGES.invalidFilter),
    v.check((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), AUDIT_MESSAGES.invalidFilter),
  ),
);

/**
 * GET /api/admin/audit?person=&action=&from=&to=&before=&limit=: `from` and `to` are venue dates
 * (both days included), `before` the `next` of the page before.
 */
export const AuditQuerySchema = v.object({
  person: v.optional(v.pipe(v.string(AUDIT_MESSAGES.invalidFilter), v.uuid(AUDIT_MESSAGES.invalidFilter))),
  action: v.optional(v.picklist(AUDIT_ACTION_CODES, AUDIT_MESSAGES.invalidFilter)),
  from: auditDate,
  to: auditDate,
  before: v.optional(
    v.pipe(v.string(AUDIT_MESSAGES.invalidFilter), v.regex(/^\d{1,18}$/, AUDIT_MESSAGES.invalidFilter)),
  ),
  limit: v.optional(
    v.pipe(
      v.string(AUDIT_MESSAGES.invalidFilter),
      v.regex(/^\d{1,4}$/, AUDIT_MESSAGES.invalidFilter),
      v.transform(Number),
      v.minValue(1, AUDIT_MESSAGES.invalidFilter),
      v.maxValue(AUDIT_PAGE.max, AUDIT_MESSAGES.invalidFilter),
    ),
    String(AUDIT_PAGE.size),
  ),
});
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;

/** The first instant of a venue date (YYYY-MM-DD), and of the day after it (an inclusive `to`). */
export function venueDayStart(date: string, plusDays = 0): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + plusDays));
  return venueInstant({
    year: next.getUTCFullYear(),
    month: next.getUTCMonth() + 1,
    day: next.getUTCDate(),
    hour: 0,
    minute: 0,
    second: 0,
  });
}
