import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { CREATE_DEFAULTS, eventYear, getCreateDefaults } from '../constants.js';
import { flattenIssues } from './issues.js';
import {
  AdminStatusUpdateSchema,
  APPLICATION_STEP_SCHEMAS,
  ApplicationFormSchema,
  missingSubmissionConsents,
  OwnerStatusPatchSchema,
  VehicleEditSchema,
  VehicleSchema,
  vehicleSchemas,
  WIZARD_STEP_FIELDS,
} from './vehicle.js';

function issuesOf(schema: v.GenericSchema, input: unknown) {
  const result = v.safeParse(schema, input);
  return result.success ? [] : flattenIssues(result.issues);
}

const vehicle = {
  brand: 'BMW',
  model: 'M3',
  year: 2004,
  ps: 343,
  weightKg: 1570,
  topSpeedKmh: 250,
  zeroToHundredS: 5.2,
};

const ALL_CONSENTS = { consentMedia: true, consentQuartett: true, consentContact: true } as const;
const CONSENT_ISSUES = [
  { field: 'consentMedia', message: 'Einwilligung zur Mediennutzung ist erforderlich' },
  { field: 'consentQuartett', message: 'Einwilligung für Auto-Quartett ist erforderlich' },
  { field: 'consentContact', message: 'Einwilligung zur Kontaktaufnahme ist erforderlich' },
];

