import { describe, expect, it } from 'vitest';
import { centsToDecimal, csvAmountToCents, decimalToCents } from './amount.js';

describe('amounts as exact cents', () => {
  it('reads ISO 20022 decimals without floating point', () => {
    expect(decimalToCents('25')).toEqual({ ok: true, cents: 2500 });
    expect(decimalToCents('25.5')).toEqual({ ok: true, cents: 2550 });
    expect(decimalToCents('0025.50')).toEqual({ ok: true, cents: 2550 });
    expect(decimalToCents('8.85000')).toEqual({ ok: true, cents: 885 });
    // 0.29 * 100 is 28.999999999999996 in floating point
    expect(decimalToCents('0.29')).toEqual({ ok: true, cents: 29 });
    expect(decimalToCents('9999999999999.99')).toEqual({ ok: true, cents: 999999999999999 });
    expect(decimalToCents('0')).toEqual({ ok: true, cents: 0 });
  });

  it('refuses what is not a plain decimal, and fractions of a cent', () => {
    for (const text of ['', '-5.00', '1,50', '1e3', '.5', '5.', 'NaN', '12 345.00', '99999999999999.00']) {
      expect(decimalToCents(text)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(decimalToCents('8.855')).toEqual({ ok: false, reason: 'sub_cent' });
  });

  it('reads German and English CSV amounts with their signs', () => {
    expect(csvAmountToCents('1.234,56', true)).toEqual({ ok: true, cents: 123456 });
    expect(csvAmountToCents('-1.234,56', true)).toEqual({ ok: true, cents: -123456 });
    expect(csvAmountToCents('25,00-', true)).toEqual({ ok: true, cents: -2500 });
    expect(csvAmountToCents('+25', true)).toEqual({ ok: true, cents: 2500 });
    expect(csvAmountToCents(' 1 234,5 ', true)).toEqual({ ok: true, cents: 123450 });
    expect(csvAmountToCents('-0,29', true)).toEqual({ ok: true, cents: -29 });
    expect(csvAmountToCents('1,234.56', false)).toEqual({ ok: true, cents: 123456 });
    expect(csvAmountToCents('-12.5', false)).toEqual({ ok: true, cents: -1250 });
    expect(csvAmountToCents('1.2345', true)).toEqual({ ok: false, reason: 'invalid' });
    expect(csvAmountToCents('-25,00-', true)).toEqual({ ok: false, reason: 'invalid' });
    expect(csvAmountToCents('12,345', true)).toEqual({ ok: false, reason: 'sub_cent' });
    expect(csvAmountToCents('', true)).toEqual({ ok: false, reason: 'invalid' });
    expect(centsToDecimal(-123456)).toBe('1234.56');
    expect(centsToDecimal(5)).toBe('0.05');
  });
});
