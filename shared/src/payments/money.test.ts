import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { EURO_MESSAGES, EuroInputSchema, formatEuro, parseEuroInput } from './money.js';

describe('formatEuro', () => {
  it('writes German amounts with a non-breaking space before the sign', () => {
    expect(formatEuro(2500)).toBe('25,00\u00a0€');
    expect(formatEuro(1)).toBe('0,01\u00a0€');
    expect(formatEuro(0)).toBe('0,00\u00a0€');
    expect(formatEuro(123_450)).toBe('1.234,50\u00a0€');
    expect(formatEuro(-550)).toBe('-5,50\u00a0€');
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatEuro(12.5)).toThrow(RangeError);
  });
});

describe('parseEuroInput', () => {
  it.each([
    ['25', 2500],
    ['25,5', 2550],
    ['25,50', 2550],
    ['25,05', 2505],
    ['0,99', 99],
    [',5', null],
    ['25 €', 2500],
    ['25€', 2500],
    ['€ 25,50', 2550],
    ['25,50 EUR', 2550],
    ['  25,5  ', 2550],
    ['25,-', 2500],
    ['25,–', 2500],
    ['1.234,50', 123_450],
    ['1.234', 123_400],
    ['1.250', 125_000],
    ['25.50', 2550],
    ['25.5', 2550],
    ['999.999.999,99', 99_999_999_999],
  ])('%j → %s', (input, cents) => {
    const parsed = parseEuroInput(input);
    if (cents === null) expect(parsed.ok).toBe(false);
    else expect(parsed).toEqual({ ok: true, cents });
  });

  it.each([
    ['', EURO_MESSAGES.required],
    [' € ', EURO_MESSAGES.required],
    ['-5', EURO_MESSAGES.negative],
    ['25,505', EURO_MESSAGES.decimals],
    ['zwanzig', EURO_MESSAGES.format],
    ['25,5,0', EURO_MESSAGES.format],
    ['1.23,50', EURO_MESSAGES.format],
    ['12 34', EURO_MESSAGES.format],
    ['1.000.000.000,00', EURO_MESSAGES.tooLarge],
  ])('%j is refused: %s', (input, message) => {
    expect(parseEuroInput(input)).toEqual({ ok: false, message });
  });

  it('EuroInputSchema turns the text into cents or a German issue', () => {
    expect(v.parse(EuroInputSchema, '25,5')).toBe(2550);
    expect(v.safeParse(EuroInputSchema, 'abc').issues?.map((issue) => issue.message)).toEqual([
      EURO_MESSAGES.format,
    ]);
  });
});