describe('VehicleSchema', () => {
  it('accepts the required fields and defaults tuningCategories to []', () => {
    expect(v.parse(VehicleSchema, vehicle)).toEqual({ ...vehicle, tuningCategories: [] });
  });

  it('accepts every optional field', () => {
    const full = {
      ...vehicle,
      name: ' Blaues Biest ',
      color: 'Blau',
      licensePlate: 'DD-AB 123',
      vin: 'WBSBL93406PN12345',
      torqueNm: 365,
      kw: 252,
      driveType: 'RWD',
      fuelType: 'Benzin',
      displacementCcm: 3246,
      cylinders: 6,
      quarterMileS: 13.1,
      tuningCategories: ['Fahrwerk', ' Motor '],
      descriptionShort: 'Kurz',
      descriptionLong: 'Lang',
      specialMods: 'Turbo',
      status: 'submitted',
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    };
    expect(v.parse(VehicleSchema, full)).toEqual({
      ...full,
      name: 'Blaues Biest',
      tuningCategories: ['Fahrwerk', 'Motor'],
    });
  });

  it('drops a title (older clients send one; the server derives it from brand and model)', () => {
    expect(v.parse(VehicleSchema, { ...vehicle, title: 'BMW M3' })).not.toHaveProperty('title');
  });

  it('normalises lowercase drive types to uppercase', () => {
    for (const [input, output] of [
      ['fwd', 'FWD'],
      ['rwd', 'RWD'],
      [' awd ', 'AWD'],
      ['AWD', 'AWD'],
    ] as const) {
      expect(v.parse(VehicleSchema, { ...vehicle, driveType: input }).driveType).toBe(output);
    }
  });

  it('turns empty optional values into null and keeps undefined', () => {
    const output = v.parse(VehicleSchema, {
      ...vehicle,
      color: '  ',
      driveType: '',
      fuelType: null,
      kw: null,
    });
    expect(output).toMatchObject({ color: null, driveType: null, fuelType: null, kw: null });
    expect(output.name).toBeUndefined();
  });

  it('rejects values outside the enumerations', () => {
    expect(issuesOf(VehicleSchema, { ...vehicle, driveType: '4WD', fuelType: 'Elektro' })).toEqual([
      { field: 'driveType', message: 'Ungültige Antriebsart' },
      { field: 'fuelType', message: 'Ungültige Kraftstoffart' },
    ]);
    expect(issuesOf(VehicleSchema, { ...vehicle, status: 'confirmed' })).toEqual([
      { field: 'status', message: 'Ungültiger Status' },
    ]);
  });

  it('needs the three consents to submit, each named by its field; a draft needs none', () => {
    expect(issuesOf(VehicleSchema, { ...vehicle, status: 'submitted' })).toEqual(CONSENT_ISSUES);
    expect(
      issuesOf(VehicleSchema, { ...vehicle, status: 'submitted', consentMedia: true, consentContact: false }),
    ).toEqual([CONSENT_ISSUES[1], CONSENT_ISSUES[2]]);
    expect(v.parse(VehicleSchema, { ...vehicle, status: 'submitted', ...ALL_CONSENTS })).toEqual({
      ...vehicle,
      tuningCategories: [],
      status: 'submitted',
      ...ALL_CONSENTS,
    });
    expect(v.safeParse(VehicleSchema, { ...vehicle, status: 'draft' }).success).toBe(true);
    expect(v.safeParse(VehicleSchema, { ...vehicle, consentMedia: false }).success).toBe(true);
  });

  it('names a missing consent beside the other invalid fields', () => {
    expect(
      issuesOf(VehicleSchema, {
        ...vehicle,
        ps: 10,
        status: 'submitted',
        ...ALL_CONSENTS,
        consentQuartett: undefined,
      }),
    ).toEqual([{ field: 'ps', message: 'Leistung muss zwischen 50 und 3000 PS liegen' }, CONSENT_ISSUES[1]]);
  });

  it('reports every required field when empty', () => {
    expect(issuesOf(VehicleSchema, { brand: ' ', model: '' })).toEqual([
      { field: 'brand', message: 'Marke ist erforderlich' },
      { field: 'model', message: 'Modell ist erforderlich' },
      { field: 'year', message: 'Baujahr ist erforderlich' },
      { field: 'ps', message: 'Leistung ist erforderlich' },
      { field: 'weightKg', message: 'Gewicht ist erforderlich' },
      { field: 'topSpeedKmh', message: 'Höchstgeschwindigkeit ist erforderlich' },
      { field: 'zeroToHundredS', message: 'Beschleunigung 0-100 km/h ist erforderlich' },
    ]);
  });

  it.each([
    ['year', 1949, 'Baujahr muss zwischen 1950 und 2026 liegen'],
    ['year', 2027, 'Baujahr muss zwischen 1950 und 2026 liegen'],
    ['ps', 49, 'Leistung muss zwischen 50 und 3000 PS liegen'],
    ['ps', 3001, 'Leistung muss zwischen 50 und 3000 PS liegen'],
    ['weightKg', 499, 'Gewicht muss zwischen 500 und 3000 kg liegen'],
    ['weightKg', 3001, 'Gewicht muss zwischen 500 und 3000 kg liegen'],
    ['topSpeedKmh', 99, 'Höchstgeschwindigkeit muss zwischen 100 und 500 km/h liegen'],
    ['topSpeedKmh', 501, 'Höchstgeschwindigkeit muss zwischen 100 und 500 km/h liegen'],
    ['zeroToHundredS', -0.1, 'Beschleunigung 0-100 km/h muss zwischen 0 und 300 Sekunden liegen'],
    ['zeroToHundredS', 300.1, 'Beschleunigung 0-100 km/h muss zwischen 0 und 300 Sekunden liegen'],
    ['quarterMileS', 60.5, 'Viertelmeile muss zwischen 0 und 60 Sekunden liegen'],
    ['ps', 150.5, 'Leistung muss eine ganze Zahl sein'],
  ])('reports %s = %s as out of range', (field, value, message) => {
    expect(issuesOf(VehicleSchema, { ...vehicle, [field]: value })).toEqual([{ field, message }]);
  });

  it('accepts the range limits', () => {
    const low = {
      ...vehicle,
      year: 1950,
      ps: 50,
      weightKg: 500,
      topSpeedKmh: 100,
      zeroToHundredS: 0,
      quarterMileS: 0,
    };
    const high = { ...vehicle, year: 2026, ps: 3000, weightKg: 3000, topSpeedKmh: 500, zeroToHundredS: 300 };
    expect(v.safeParse(VehicleSchema, low).success).toBe(true);
    expect(v.safeParse(VehicleSchema, { ...high, quarterMileS: 60 }).success).toBe(true);
  });

  it('rounds seconds to one decimal', () => {
    expect(v.parse(VehicleSchema, { ...vehicle, zeroToHundredS: 4.26, quarterMileS: 12.04 })).toMatchObject({
      zeroToHundredS: 4.3,
      quarterMileS: 12,
    });
  });

  it('accepts the wizard defaults', () => {
    const defaults = getCreateDefaults(new Date(2026, 0, 1));
    expect(defaults).toEqual({ ...CREATE_DEFAULTS, year: 2026 });
    expect(getCreateDefaults(new Date(2031, 0, 1)).year).toBe(2026);
    expect(v.safeParse(VehicleSchema, { brand: 'VW', model: 'Golf', ...defaults }).success).toBe(true);
  });
});

