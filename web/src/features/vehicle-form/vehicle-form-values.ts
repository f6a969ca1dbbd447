import type {
  ApplicationFormSchema,
  CONSENTS,
  SubmissionConsentKind,
  VehicleEditSchema,
} from '@schlosstreffen/shared';
import {
  DRIVE_TYPES,
  DRIVE_TYPE_LABELS,
  FUEL_LABELS,
  FUEL_TYPES,
  getCreateDefaults,
  WIZARD_STEP_FIELDS,
} from '@schlosstreffen/shared';
import * as v from 'valibot';
import { siteVehicleSchemas } from '../../lib/vehicle-schemas';
import type { SelectOption } from '../../components/ui/select';
import type { Vehicle } from '@schlosstreffen/shared/api';

/**
 * Form values of the application wizard and the edit form, their defaults and the request bodies
 * built from them. Empty number inputs hold null, so required numbers
 * fail with their "… ist erforderlich" message and optional ones are sent as cleared.
 */

type RequiredNumber = 'year' | 'ps' | 'weightKg' | 'topSpeedKmh' | 'zeroToHundredS';
/** The wizard's consent checkboxes: consentMedia, consentQuartett, consentContact. */
type ConsentField = (typeof CONSENTS)[SubmissionConsentKind]['field'];

/** The wizard: vehicle fields (inputs of ApplicationFormSchema) plus the three consents. */
export type ApplyFormValues = Omit<
  v.InferInput<typeof ApplicationFormSchema>,
  RequiredNumber | ConsentField | 'status'
> & { [K in RequiredNumber]: number | null } & { [K in ConsentField]: boolean };

/** The edit form: zeroToHundredS and quarterMileS are text there ('4,5'), numbers may be cleared. */
export type EditFormValues = Omit<
  v.InferInput<typeof VehicleEditSchema>,
  'year' | 'ps' | 'weightKg' | 'topSpeedKmh'
> & { year?: number | null; ps?: number | null; weightKg?: number | null; topSpeedKmh?: number | null };

export const CREATE_STEPS = ['Basisdaten', 'Leistungsdaten', 'Fahrzeugbilder', 'Einwilligungen'] as const;
export const EDIT_STEPS = ['Basisdaten', 'Leistungsdaten', 'Bilder verwalten'] as const;

/** Where each field is entered: the wizard goes back to the first step with an error. */
const FIELD_STEPS: Readonly<Record<string, 1 | 2 | 4>> = {
  name: 1,
  brand: 1,
  model: 1,
  year: 1,
  color: 1,
  licensePlate: 1,
  vin: 1,
  tuningCategories: 1,
  descriptionShort: 1,
  descriptionLong: 1,
  ps: 2,
  weightKg: 2,
  topSpeedKmh: 2,
  zeroToHundredS: 2,
  torqueNm: 2,
  quarterMileS: 2,
  driveType: 2,
  fuelType: 2,
  displacementCcm: 2,
  cylinders: 2,
  specialMods: 2,
  consentMedia: 4,
  consentQuartett: 4,
  consentContact: 4,
};

/** The step holding the first invalid field of `issues`, if any. */
export function stepOfFirstIssue(issues: readonly { path?: readonly { key: unknown }[] }[]): number | null {
  const steps = issues
    .map((issue) => FIELD_STEPS[String(issue.path?.[0]?.key ?? '')])
    .filter((step): step is 1 | 2 | 4 => step !== undefined);
  return steps.length ? Math.min(...steps) : null;
}

/** Fields checked before 'Weiter' leaves a step (WIZARD_STEP_FIELDS); steps without validation: none. */
export function stepFields(step: number): readonly string[] {
  return step in WIZARD_STEP_FIELDS ? WIZARD_STEP_FIELDS[step as keyof typeof WIZARD_STEP_FIELDS] : [];
}

export const DRIVE_OPTIONS_CREATE: readonly SelectOption[] = DRIVE_TYPES.map((value) => ({
  value,
  label: `${value} (${DRIVE_TYPE_LABELS[value]})`,
}));

/** The edit form's drive options are lower case (fwd, rwd, awd); the server upper-cases them. */
export const DRIVE_OPTIONS_EDIT: readonly SelectOption[] = DRIVE_TYPES.map((value) => ({
  value: value.toLowerCase(),
  label: `${value.toLowerCase()} (${DRIVE_TYPE_LABELS[value]})`,
}));

