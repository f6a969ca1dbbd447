import * as v from 'valibot';
import { eventYear, VEHICLE_LIMITS, VEHICLE_TEXT_MAX } from '../constants.js';
import { DRIVE_TYPES, FUEL_TYPES, VEHICLE_STATUSES } from '../status.js';
import { fieldObject, type FieldIssue } from './issues.js';

/** Vehicle create and edit bodies, the application wizard and status changes, with their German messages. */

const L = VEHICLE_LIMITS;
const T = VEHICLE_TEXT_MAX;

const MSG = {
  brand: 'Marke ist erforderlich',
  model: 'Modell ist erforderlich',
  year: 'Baujahr ist erforderlich',
  yearInt: 'Baujahr muss eine ganze Zahl sein',
  ps: 'Leistung ist erforderlich',
  psInt: 'Leistung muss eine ganze Zahl sein',
  psRange: `Leistung muss zwischen ${L.ps.min} und ${L.ps.max} PS liegen`,
  weightKg: 'Gewicht ist erforderlich',
  weightKgInt: 'Gewicht muss eine ganze Zahl sein',
  weightKgRange: `Gewicht muss zwischen ${L.weightKg.min} und ${L.weightKg.max} kg liegen`,
  topSpeedKmh: 'Höchstgeschwindigkeit ist erforderlich',
  topSpeedKmhInt: 'Höchstgeschwindigkeit muss eine ganze Zahl sein',
  topSpeedKmhRange: `Höchstgeschwindigkeit muss zwischen ${L.topSpeedKmh.min} und ${L.topSpeedKmh.max} km/h liegen`,
  zeroToHundredS: 'Beschleunigung 0-100 km/h ist erforderlich',
  zeroToHundredSRange: `Beschleunigung 0-100 km/h muss zwischen ${L.zeroToHundredS.min} und ${L.zeroToHundredS.max} Sekunden liegen`,
  quarterMileS: 'Viertelmeile muss eine Zahl sein',
  quarterMileSRange: `Viertelmeile muss zwischen ${L.quarterMileS.min} und ${L.quarterMileS.max} Sekunden liegen`,
  kw: 'Leistung in kW muss eine Zahl sein',
  kwInt: 'Leistung in kW muss eine ganze Zahl sein',
  kwRange: `Leistung in kW muss zwischen ${L.kw.min} und ${L.kw.max} kW liegen`,
  torqueNm: 'Drehmoment muss eine Zahl sein',
  torqueNmInt: 'Drehmoment muss eine ganze Zahl sein',
  torqueNmRange: `Drehmoment muss zwischen ${L.torqueNm.min} und ${L.torqueNm.max} Nm liegen`,
  displacementCcm: 'Hubraum muss eine Zahl sein',
  displacementCcmInt: 'Hubraum muss eine ganze Zahl sein',
  displacementCcmRange: `Hubraum muss zwischen ${L.displacementCcm.min} und ${L.displacementCcm.max} ccm liegen`,
  cylinders: 'Zylinder muss eine Zahl sein',
  cylindersInt: 'Zylinder muss eine ganze Zahl sein',
  cylindersRange: `Zylinder muss zwischen ${L.cylinders.min} und ${L.cylinders.max} liegen`,
  driveType: 'Ungültige Antriebsart',
  fuelType: 'Ungültige Kraftstoffart',
  tuningCategories: 'Ungültige Tuning-Kategorien',
  tuningCategory: 'Tuning-Kategorie darf nicht leer sein',
  tuningCategoryMax: `Tuning-Kategorie darf höchstens ${T.tuningCategory} Zeichen lang sein`,
  tuningCategoriesMax: `Höchstens ${T.tuningCategories} Tuning-Kategorien erlaubt`,
  status: 'Ungültiger Status',
  oldStatus: 'Bisheriger Status ist erforderlich',
  comment: 'Interne Notiz muss ein Text sein',
  commentMax: 'Interne Notiz darf höchstens 2000 Zeichen lang sein',
  score: 'Bewertung muss eine Zahl sein',
  scoreRange: 'Bewertung muss eine ganze Zahl zwischen 0 und 10 sein',
  invalidValue: 'Bitte geben Sie einen gültigen Wert ein',
  editMin: `Wert muss mindestens ${L.zeroToHundredS.min} sein`,
  editMax: `Wert darf maximal ${L.zeroToHundredS.max} sein`,
  consentMedia: 'Einwilligung zur Mediennutzung ist erforderlich',
  consentQuartett: 'Einwilligung für Auto-Quartett ist erforderlich',
  consentContact: 'Einwilligung zur Kontaktaufnahme ist erforderlich',
} as const;

