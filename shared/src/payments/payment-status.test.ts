import { describe, expect, it } from 'vitest';
import {
  PAYMENT_STATUSES,
  PAYMENT_STATUS_BADGE_CLASSES,
  PAYMENT_STATUS_LABELS,
  isPaymentStatus,
} from './payment-status.js';

describe('payment statuses', () => {
  it('have German labels and a badge each', () => {
    expect(PAYMENT_STATUSES.map((status) => PAYMENT_STATUS_LABELS[status])).toEqual([
      'Offen',
      'Teilweise bezahlt',
      'Bezahlt',
      'Erlassen',
      'Erstattung fällig',
      'Erstattet',
    ]);
    for (const status of PAYMENT_STATUSES) expect(PAYMENT_STATUS_BADGE_CLASSES[status]).toMatch(/^bg-/);
  });

  it('are told from other strings', () => {
    expect(isPaymentStatus('refund_due')).toBe(true);
    expect(isPaymentStatus('confirmed')).toBe(false);
    expect(isPaymentStatus(undefined)).toBe(false);
  });
});
