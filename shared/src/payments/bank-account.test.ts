import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  BANK_ACCOUNT_MESSAGES,
  BicSchema,
  IbanSchema,
  SEPA_IBAN_COUNTRIES,
  bicProblem,
  formatIban,
  ibanProblem,
  isValidBic,
  isValidIban,
  maskIban,
  normalizeIban,
} from './bank-account.js';

/** The IBAN registry's examples. */
const VALID_IBANS = [
  'DE89 3704 0044 0532 0130 00',
  'AT61 1904 3002 3457 3201',
  'BE68 5390 0754 7034',
  'CH93 0076 2011 6238 5295 7',
  'FR14 2004 1010 0505 0001 3M02 606',
  'GB29 NWBK 6016 1331 9268 19',
  'NL91 ABNA 0417 1643 00',
  'NO93 8601 1117 947',
  'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
  'LU28 0019 4006 4475 0000',
];

const DE = 'DE89370400440532013000';

describe('IBAN', () => {
  it.each(VALID_IBANS)('accepts %s', (iban) => {
    expect(ibanProblem(iban)).toBeNull();
    expect(isValidIban(iban)).toBe(true);
  });

  it('normalizes spaces and case', () => {
    expect(normalizeIban(' de89 3704\u00a00044 0532 0130 00 ')).toBe(DE);
    expect(isValidIban('de89370400440532013000')).toBe(true);
  });

  it('knows the SEPA countries, DE with 22 characters', () => {
    expect(SEPA_IBAN_COUNTRIES.DE).toEqual({ length: 22, name: 'Deutschland' });
    expect(Object.keys(SEPA_IBAN_COUNTRIES)).toHaveLength(42);
    for (const { length } of Object.values(SEPA_IBAN_COUNTRIES)) {
      expect(length).toBeGreaterThanOrEqual(15);
      expect(length).toBeLessThanOrEqual(34);
    }
  });

  it('catches every single wrong digit and every swap of neighbours', () => {
    for (let i = 2; i < DE.length; i++) {
      for (const digit of '0123456789') {
        if (digit === DE[i]) continue;
        const typo = DE.slice(0, i) + digit + DE.slice(i + 1);
        expect(ibanProblem(typo), typo).toBe(BANK_ACCOUNT_MESSAGES.ibanChecksum);
      }
      if (i + 1 < DE.length && DE[i] !== DE[i + 1]) {
        const swapped = DE.slice(0, i) + DE[i + 1] + DE[i] + DE.slice(i + 2);
        expect(ibanProblem(swapped), swapped).not.toBeNull();
      }
    }
  });

  it('names the country when the length is wrong', () => {
    expect(ibanProblem('DE89 3704 0044 0532 0130 0')).toBe(
      'Die IBAN ist zu kurz für Deutschland: 21 statt 22 Zeichen.',
    );
    expect(ibanProblem('DE89 3704 0044 0532 0130 000')).toBe(
      'Die IBAN ist zu lang für Deutschland: 23 statt 22 Zeichen.',
    );
    expect(ibanProblem('NL91 ABNA 0417 1643 0')).toBe(
      'Die IBAN ist zu kurz für die Niederlande: 17 statt 18 Zeichen.',
    );
  });

  it('refuses other countries, other characters and a missing start', () => {
    expect(ibanProblem('US12 3456 7890 1234')).toBe(BANK_ACCOUNT_MESSAGES.ibanCountry('US'));
    expect(ibanProblem('DE89-3704-0044-0532-0130-00')).toBe(BANK_ACCOUNT_MESSAGES.ibanCharacters);
    expect(ibanProblem('3704 0044 0532 0130 00')).toBe(BANK_ACCOUNT_MESSAGES.ibanStart);
    expect(ibanProblem('  ')).toBe(BANK_ACCOUNT_MESSAGES.ibanRequired);
  });

  it('formats in groups of four', () => {
    expect(formatIban(DE)).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('at611904300234573201')).toBe('AT61 1904 3002 3457 3201');
  });

  it('masks all but country, check digits and the last four', () => {
    expect(maskIban(DE)).toBe('DE89 **** **** 3000');
    expect(maskIban('DE89 3704 0044 0532 0130 00')).toBe('DE89 **** **** 3000');
    expect(maskIban('NO9386011117947')).toBe('NO93 **** **** 7947');
    expect(maskIban('DE89')).toBe('**** ****');
  });

  it('IbanSchema outputs the electronic form and says what is wrong in German', () => {
    expect(v.parse(IbanSchema, 'de89 3704 0044 0532 0130 00')).toBe(DE);
    const result = v.safeParse(IbanSchema, 'DE88 3704 0044 0532 0130 00');
    expect(result.issues?.map((issue) => issue.message)).toEqual([
      'Die IBAN ist ungültig: Die Prüfsumme stimmt nicht. Bitte prüfen Sie sie auf Tippfehler.',
    ]);
    expect(v.safeParse(IbanSchema, 42).issues?.[0]?.message).toBe(BANK_ACCOUNT_MESSAGES.ibanRequired);
  });
});

describe('BIC', () => {
  it('accepts 8 and 11 characters in any case and spacing', () => {
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('COBADEFF')).toBe(true);
    expect(isValidBic('cobadeff xxx')).toBe(true);
    expect(isValidBic('DEUTDEDB110')).toBe(true);
  });

  it('refuses other lengths and forms', () => {
    expect(bicProblem('COBADEF')).toBe(BANK_ACCOUNT_MESSAGES.bicLength);
    expect(bicProblem('COBADEFFXX')).toBe(BANK_ACCOUNT_MESSAGES.bicLength);
    expect(bicProblem('C0BADEFF')).toBe(BANK_ACCOUNT_MESSAGES.bicFormat);
    expect(bicProblem('COBA1EFF')).toBe(BANK_ACCOUNT_MESSAGES.bicFormat);
    expect(bicProblem('COBADEF_')).toBe(BANK_ACCOUNT_MESSAGES.bicFormat);
    expect(bicProblem('')).toBe(BANK_ACCOUNT_MESSAGES.bicRequired);
  });

  it('BicSchema outputs upper case without spaces', () => {
    expect(v.parse(BicSchema, ' cobade ff ')).toBe('COBADEFF');
    expect(v.safeParse(BicSchema, 'COBADE').issues?.[0]?.message).toBe(BANK_ACCOUNT_MESSAGES.bicLength);
  });
});
