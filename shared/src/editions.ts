/** Editions: one meeting a year. Their schemas and the German texts about them; the phase rule is in edition-phase.ts. */
import * as v from 'valibot';
import { EditionFeeSchema } from './payments/fee.js';
import { VisitorTicketsSchema } from './visitor-tickets.js';
import { WINDOW_MESSAGES } from './edition-phase.js';

export * from './edition-phase.js';

/** An edition's years: the first meetings on record to well ahead. */
export const EDITION_YEARS = { min: 2000, max: 2100 } as const;

export const EDITION_MESSAGES = {
  exists: (year: number) => `Die Ausgabe ${year} gibt es bereits.`,
  unknown: (year: number) => `Eine Ausgabe ${year} gibt es nicht.`,
  year: `Das Jahr muss zwischen ${EDITION_YEARS.min} und ${EDITION_YEARS.max} liegen.`,
  startInYear: (year: number) => `Der Beginn muss im Jahr ${year} liegen.`,
  endAfterStart: 'Das Ende muss nach dem Beginn liegen.',
  deadlineBeforeStart: 'Der Bewerbungsschluss muss vor dem Beginn liegen.',
  deadlineFormat: 'Bitte gib den Bewerbungsschluss als Datum an (JJJJ-MM-TT).',
  dateFormat: 'Bitte gib Datum und Uhrzeit an (z. B. 2027-06-19T10:00:00+02:00).',
  archived: (year: number) => `Die Ausgabe ${year} ist archiviert und kann nicht mehr geändert werden.`,
  /** Changing an edition whose meeting is over. */
  over: (name: string) => `${name} ist vorbei und kann nicht mehr geändert werden.`,
  created: (name: string) => `${name} ist angelegt.`,
  opened: (name: string) => `Die Bewerbung für ${name} ist geöffnet.`,
  madeCurrent: (name: string) => `${name} ist jetzt die aktuelle Ausgabe.`,
  yearParam: 'Bitte wähle eine Ausgabe über ihr Jahr (z. B. 2027).',
  place: 'Bitte gib den Ort an (2 bis 200 Zeichen).',
  name: 'Bitte gib den Namen der Ausgabe an (2 bis 100 Zeichen, z. B. Schlosstreffen 2027).',
  zones: 'Bitte gib die Parkzonen als „Name:Kapazität“ an, durch Kommas getrennt (z. B. A:30, B:25).',
  zoneNames: 'Jede Parkzone braucht einen eigenen Namen.',
  days: 'Bitte gib die Tage als ganze Zahl von 0 bis 365 an.',
  updated: (name: string) => `${name} ist gespeichert.`,
  /** 'Für {Ausgabe} bewerben': the car's application for the current edition. */
  reapplyButton: (name: string) => `Für ${name} bewerben`,
  alreadyApplied: (name: string) => `Dieses Fahrzeug ist für ${name} bereits angemeldet.`,
  /** The status log's note on an application carried over from an earlier one. */
  carriedOver: (name: string) => `Aus ${name} übernommen`,
  photoGone: 'Dieses Foto aus dem Vorjahr ist nicht mehr vorhanden.',
  /** Any change of an over edition's applications, photos, reviews or invitations (409), to owners. */
  frozenForOwner: (name: string) =>
    `${name} ist vorbei: Deine Bewerbung, ihre Fotos und deine Einladung bleiben, wie sie am Ende des Treffens waren.`,
  /** The same to staff; only an admin's correction with a reason changes the record. */
  frozenForStaff: (name: string) =>
    `${name} ist vorbei: Bewerbungen, Fotos, Prüfungen und Einladungen bleiben, wie sie am Ende des Treffens waren. Einen Fehler korrigiert ein Admin mit Begründung.`,
  pastReadOnly:
    'Diese Bewerbung gehört zu einer früheren Ausgabe und bleibt, wie sie war. Bewirb dich mit dem Fahrzeug für die aktuelle Ausgabe, um etwas zu ändern.',
  /** An edition that has not ended yet, or none of that year. */
  noLookBack: (year: number) => `Einen Rückblick auf ${year} gibt es noch nicht.`,
  notYetOpen: WINDOW_MESSAGES.notYetOpen,
  closed: WINDOW_MESSAGES.closed,
  /** A check-in code of another edition's invitation. */
  otherEdition: (name: string) => `Einladung gilt für ${name}`,
} as const;

/** `?edition=2026` of the staff screens: the edition to show (the current one when absent). */
export const EditionQuerySchema = v.object({
  edition: v.optional(
    v.pipe(
      v.string(EDITION_MESSAGES.yearParam),
      v.regex(/^\d{4}$/, EDITION_MESSAGES.yearParam),
      v.transform(Number),
    ),
  ),
});

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An optional moment (`at`) of the admin's edition actions: now when absent. */
const moment = v.optional(
  v.pipe(v.string(EDITION_MESSAGES.dateFormat), v.regex(ISO_MOMENT, EDITION_MESSAGES.dateFormat)),
);