/** Benzin, Diesel, Electric (shown as 'Elektro'), Hybrid. */
export const FUEL_OPTIONS: readonly SelectOption[] = FUEL_TYPES.map((value) => ({
  value,
  label: FUEL_LABELS[value],
}));

/** Offered as chips; categories a vehicle already has are shown as well. */
export const TUNING_CATEGORY_PRESETS = [
  'Motor',
  'Turbo',
  'Fahrwerk',
  'Bremsen',
  'Abgasanlage',
  'Getriebe',
  'Elektronik',
  'Optik',
  'Felgen',
  'Innenraum',
  'Restaurierung',
] as const;

/** Wizard defaults: year the current year, ps 150, 1200 kg, 200 km/h, 60 s. */
export function createDefaultValues(now: Date = new Date()): ApplyFormValues {
  const defaults = getCreateDefaults(now, siteVehicleSchemas().year.max);
  return {
    name: '',
    brand: '',
    model: '',
    year: defaults.year,
    color: '',
    licensePlate: '',
    vin: '',
    tuningCategories: [],
    descriptionShort: '',
    descriptionLong: '',
    specialMods: '',
    ps: defaults.ps,
    weightKg: defaults.weightKg,
    topSpeedKmh: defaults.topSpeedKmh,
    zeroToHundredS: defaults.zeroToHundredS,
    torqueNm: null,
    quarterMileS: null,
    driveType: '',
    fuelType: '',
    displacementCcm: null,
    cylinders: null,
    consentMedia: false,
    consentQuartett: false,
    consentContact: false,
  };
}

/**
 * Body of POST /api/vehicles: the vehicle fields (parsed by VehicleSchema: trimmed, '' → null,
 * numbers as numbers) with the three consents as ticked, plus status 'submitted'; the server records
 * the consents with the application. The server derives the title.
 */
export function applicationBody(values: ApplyFormValues) {
  return v.parse(siteVehicleSchemas().VehicleSchema, { ...values, status: 'submitted' });
}

/** Seconds as German text for the edit form: 4.5 → '4,5'. */
function formatSeconds(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value).replace('.', ',');
}

/** A decimal typed in the edit form ('4,5' or '4.5') as a number, or null. */
export function parseDecimal(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim().replace(',', '.');
  if (text === '') return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
}

/** The edit form filled from a vehicle; drive type in the form's lower case. */
export function editDefaultValues(vehicle: Vehicle): EditFormValues {
  return {
    name: vehicle.name ?? '',
    brand: vehicle.brand,
    model: vehicle.model,
    year: vehicle.year,
    color: vehicle.color ?? '',
    licensePlate: vehicle.licensePlate ?? '',
    vin: vehicle.vin ?? '',
    tuningCategories: [...(vehicle.tuningCategories ?? [])],
    descriptionShort: vehicle.descriptionShort ?? '',
    descriptionLong: vehicle.descriptionLong ?? '',
    specialMods: vehicle.specialMods ?? '',
    ps: vehicle.ps,
    weightKg: vehicle.weightKg,
    topSpeedKmh: vehicle.topSpeedKmh,
    zeroToHundredS: formatSeconds(vehicle.zeroToHundredS),
    quarterMileS: formatSeconds(vehicle.quarterMileS),
    torqueNm: vehicle.torqueNm ?? null,
    displacementCcm: vehicle.displacementCcm ?? null,
    cylinders: vehicle.cylinders ?? null,
    driveType: vehicle.driveType ? vehicle.driveType.toLowerCase() : '',
  };
}

type EditKey = keyof typeof VehicleEditSchema.entries;

/**
 * Body of PATCH /api/vehicles/{id}: the fields that differ from what was loaded (each parsed by
 * VehicleEditSchema, so '4,5' and 4.5 or 'rwd' and 'RWD' count as equal).
 */
export function editBody(values: EditFormValues, initial: EditFormValues) {
  const { VehicleEditSchema } = siteVehicleSchemas();
  const parsed = v.parse(VehicleEditSchema, values);
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(parsed) as EditKey[]) {
    const before = v.safeParse(VehicleEditSchema.entries[key], initial[key as keyof EditFormValues]);
    if (!before.success || JSON.stringify(before.output) !== JSON.stringify(parsed[key])) {
      body[key] = parsed[key];
    }
  }
  return body;
}
