import { describe, expect, it } from 'vitest';
import {
  driveTypeLabel,
  FUEL_LABELS,
  isStaffRole,
  ownerCanChangeStatus,
  ownerCanConfirm,
  ownerCanDelete,
  ownerCanSubmit,
  ownerCanWithdraw,
  STATUS_BADGE_CLASSES,
  STATUS_LABELS,
  VEHICLE_STATUSES,
  type VehicleStatus,
} from './status.js';

const allowed = (rule: (status: VehicleStatus) => boolean) => VEHICLE_STATUSES.filter(rule);

describe('status labels', () => {
  it('labels every status in German', () => {
    expect(VEHICLE_STATUSES.map((status) => STATUS_LABELS[status])).toEqual([
      'Entwurf',
      'Eingereicht',
      'In Prüfung',
      'Warteliste',
      'Eingeladen',
      'Bestätigt',
      'Abgelehnt',
    ]);
  });

  it('colours every status', () => {
    expect(STATUS_BADGE_CLASSES.draft).toContain('slate');
    expect(STATUS_BADGE_CLASSES.submitted).toContain('blue');
    expect(STATUS_BADGE_CLASSES.in_review).toContain('yellow');
    expect(STATUS_BADGE_CLASSES.waitlist).toContain('orange');
    expect(STATUS_BADGE_CLASSES.invited).toContain('green');
    expect(STATUS_BADGE_CLASSES.confirmed).toContain('emerald-700');
    expect(STATUS_BADGE_CLASSES.rejected).toContain('red');
  });

  it("shows Electric as 'Elektro'", () => {
    expect(FUEL_LABELS.Electric).toBe('Elektro');
  });
});

describe('driveTypeLabel', () => {
  it('maps drive types in any case', () => {
    expect(driveTypeLabel('AWD')).toBe('Allradantrieb');
    expect(driveTypeLabel('rwd')).toBe('Heckantrieb');
    expect(driveTypeLabel('Fwd')).toBe('Frontantrieb');
  });

  it("falls back to 'Unbekannt'", () => {
    for (const value of ['4WD', '', null, undefined]) expect(driveTypeLabel(value)).toBe('Unbekannt');
  });
});

describe('owner status rules', () => {
  it('submits only drafts', () => {
    expect(allowed(ownerCanSubmit)).toEqual(['draft']);
  });

  it('withdraws every status except draft and rejected', () => {
    expect(allowed(ownerCanWithdraw)).toEqual(['submitted', 'in_review', 'waitlist', 'invited', 'confirmed']);
  });

  it('deletes only drafts', () => {
    expect(allowed(ownerCanDelete)).toEqual(['draft']);
  });

  it('confirms only invitations', () => {
    expect(allowed(ownerCanConfirm)).toEqual(['invited']);
  });

  it('combines the rules per transition', () => {
    expect(ownerCanChangeStatus('draft', 'submitted')).toBe(true);
    expect(ownerCanChangeStatus('waitlist', 'submitted')).toBe(false);
    expect(ownerCanChangeStatus('confirmed', 'draft')).toBe(true);
    expect(ownerCanChangeStatus('rejected', 'draft')).toBe(false);
    expect(ownerCanChangeStatus('invited', 'confirmed')).toBe(true);
    expect(ownerCanChangeStatus('submitted', 'confirmed')).toBe(false);
    expect(ownerCanChangeStatus('draft', 'in_review')).toBe(false);
  });
});

describe('isStaffRole', () => {
  it('is true for admin and reviewer only', () => {
    expect(['user', 'admin', 'reviewer', '', null, undefined].map(isStaffRole)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