/** Seconds are stored with one decimal (DECIMAL_PRECISION.seconds). */
const roundToTenth = (value: number) => Math.round(value * 10) / 10;

/** A plain decimal such as '4.5', '4,5' or '12'. */
const NUMERIC_STRING = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
const parseNumeric = (value: number | string) => {
  if (typeof value === 'number') return value;
  const text = value.trim();
  return NUMERIC_STRING.test(text) ? Number(text.replace(',', '.')) : Number.NaN;
};

const requiredText = (max: number, message: string, label: string) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(max, `${label} darf höchstens ${max} Zeichen lang sein`),
  );

/** Optional text: undefined stays undefined (no change), null and '' become null (cleared). */
const optionalText = (max: number, label: string) =>
  v.pipe(
    v.nullish(
      v.pipe(
        v.string(`${label} muss ein Text sein`),
        v.trim(),
        v.maxLength(max, `${label} darf höchstens ${max} Zeichen lang sein`),
      ),
    ),
    v.transform((value) => (value === '' ? null : value)),
  );

const int = (
  limits: { min: number; max: number },
  message: string,
  intMessage: string,
  rangeMessage: string,
) =>
  v.pipe(
    v.number(message),
    v.integer(intMessage),
    v.minValue(limits.min, rangeMessage),
    v.maxValue(limits.max, rangeMessage),
  );

/** Optional integer; null clears the value. */
const optionalInt = (...args: Parameters<typeof int>) => v.nullish(int(...args));

const seconds = (limits: { min: number; max: number }, message: string, rangeMessage: string) =>
  v.pipe(
    v.number(message),
    v.minValue(limits.min, rangeMessage),
    v.maxValue(limits.max, rangeMessage),
    v.transform(roundToTenth),
  );

/** A parsed number checked against the edit form's range messages, then rounded to one decimal. */
const editRange = (limits: { min: number; max: number }, minMessage: string, maxMessage: string) =>
  v.pipe(
    v.number(MSG.invalidValue),
    v.minValue(limits.min, minMessage),
    v.maxValue(limits.max, maxMessage),
    v.transform(roundToTenth),
  );

/** Edit form, required: a number or numeric string; empty or invalid gives the generic message. */
const editSeconds = (limits: { min: number; max: number }, minMessage: string, maxMessage: string) =>
  v.pipe(
    v.union([v.number(), v.string()], MSG.invalidValue),
    v.transform(parseNumeric),
    editRange(limits, minMessage, maxMessage),
  );

/** Edit form, optional: like editSeconds, but '' and null clear the value (null). */
const editOptionalSeconds = (limits: { min: number; max: number }, minMessage: string, maxMessage: string) =>
  v.pipe(
    v.nullish(v.union([v.number(), v.string()], MSG.invalidValue)),
    v.transform((value) =>
      value === undefined
        ? undefined
        : value === null || (typeof value === 'string' && value.trim() === '')
          ? null
          : parseNumeric(value),
    ),
    v.nullish(editRange(limits, minMessage, maxMessage)),
  );

