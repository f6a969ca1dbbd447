import { describe, expect, it } from 'vitest';
import {
  PAYMENT_REFERENCE_ALPHABET,
  findPaymentReferences,
  isValidPaymentReference,
  makePaymentReference,
  normalizePaymentReference,
  paymentReferenceCheckCharacter,
} from './reference.js';

const ALPHABET = [...PAYMENT_REFERENCE_ALPHABET];
const DIGITS = [...'0123456789'];
/** Whatever a payer might type in a place. */
const TYPABLE = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

const YEAR = new Set([2, 3]);
/** Letters read as the digit they look like where only a year digit can stand. */
const SAME_DIGIT: Record<string, string> = { O: '0', I: '1', L: '1' };

/** A deterministic random source. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const compact = (reference: string) => reference.replaceAll('-', '');
const withCheck = (body: string) => body + paymentReferenceCheckCharacter(body);
const swap = (text: string, i: number, j: number) => {
  const chars = [...text];
  [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  return chars.join('');
};

/** Compact references of several years, 0 and 1 among the year digits. */
const SAMPLES = [2026, 2030, 2031, 2010, 2099].flatMap((year, y) => {
  const random = seeded(y + 1);
  return Array.from({ length: 20 }, () => compact(makePaymentReference(year, random)));
});

describe('the alphabet', () => {
  it('has 31 characters (a prime), none of 0, O, 1, I, L', () => {
    expect(ALPHABET).toHaveLength(31);
    expect(new Set(ALPHABET).size).toBe(31);
    for (const confusable of '0O1IL') expect(PAYMENT_REFERENCE_ALPHABET).not.toContain(confusable);
  });
});

describe('makePaymentReference', () => {
  it('writes ST, the year, five random characters and the check character', () => {
    const reference = makePaymentReference(2026, seeded(7));
    expect(reference).toMatch(/^ST26-[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]$/);
    expect(reference.length).toBeLessThanOrEqual(20);
    expect(isValidPaymentReference(reference)).toBe(true);
  });

  it('uses the two last digits of the year', () => {
    expect(makePaymentReference(2030, seeded(1))).toMatch(/^ST30-/);
    expect(makePaymentReference(2100, seeded(1))).toMatch(/^ST00-/);
  });

  it('picks from the whole alphabet', () => {
    const seen = new Set<string>();
    const random = seeded(3);
    for (let i = 0; i < 400; i++)
      for (const char of compact(makePaymentReference(2026, random)).slice(4, 9)) seen.add(char);
    expect(seen.size).toBe(31);
    expect(makePaymentReference(2026, () => 0)).toBe(
      withCheck('ST2622222').replace(/^(.{4})(.{5})/, '$1-$2-'),
    );
    expect(makePaymentReference(2026, () => 0.999_999)).toMatch(/^ST26-ZZZZZ-/);
  });

  it('uses a secure random source by default', () => {
    const references = new Set(Array.from({ length: 50 }, () => makePaymentReference(2026)));
    expect(references.size).toBe(50);
    for (const reference of references) expect(isValidPaymentReference(reference)).toBe(true);
  });

  it('refuses a random source outside [0, 1)', () => {
    expect(() => makePaymentReference(2026, () => 1)).toThrow(RangeError);
    expect(() => makePaymentReference(2026, () => Number.NaN)).toThrow(RangeError);
  });
});

describe('the check character', () => {
  it('catches every single-character substitution', () => {
    for (const reference of SAMPLES) {
      expect(isValidPaymentReference(reference)).toBe(true);
      for (let i = 0; i < reference.length; i++) {
        for (const char of TYPABLE) {
          if (char === reference[i] || (YEAR.has(i) && SAME_DIGIT[char] === reference[i])) continue;
          const typo = reference.slice(0, i) + char + reference.slice(i + 1);
          expect(isValidPaymentReference(typo), typo).toBe(false);
        }
      }
    }
  });

  it('catches every swap of two neighbours, over the whole alphabet', () => {
    const filler = 'ST26KKKKK';
    // Two random characters next to each other, every pair.
    for (let i = 4; i < 8; i++)
      for (const a of ALPHABET)
        for (const b of ALPHABET) {
          if (a === b) continue;
          const reference = withCheck(filler.slice(0, i) + a + b + filler.slice(i + 2));
          expect(isValidPaymentReference(swap(reference, i, i + 1)), reference).toBe(false);
        }
    // The last random character and the check character, every value of each.
    for (const a of ALPHABET)
      for (const b of ALPHABET) {
        const reference = withCheck(`ST26KKK${a}${b}`);
        if (reference[8] === reference[9]) continue;
        expect(isValidPaymentReference(swap(reference, 8, 9)), reference).toBe(false);
      }
    // The two year digits, every pair.
    for (const a of DIGITS)
      for (const b of DIGITS) {
        if (a === b) continue;
        const reference = withCheck(`ST${a}${b}KKKKK`);
        expect(isValidPaymentReference(swap(reference, 2, 3)), reference).toBe(false);
      }
    // The second year digit and the first random character, every pair.
    for (const a of DIGITS)
      for (const b of ALPHABET) {
        if (a === b) continue;
        const reference = withCheck(`ST2${a}${b}KKKK`);
        expect(isValidPaymentReference(swap(reference, 3, 4)), reference).toBe(false);
      }
  });

  it('catches swaps of any two characters, not only neighbours', () => {
    for (const reference of SAMPLES)
      for (let i = 0; i < reference.length; i++)
        for (let j = i + 1; j < reference.length; j++) {
          if (reference[i] === reference[j]) continue;
          expect(isValidPaymentReference(swap(reference, i, j)), reference).toBe(false);
        }
  });
});