describe('vehicleSchemas: the year follows the configured event', () => {
  it("is the event's year at the venue", () => {
    expect(eventYear()).toBe(2026);
    expect(eventYear('2027-06-19T10:00:00+02:00')).toBe(2027);
    // 23:30 UTC on New Year's Eve is already the next year in Saxony.
    expect(eventYear('2027-12-31T23:30:00Z')).toBe(2028);
  });

  it('takes cars up to the event year and names it when refusing', () => {
    const next = vehicleSchemas(2027);
    const car = {
      brand: 'VW',
      model: 'ID.3',
      ps: 204,
      weightKg: 1800,
      topSpeedKmh: 160,
      zeroToHundredS: 7.3,
    };
    expect(v.safeParse(next.VehicleSchema, { ...car, year: 2027 }).success).toBe(true);
    const refused = v.safeParse(next.VehicleEditSchema, { year: 2028 });
    expect(refused.success).toBe(false);
    expect(refused.issues?.[0]?.message).toBe('Baujahr muss zwischen 1950 und 2027 liegen');
    expect(next.year).toEqual({ min: 1950, max: 2027 });
    expect(vehicleSchemas(2027)).toBe(next);
    expect(getCreateDefaults(new Date(2031, 0, 1), 2027).year).toBe(2027);
  });
});