/** Optional enum value; '' and null become null. `normalize` maps the input before the check. */
const optionalPicklist = <const T extends readonly [string, ...string[]]>(
  options: T,
  message: string,
  normalize: (value: string) => string = (value) => value.trim(),
) =>
  v.pipe(
    v.nullish(v.string(message)),
    v.transform((value) => (value == null ? value : value.trim() === '' ? null : normalize(value))),
    v.nullish(v.picklist(options, message)),
  );

const tuningCategories = v.pipe(
  v.array(
    v.pipe(
      v.string(MSG.tuningCategory),
      v.trim(),
      v.nonEmpty(MSG.tuningCategory),
      v.maxLength(T.tuningCategory, MSG.tuningCategoryMax),
    ),
    MSG.tuningCategories,
  ),
  v.maxLength(T.tuningCategories, MSG.tuningCategoriesMax),
);

/** Every vehicle field an owner may send, except status. */
const vehicleEntries = {
  name: optionalText(T.name, 'Name'),
  brand: requiredText(T.brand, MSG.brand, 'Marke'),
  model: requiredText(T.model, MSG.model, 'Modell'),
  /** Replaced per edition in `vehicleSchemas` (kept here for the fields' order). */
  year: v.number(MSG.year),
  color: optionalText(T.color, 'Farbe'),
  licensePlate: optionalText(T.licensePlate, 'Kennzeichen'),
  vin: optionalText(T.vin, 'FIN'),
  tuningCategories: v.optional(tuningCategories, () => []),
  descriptionShort: optionalText(T.descriptionShort, 'Kurzbeschreibung'),
  descriptionLong: optionalText(T.descriptionLong, 'Beschreibung'),
  specialMods: optionalText(T.specialMods, 'Besondere Modifikationen'),
  ps: int(L.ps, MSG.ps, MSG.psInt, MSG.psRange),
  kw: optionalInt(L.kw, MSG.kw, MSG.kwInt, MSG.kwRange),
  torqueNm: optionalInt(L.torqueNm, MSG.torqueNm, MSG.torqueNmInt, MSG.torqueNmRange),
  weightKg: int(L.weightKg, MSG.weightKg, MSG.weightKgInt, MSG.weightKgRange),
  topSpeedKmh: int(L.topSpeedKmh, MSG.topSpeedKmh, MSG.topSpeedKmhInt, MSG.topSpeedKmhRange),
  zeroToHundredS: seconds(L.zeroToHundredS, MSG.zeroToHundredS, MSG.zeroToHundredSRange),
  quarterMileS: v.nullish(seconds(L.quarterMileS, MSG.quarterMileS, MSG.quarterMileSRange)),
  /** FWD, RWD or AWD; the edit form's lowercase values are accepted and upper-cased. */
  driveType: optionalPicklist(DRIVE_TYPES, MSG.driveType, (value) => value.trim().toUpperCase()),
  fuelType: optionalPicklist(FUEL_TYPES, MSG.fuelType),
  displacementCcm: optionalInt(
    L.displacementCcm,
    MSG.displacementCcm,
    MSG.displacementCcmInt,
    MSG.displacementCcmRange,
  ),
  cylinders: optionalInt(L.cylinders, MSG.cylinders, MSG.cylindersInt, MSG.cylindersRange),
};

/** The application consents as the wizard names them (CONSENTS[kind].field). */
export const SUBMISSION_CONSENT_FIELDS = ['consentMedia', 'consentQuartett', 'consentContact'] as const;
export type SubmissionConsentField = (typeof SUBMISSION_CONSENT_FIELDS)[number];
/** The consent ticks a request carries; a submission needs each one `true`. */
export type SubmissionConsents = { [K in SubmissionConsentField]?: boolean };

/**
 * The consents a submission lacks, one issue per field with its German message (empty: all three
 * are ticked). A draft needs none; the API refuses a submission with any of these.
 */
export function missingSubmissionConsents(ticks: SubmissionConsents): FieldIssue[] {
  return SUBMISSION_CONSENT_FIELDS.filter((field) => ticks[field] !== true).map((field) => ({
    field,
    message: MSG[field],
  }));
}

