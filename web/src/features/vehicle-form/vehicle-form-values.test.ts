import { describe, expect, it } from 'vitest';
import type { Vehicle } from '@schlosstreffen/shared/api';
import {
  applicationBody,
  createDefaultValues,
  editBody,
  editDefaultValues,
  parseDecimal,
  stepOfFirstIssue,
} from './vehicle-form-values';

describe('wizard values', () => {
  it('defaults to the current year, 150 PS, 1200 kg, 200 km/h and 60 s', () => {
    expect(createDefaultValues(new Date('2025-05-01T12:00:00Z'))).toMatchObject({
      year: 2025,
      ps: 150,
      weightKg: 1200,
      topSpeedKmh: 200,
      zeroToHundredS: 60,
      consentMedia: false,
      consentQuartett: false,
      consentContact: false,
    });
  });

  it('builds the create body with the three consents as ticked and status submitted, without title', () => {
    const body = applicationBody({
      ...createDefaultValues(new Date('2026-01-01T12:00:00Z')),
      brand: ' Porsche ',
      model: '911 Turbo (964)',
      name: '',
      driveType: 'AWD',
      zeroToHundredS: 4.85,
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    });
    expect(body).toMatchObject({
      status: 'submitted',
      brand: 'Porsche',
      name: null,
      driveType: 'AWD',
      zeroToHundredS: 4.9,
      year: 2026,
      tuningCategories: [],
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    });
    expect(body).not.toHaveProperty('title');
  });

  it('maps an issue to the step that holds its field', () => {
    expect(stepOfFirstIssue([{ path: [{ key: 'consentContact' }] }, { path: [{ key: 'ps' }] }])).toBe(2);
    expect(stepOfFirstIssue([{ path: [{ key: 'brand' }] }])).toBe(1);
    expect(stepOfFirstIssue([])).toBeNull();
  });
});

describe('edit values', () => {
  const vehicle = {
    name: null,
    brand: 'Honda',
    model: 'Civic Type R (EK9)',
    year: 1998,
    color: 'Championship White',
    licensePlate: null,
    vin: null,
    tuningCategories: ['Fahrwerk'],
    descriptionShort: null,
    descriptionLong: null,
    specialMods: null,
    ps: 190,
    weightKg: 1050,
    topSpeedKmh: 230,
    zeroToHundredS: 6.7,
    quarterMileS: null,
    torqueNm: 160,
    displacementCcm: 1595,
    cylinders: 4,
    driveType: 'FWD',
  } as unknown as Vehicle;

  it('fills the form with German decimals and a lower-case drive type', () => {
    expect(editDefaultValues(vehicle)).toMatchObject({
      zeroToHundredS: '6,7',
      quarterMileS: '',
      driveType: 'fwd',
    });
    expect(parseDecimal('6,7')).toBe(6.7);
    expect(parseDecimal('')).toBeNull();
  });

  it('sends only changed fields, without a title', () => {
    const initial = editDefaultValues(vehicle);
    expect(editBody(initial, initial)).toEqual({});
    expect(
      editBody({ ...initial, zeroToHundredS: '6.7', driveType: 'rwd', torqueNm: null, color: ' ' }, initial),
    ).toEqual({ driveType: 'RWD', torqueNm: null, color: null });
  });
});