describe('normalizePaymentReference', () => {
  const reference = withCheck('ST26K7Q2P');

  it('reads any spelling', () => {
    expect(reference).toBe('ST26K7Q2PK');
    for (const spelling of [
      'ST26-K7Q2P-K',
      'st26k7q2pk',
      'ST 26-K7Q2 P-K',
      ' st26 – k7q2p – k ',
      'ST26K7Q2PK',
    ])
      expect(normalizePaymentReference(spelling), spelling).toBe('ST26-K7Q2P-K');
  });

  it('reads O as 0 and I or L as 1 in the year', () => {
    const reference = withCheck('ST30KKKKK');
    const written = normalizePaymentReference(reference);
    expect(written).toMatch(/^ST30-KKKKK-/);
    expect(normalizePaymentReference(`ST3O${reference.slice(4)}`)).toBe(written);
    expect(normalizePaymentReference(`st3o${reference.slice(4).toLowerCase()}`)).toBe(written);
    expect(findPaymentReferences(`Startgeld ST 3O-${reference.slice(4)}`)).toEqual([written]);
    const eleven = withCheck('ST11KKKKK');
    expect(normalizePaymentReference(`STIL${eleven.slice(4)}`)).toBe(normalizePaymentReference(eleven));
    // Elsewhere an O stays a typo.
    expect(normalizePaymentReference(`ST30O${reference.slice(5)}`)).toBeNull();
  });

  it('refuses other text and wrong check characters', () => {
    expect(normalizePaymentReference('ST26-K7Q2P-4')).toBeNull();
    expect(normalizePaymentReference('ST26-K7Q2P')).toBeNull();
    expect(normalizePaymentReference('XT26-K7Q2P-K')).toBeNull();
    expect(normalizePaymentReference('ST26-K7Q2P-K1')).toBeNull();
    expect(normalizePaymentReference('')).toBeNull();
  });
});

describe('findPaymentReferences', () => {
  const first = 'ST26-K7Q2P-K';
  const second = makePaymentReference(2026, seeded(11));

  it.each([
    'ST26-K7Q2P-K',
    'st26k7q2pk',
    'ST 26-K7Q2 P-K',
    'ST26 K7Q2P K',
    'Startgeld Schlosstreffen st26-k7q2p-k Max Mustermann',
    'Startgeld:ST26K7Q2PK, Danke!',
    'Ref. (ST26-K7Q2P-K)',
    'SVWZ+ST26K7Q2PK',
  ])('finds the reference in %j', (text) => {
    expect(findPaymentReferences(text)).toEqual([first]);
  });

  it('finds a reference split over two remittance lines', () => {
    expect(findPaymentReferences(['Startgeld Porsche 911 ST26-K7Q', '2P-K Mustermann'].join('\n'))).toEqual([
      first,
    ]);
    expect(findPaymentReferences('Teilnahmegebuehr ST26K7Q2P\nK')).toEqual([first]);
  });

  it('finds two references in one text, each once', () => {
    expect(findPaymentReferences(`Startgeld ${first} und ${second.toLowerCase()}, nochmal ${first}`)).toEqual(
      [first, second],
    );
  });

  it('ignores a reference with a typo', () => {
    expect(findPaymentReferences('Startgeld ST26-K7Q2P-4')).toEqual([]);
    expect(findPaymentReferences('Startgeld ST26-K7Q3P-K')).toEqual([]);
    expect(findPaymentReferences('Startgeld ST26-K7QP2-K')).toEqual([]);
  });

  it('does not find a reference glued to other letters or digits', () => {
    expect(findPaymentReferences('XST26K7Q2PK')).toEqual([]);
    expect(findPaymentReferences('ST26K7Q2PKX')).toEqual([]);
    expect(findPaymentReferences('RE2026ST26K7Q2PK99')).toEqual([]);
    expect(findPaymentReferences('ÜST26K7Q2PK')).toEqual([]);
    expect(findPaymentReferences('ST26K7Q2PK7 ST26K7Q2PK')).toEqual([first]);
  });

  it('finds nothing in ordinary text', () => {
    expect(findPaymentReferences('')).toEqual([]);
    expect(findPaymentReferences('Startgeld Schlosstreffen 2026 Stuttgart ST 2026')).toEqual([]);
  });

  it('finds every generated reference in any spelling', () => {
    for (const sample of SAMPLES) {
      const written = normalizePaymentReference(sample) ?? '';
      const spaced = [...sample].join(' ').toLowerCase();
      expect(findPaymentReferences(`Zahlung ${spaced} danke`)).toEqual([written]);
      expect(findPaymentReferences(`${sample.slice(0, 6)}\n${sample.slice(6)}`)).toEqual([written]);
    }
  });
});