/** The consent fields of a request body: optional, ticked or not; whether they must be is the status's. */
const consentEntries = {
  consentMedia: v.optional(v.boolean(MSG.consentMedia)),
  consentQuartett: v.optional(v.boolean(MSG.consentQuartett)),
  consentContact: v.optional(v.boolean(MSG.consentContact)),
};

type SubmissionInput = { status?: string } & SubmissionConsents;

/** With status 'submitted', `field` must be `true`; the issue is the field's own (path and message). */
const consentToSubmit = <T extends SubmissionInput>(field: SubmissionConsentField) =>
  // Typed on the whole body T (the check reads only status and the field) so the pipe keeps T.
  v.forward<SubmissionInput, v.PartialCheckIssue<SubmissionInput>, [SubmissionConsentField]>(
    v.partialCheck<SubmissionInput, [['status'], [SubmissionConsentField]], SubmissionInput, string>(
      [['status'], [field]],
      (input) => input.status !== 'submitted' || input[field] === true,
      MSG[field],
    ),
    [field],
  ) as unknown as v.BaseValidation<T, T, v.PartialCheckIssue<SubmissionInput>>;

/** `schema` whose submissions (status 'submitted') need all three consents; drafts and other statuses none. */
/* @__NO_SIDE_EFFECTS__ */
function submissionNeedsConsents<S extends v.GenericSchema<unknown, SubmissionInput>>(schema: S) {
  type T = v.InferOutput<S>;
  return v.pipe(
    schema,
    consentToSubmit<T>('consentMedia'),
    consentToSubmit<T>('consentQuartett'),
    consentToSubmit<T>('consentContact'),
  );
}

/** Statuses an owner may create a vehicle in. */
const OWNER_STATUSES = ['draft', 'submitted'] as const;
/** Statuses an owner may patch to: submit, withdraw, and accept an invitation. */
const OWNER_PATCH_STATUSES = ['draft', 'submitted', 'confirmed'] as const;
export type OwnerStatus = (typeof OWNER_PATCH_STATUSES)[number];

/** Fields validated before the wizard advances from a step (steps 1 and 2 also in the edit form). */
export const WIZARD_STEP_FIELDS = {
  1: ['brand', 'model', 'year', 'color'],
  2: ['ps', 'weightKg', 'topSpeedKmh', 'zeroToHundredS'],
  3: [],
  4: ['consentMedia', 'consentQuartett', 'consentContact'],
} as const;

/** 'Baujahr muss zwischen 1950 und <event year> liegen' */
const yearRangeMessage = (maxYear: number) => `Baujahr muss zwischen ${L.year.min} und ${maxYear} liegen`;

/* @__NO_SIDE_EFFECTS__ */
function buildVehicleSchemas(maxYear: number) {
  const entries = {
    ...vehicleEntries,
    year: int({ min: L.year.min, max: maxYear }, MSG.year, MSG.yearInt, yearRangeMessage(maxYear)),
  };

  const createEntries = {
    ...entries,
    status: v.optional(v.picklist(OWNER_STATUSES, MSG.status)),
    ...consentEntries,
  };

  /**
   * Body of POST /api/vehicles: the wizard sends status 'submitted' with its three consents, which a
   * submission needs (each `true`, else an issue naming the field); a draft needs none.
   */
  const VehicleSchema = submissionNeedsConsents(fieldObject(createEntries));

  /**
   * Body of PATCH /api/vehicles/{id} and the edit form: the vehicle schema without status, every
   * field optional; zeroToHundredS and quarterMileS also accept numeric strings (decimals arrive as text).
   */
  const VehicleEditSchema = v.partial(
    fieldObject({
      ...entries,
      tuningCategories,
      zeroToHundredS: editSeconds(L.zeroToHundredS, MSG.editMin, MSG.editMax),
      quarterMileS: editOptionalSeconds(L.quarterMileS, MSG.quarterMileSRange, MSG.quarterMileSRange),
    }),
  );

  /** The application wizard: vehicle fields plus the three required consents, sent with the application. */
  const ApplicationFormSchema = fieldObject({
    ...createEntries,
    consentMedia: v.literal(true, MSG.consentMedia),
    consentQuartett: v.literal(true, MSG.consentQuartett),
    consentContact: v.literal(true, MSG.consentContact),
  });

  /** Per-step schemas of the create wizard. */
  const APPLICATION_STEP_SCHEMAS = {
    1: v.pick(ApplicationFormSchema, WIZARD_STEP_FIELDS[1]),
    2: v.pick(ApplicationFormSchema, WIZARD_STEP_FIELDS[2]),
    4: v.pick(ApplicationFormSchema, WIZARD_STEP_FIELDS[4]),
  } as const;

  return {
    VehicleSchema,
    VehicleEditSchema,
    ApplicationFormSchema,
    APPLICATION_STEP_SCHEMAS,
    year: { min: L.year.min, max: maxYear },
  };
}