describe('VehicleEditSchema', () => {
  it('has no status and makes every field optional', () => {
    expect(v.parse(VehicleEditSchema, {})).toEqual({});
    expect(v.parse(VehicleEditSchema, { status: 'confirmed', brand: 'Audi' })).toEqual({ brand: 'Audi' });
  });

  it('does not default tuningCategories on PATCH', () => {
    expect(v.parse(VehicleEditSchema, { brand: 'Audi' }).tuningCategories).toBeUndefined();
  });

  it('still validates the fields that are sent', () => {
    expect(issuesOf(VehicleEditSchema, { brand: '', year: 1900 })).toEqual([
      { field: 'brand', message: 'Marke ist erforderlich' },
      { field: 'year', message: 'Baujahr muss zwischen 1950 und 2026 liegen' },
    ]);
  });

  it('accepts zeroToHundredS as a number or a numeric string', () => {
    expect(v.parse(VehicleEditSchema, { zeroToHundredS: 4.5 }).zeroToHundredS).toBe(4.5);
    expect(v.parse(VehicleEditSchema, { zeroToHundredS: '4.5' }).zeroToHundredS).toBe(4.5);
    expect(v.parse(VehicleEditSchema, { zeroToHundredS: ' 4,5 ' }).zeroToHundredS).toBe(4.5);
    expect(v.parse(VehicleEditSchema, { zeroToHundredS: '300' }).zeroToHundredS).toBe(300);
  });

  it.each(['', '  ', 'abc', '4.5s', null, true])(
    "reports 'Bitte geben Sie einen gültigen Wert ein' for %j",
    (zeroToHundredS) => {
      expect(issuesOf(VehicleEditSchema, { zeroToHundredS })).toEqual([
        { field: 'zeroToHundredS', message: 'Bitte geben Sie einen gültigen Wert ein' },
      ]);
    },
  );

  it("reports 'Wert muss mindestens 0 sein' below 0", () => {
    expect(issuesOf(VehicleEditSchema, { zeroToHundredS: '-1' })).toEqual([
      { field: 'zeroToHundredS', message: 'Wert muss mindestens 0 sein' },
    ]);
    expect(issuesOf(VehicleEditSchema, { zeroToHundredS: -0.5 })).toEqual([
      { field: 'zeroToHundredS', message: 'Wert muss mindestens 0 sein' },
    ]);
  });

  it("reports 'Wert darf maximal 300 sein' above 300", () => {
    expect(issuesOf(VehicleEditSchema, { zeroToHundredS: 300.5 })).toEqual([
      { field: 'zeroToHundredS', message: 'Wert darf maximal 300 sein' },
    ]);
    expect(issuesOf(VehicleEditSchema, { zeroToHundredS: '301' })).toEqual([
      { field: 'zeroToHundredS', message: 'Wert darf maximal 300 sein' },
    ]);
  });

  it('accepts quarterMileS as number, numeric string, or empty to clear', () => {
    expect(v.parse(VehicleEditSchema, { quarterMileS: '12.3' }).quarterMileS).toBe(12.3);
    expect(v.parse(VehicleEditSchema, { quarterMileS: 12.3 }).quarterMileS).toBe(12.3);
    expect(v.parse(VehicleEditSchema, { quarterMileS: '' }).quarterMileS).toBeNull();
    expect(v.parse(VehicleEditSchema, { quarterMileS: null }).quarterMileS).toBeNull();
    expect(issuesOf(VehicleEditSchema, { quarterMileS: '61' })).toEqual([
      { field: 'quarterMileS', message: 'Viertelmeile muss zwischen 0 und 60 Sekunden liegen' },
    ]);
    expect(issuesOf(VehicleEditSchema, { quarterMileS: 'x' })).toEqual([
      { field: 'quarterMileS', message: 'Bitte geben Sie einen gültigen Wert ein' },
    ]);
  });

  it('normalises the edit form lowercase drive types', () => {
    expect(v.parse(VehicleEditSchema, { driveType: 'awd' }).driveType).toBe('AWD');
  });
});

describe('ApplicationFormSchema', () => {
  const application = { ...vehicle, consentMedia: true, consentQuartett: true, consentContact: true };

  it('accepts a vehicle with all three consents', () => {
    expect(v.safeParse(ApplicationFormSchema, application).success).toBe(true);
  });

  it('reports each missing consent with its message', () => {
    expect(
      issuesOf(ApplicationFormSchema, { ...vehicle, consentMedia: false, consentQuartett: false }),
    ).toEqual([
      { field: 'consentMedia', message: 'Einwilligung zur Mediennutzung ist erforderlich' },
      { field: 'consentQuartett', message: 'Einwilligung für Auto-Quartett ist erforderlich' },
      { field: 'consentContact', message: 'Einwilligung zur Kontaktaufnahme ist erforderlich' },
    ]);
  });

  it('applies the vehicle rules', () => {
    expect(issuesOf(ApplicationFormSchema, { ...application, ps: 10 })).toEqual([
      { field: 'ps', message: 'Leistung muss zwischen 50 und 3000 PS liegen' },
    ]);
  });

  it('validates each wizard step on its own fields', () => {
    expect(WIZARD_STEP_FIELDS[1]).toEqual(['brand', 'model', 'year', 'color']);
    expect(WIZARD_STEP_FIELDS[2]).toEqual(['ps', 'weightKg', 'topSpeedKmh', 'zeroToHundredS']);
    expect(v.safeParse(APPLICATION_STEP_SCHEMAS[1], { brand: 'VW', model: 'Golf', year: 2020 }).success).toBe(
      true,
    );
    expect(issuesOf(APPLICATION_STEP_SCHEMAS[1], { brand: '', model: 'Golf', year: 2020, ps: 1 })).toEqual([
      { field: 'brand', message: 'Marke ist erforderlich' },
    ]);
    expect(issuesOf(APPLICATION_STEP_SCHEMAS[2], { ...vehicle, weightKg: 100 })).toEqual([
      { field: 'weightKg', message: 'Gewicht muss zwischen 500 und 3000 kg liegen' },
    ]);
    expect(issuesOf(APPLICATION_STEP_SCHEMAS[4], { consentMedia: true, consentQuartett: true })).toEqual([
      { field: 'consentContact', message: 'Einwilligung zur Kontaktaufnahme ist erforderlich' },
    ]);
  });
});