/** The last day of applications, `YYYY-MM-DD`. */
const deadline = v.optional(
  v.pipe(
    v.string(EDITION_MESSAGES.deadlineFormat),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, EDITION_MESSAGES.deadlineFormat),
  ),
);

/** A whole number from 0 to `max`, refused with `message`. */
const wholeNumber = (max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(0, message), v.maxValue(max, message));

/** POST /api/admin/editions: the next edition, from `from` (the newest when absent); dates a year later unless given. */
export const EditionCreateSchema = v.object({
  year: v.pipe(
    v.number(EDITION_MESSAGES.year),
    v.integer(EDITION_MESSAGES.year),
    v.minValue(EDITION_YEARS.min, EDITION_MESSAGES.year),
    v.maxValue(EDITION_YEARS.max, EDITION_MESSAGES.year),
  ),
  from: v.optional(v.pipe(v.number(EDITION_MESSAGES.year), v.integer(EDITION_MESSAGES.year))),
  start: moment,
  end: moment,
  deadline,
});

const days = v.optional(wholeNumber(365, EDITION_MESSAGES.days));

/** A parking zone of an edition: its name and how many cars it takes. */
export const ParkingZoneSchema = v.object({
  name: v.pipe(
    v.string(EDITION_MESSAGES.zones),
    v.trim(),
    v.minLength(1, EDITION_MESSAGES.zones),
    v.maxLength(40, EDITION_MESSAGES.zones),
  ),
  capacity: wholeNumber(10_000, EDITION_MESSAGES.zones),
});

/** PATCH /api/admin/editions/:year: what an edition not yet over may change; absent fields stay. */
export const EditionUpdateSchema = v.object({
  name: v.optional(
    v.pipe(
      v.string(EDITION_MESSAGES.name),
      v.trim(),
      v.minLength(2, EDITION_MESSAGES.name),
      v.maxLength(100, EDITION_MESSAGES.name),
    ),
  ),
  place: v.optional(
    v.pipe(
      v.string(EDITION_MESSAGES.place),
      v.trim(),
      v.minLength(2, EDITION_MESSAGES.place),
      v.maxLength(200, EDITION_MESSAGES.place),
    ),
  ),
  start: moment,
  end: moment,
  deadline,
  parkingZones: v.optional(
    v.pipe(
      v.array(ParkingZoneSchema, EDITION_MESSAGES.zones),
      v.minLength(1, EDITION_MESSAGES.zones),
      v.maxLength(20, EDITION_MESSAGES.zones),
      v.check(
        (zones) => new Set(zones.map((zone) => zone.name)).size === zones.length,
        EDITION_MESSAGES.zoneNames,
      ),
    ),
  ),
  confirmDays: days,
  cutoffDays: days,
  reminderDays: days,
  /** 'Teilnahmegebühr': the fee of the invited cars; null removes it, absent leaves it. */
  fee: v.optional(EditionFeeSchema),
  /** 'Besuchertickets': the visitor capacity; null switches tickets off, absent leaves them. */
  visitorTickets: v.optional(VisitorTicketsSchema),
});
export type EditionUpdate = v.InferOutput<typeof EditionUpdateSchema>;

/** 'A:30, B:25' as parking zones; undefined when the text is not of that form. */
export function parseParkingZones(text: string): Array<{ name: string; capacity: number }> | undefined {
  const zones = text
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => /^([^:]{1,40}):\s*(\d{1,5})$/.exec(pair));
  if (!zones.length || zones.some((match) => !match)) return undefined;
  return zones.map((match) => ({ name: match![1]!.trim(), capacity: Number(match![2]) }));
}

/** The fields a reviewer sees compared with the car's application of the edition before. */
export const CHANGED_FIELD_LABELS = {
  name: 'Name',
  brand: 'Marke',
  model: 'Modell',
  year: 'Baujahr',
  color: 'Farbe',
  licensePlate: 'Kennzeichen',
  vin: 'FIN',
  tuningCategories: 'Tuning-Kategorien',
  descriptionShort: 'Kurzbeschreibung',
  descriptionLong: 'Beschreibung',
  specialMods: 'Besondere Umbauten',
  ps: 'Leistung (PS)',
  kw: 'Leistung (kW)',
  torqueNm: 'Drehmoment (Nm)',
  weightKg: 'Gewicht (kg)',
  topSpeedKmh: 'Höchstgeschwindigkeit (km/h)',
  zeroToHundredS: '0–100 km/h (s)',
  quarterMileS: 'Viertelmeile (s)',
  driveType: 'Antrieb',
  displacementCcm: 'Hubraum (ccm)',
  cylinders: 'Zylinder',
  fuelType: 'Kraftstoff',
} as const;

/** POST /api/admin/editions/:year/open and …/current: at a set moment, or now. */
export const EditionMomentSchema = v.object({ at: moment });