export type VehicleSchemas = ReturnType<typeof buildVehicleSchemas>;
const built = new Map<number, VehicleSchemas>();

/**
 * The vehicle schemas for an edition: a vehicle's year runs up to the event's year (`eventYear` of
 * the configured start), so the next edition needs no code change. Built once per year.
 */
// Pure: bundles that use none of the schemas leave them out.
/* @__NO_SIDE_EFFECTS__ */
export function vehicleSchemas(maxYear: number): VehicleSchemas {
  let schemas = built.get(maxYear);
  if (!schemas) {
    schemas = buildVehicleSchemas(maxYear);
    built.set(maxYear, schemas);
  }
  return schemas;
}

/**
 * The schemas of the spec's edition (year up to 2026). Types come from here; runtime validation
 * uses `vehicleSchemas(eventYear(configured start))`.
 */
const specEdition = /* @__PURE__ */ vehicleSchemas(/* @__PURE__ */ eventYear());
export const VehicleSchema = specEdition.VehicleSchema;
export const VehicleEditSchema = specEdition.VehicleEditSchema;
export const ApplicationFormSchema = specEdition.ApplicationFormSchema;
export const APPLICATION_STEP_SCHEMAS = specEdition.APPLICATION_STEP_SCHEMAS;
export type VehicleInput = v.InferOutput<typeof VehicleSchema>;
export type VehicleEdit = v.InferOutput<typeof VehicleEditSchema>;

/**
 * Owner's PATCH with a status: submit (draft → submitted, with the three consents as the wizard
 * names them, each `true`), withdraw (→ draft) or accept an invitation (→ confirmed).
 */
export const OwnerStatusPatchSchema = /* @__PURE__ */ submissionNeedsConsents(
  fieldObject({
    status: v.picklist(OWNER_PATCH_STATUSES, MSG.status),
    ...consentEntries,
  }),
);
export type OwnerStatusPatch = v.InferOutput<typeof OwnerStatusPatchSchema>;

/** Reviewer or admin status change; oldStatus guards against concurrent changes (409 when stale). */
export const AdminStatusUpdateSchema = fieldObject({
  status: v.picklist(VEHICLE_STATUSES, MSG.status),
  oldStatus: v.picklist(VEHICLE_STATUSES, MSG.oldStatus),
  comment: v.pipe(
    v.nullish(v.pipe(v.string(MSG.comment), v.trim(), v.maxLength(2000, MSG.commentMax))),
    v.transform((value) => value || undefined),
  ),
  score: v.nullish(
    v.pipe(
      v.number(MSG.score),
      v.integer(MSG.scoreRange),
      v.minValue(0, MSG.scoreRange),
      v.maxValue(10, MSG.scoreRange),
    ),
  ),
});
export type AdminStatusUpdate = v.InferOutput<typeof AdminStatusUpdateSchema>;