describe('OwnerStatusPatchSchema', () => {
  it('accepts draft, submitted and confirmed only', () => {
    expect(v.parse(OwnerStatusPatchSchema, { status: 'draft' })).toEqual({ status: 'draft' });
    expect(v.parse(OwnerStatusPatchSchema, { status: 'submitted', ...ALL_CONSENTS })).toEqual({
      status: 'submitted',
      ...ALL_CONSENTS,
    });
    expect(v.parse(OwnerStatusPatchSchema, { status: 'confirmed' })).toEqual({ status: 'confirmed' });
    expect(issuesOf(OwnerStatusPatchSchema, { status: 'invited' })).toEqual([
      { field: 'status', message: 'Ungültiger Status' },
    ]);
  });

  it('needs the three consents to submit, not to withdraw or confirm', () => {
    expect(issuesOf(OwnerStatusPatchSchema, { status: 'submitted' })).toEqual(CONSENT_ISSUES);
    expect(
      issuesOf(OwnerStatusPatchSchema, { status: 'submitted', ...ALL_CONSENTS, consentContact: 'ja' }),
    ).toEqual([CONSENT_ISSUES[2]]);
    expect(v.safeParse(OwnerStatusPatchSchema, { status: 'draft' }).success).toBe(true);
  });
});

describe('missingSubmissionConsents', () => {
  it('names each consent not ticked', () => {
    expect(missingSubmissionConsents({})).toEqual(CONSENT_ISSUES);
    expect(missingSubmissionConsents({ consentMedia: true, consentQuartett: false })).toEqual([
      CONSENT_ISSUES[1],
      CONSENT_ISSUES[2],
    ]);
    expect(missingSubmissionConsents(ALL_CONSENTS)).toEqual([]);
  });
});

describe('AdminStatusUpdateSchema', () => {
  it('accepts any status with old status, comment and score', () => {
    expect(
      v.parse(AdminStatusUpdateSchema, {
        status: 'invited',
        oldStatus: 'in_review',
        comment: ' Top ',
        score: 9,
      }),
    ).toEqual({ status: 'invited', oldStatus: 'in_review', comment: 'Top', score: 9 });
    expect(v.parse(AdminStatusUpdateSchema, { status: 'rejected', oldStatus: 'draft', comment: '' })).toEqual(
      {
        status: 'rejected',
        oldStatus: 'draft',
        comment: undefined,
        score: undefined,
      },
    );
  });

  it('rejects unknown statuses, long comments and scores out of range', () => {
    expect(
      issuesOf(AdminStatusUpdateSchema, {
        status: 'done',
        comment: 'x'.repeat(2001),
        score: 11,
      }),
    ).toEqual([
      { field: 'status', message: 'Ungültiger Status' },
      { field: 'oldStatus', message: 'Bisheriger Status ist erforderlich' },
      { field: 'comment', message: 'Interne Notiz darf höchstens 2000 Zeichen lang sein' },
      { field: 'score', message: 'Bewertung muss eine ganze Zahl zwischen 0 und 10 sein' },
    ]);
  });
});
