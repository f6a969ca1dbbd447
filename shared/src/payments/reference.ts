/**
 * The payment reference of an invitation, e.g. 'ST26-K7Q2P-K': 'ST', the edition's year in two
 * digits, five random characters and a check character.
 *
 * Alphabet: the digits 2–9 and the letters without I, L and O (31 characters). 0/O and 1/I/l read
 * alike in many fonts and in handwriting. The year digits may still be 0 or 1 (2030); as only
 * digits stand there, an O typed there is read as 0 and an I or L as 1.
 *
 * Check: every character gets a value (a year digit its number, any other character its place in
 * the alphabet, '2' = 0 … 'Z' = 30) and the n-th character of 'ST26K7Q2PK' the weight n; the
 * weighted sum of all ten is 0 mod 31. As 31 is prime and the weights 1–10 are distinct and
 * non-zero mod 31, changing any single character changes the sum, and swapping any two characters
 * (adjacent or not) changes it by (weight difference) × (value difference), which is never 0 mod 31.
 * A year digit and an alphabet digit share their order (value = digit − 2 in the alphabet), so
 * swapping the second year digit with the first random character is caught too; a letter swapped
 * into the year is no reference at all. A single typo therefore never turns one car's reference into
 * another's.
 */

export const PAYMENT_REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const MODULUS = PAYMENT_REFERENCE_ALPHABET.length; // 31, a prime
const PREFIX = 'ST';
const RANDOM_LENGTH = 5;

/** The compact form's characters that are digits of the year. */
const YEAR_POSITIONS = new Set([2, 3]);

function characterValue(char: string, position: number): number {
  return YEAR_POSITIONS.has(position) ? Number(char) : PAYMENT_REFERENCE_ALPHABET.indexOf(char);
}

/** The weighted sum of a compact reference's characters (check character included or not), mod 31. */
function weightedSum(compact: string): number {
  let sum = 0;
  for (let i = 0; i < compact.length; i++) sum += (i + 1) * characterValue(compact.charAt(i), i);
  return sum % MODULUS;
}

/** x with x·a ≡ 1 (mod 31). */
function inverse(a: number): number {
  for (let x = 1; x < MODULUS; x++) if ((x * a) % MODULUS === 1) return x;
  throw new RangeError(`${a} has no inverse mod ${MODULUS}`);
}

/** The check character that makes the weighted sum of body + check 0 mod 31. */
export function paymentReferenceCheckCharacter(body: string): string {
  const weight = body.length + 1;
  const value = ((MODULUS - weightedSum(body)) * inverse(weight)) % MODULUS;
  return PAYMENT_REFERENCE_ALPHABET.charAt(value);
}

const COMPACT = new RegExp(`^${PREFIX}[0-9]{2}[${PAYMENT_REFERENCE_ALPHABET}]{${RANDOM_LENGTH + 1}}$`);

function isValidCompact(compact: string): boolean {
  return COMPACT.test(compact) && weightedSum(compact) === 0;
}

/** The written form: 'ST26K7Q2PK' → 'ST26-K7Q2P-K'. */
function present(compact: string): string {
  return `${compact.slice(0, 4)}-${compact.slice(4, 4 + RANDOM_LENGTH)}-${compact.slice(4 + RANDOM_LENGTH)}`;
}

function secureRandom(): number {
  const buffer = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buffer);
  return (buffer[0] ?? 0) / 2 ** 32;
}

/**
 * A new reference for an invitation of the edition `year` (its written form, 12 characters).
 * `random` returns numbers in [0, 1); the caller keeps references unique (a new one on a clash).
 */
export function makePaymentReference(year: number, random: () => number = secureRandom): string {
  if (!Number.isInteger(year) || year < 0) throw new RangeError(`Invalid year: ${year}`);
  let body = PREFIX + String(year % 100).padStart(2, '0');
  for (let i = 0; i < RANDOM_LENGTH; i++) {
    const index = Math.floor(random() * MODULUS);
    if (!(index >= 0 && index < MODULUS)) throw new RangeError('random() must return numbers in [0, 1)');
    body += PAYMENT_REFERENCE_ALPHABET.charAt(index);
  }
  return present(body + paymentReferenceCheckCharacter(body));
}

/** Spaces, line breaks and dashes a payer may type inside a reference. */
const SEPARATOR_CLASS = String.raw`[\s\-\u2010-\u2015\u2212]`;
const SEPARATORS = new RegExp(`${SEPARATOR_CLASS}+`, 'g');

/**
 * The written form of a reference typed in any way (lower case, spaces or dashes anywhere or
 * missing); null when it is none or its check character does not match.
 */
export function normalizePaymentReference(input: string): string | null {
  const typed = input.replace(SEPARATORS, '').toUpperCase();
  const year = typed.slice(2, 4).replace(/O/g, '0').replace(/[IL]/g, '1');
  const compact = typed.slice(0, 2) + year + typed.slice(4);
  return isValidCompact(compact) ? present(compact) : null;
}

export function isValidPaymentReference(input: string): boolean {
  return normalizePaymentReference(input) !== null;
}

const YEAR_DIGIT_CLASS = '[0-9OoIiLl]';
const ALPHABET_CLASS = `[${PAYMENT_REFERENCE_ALPHABET}${PAYMENT_REFERENCE_ALPHABET.toLowerCase().replace(/[0-9]/g, '')}]`;

/** A reference at a given place of a text: 'ST', two digits, six alphabet characters, separators between any two. */
const CANDIDATE = new RegExp(
  [
    '[Ss]',
    '[Tt]',
    YEAR_DIGIT_CLASS,
    YEAR_DIGIT_CLASS,
    ...Array<string>(RANDOM_LENGTH + 1).fill(ALPHABET_CLASS),
  ].join(`${SEPARATOR_CLASS}*`),
  'y',
);

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * The references in a payer's remittance text (its lines joined with '\n'), in their written form,
 * each once, in the order they appear. A reference may be written in lower case, with spaces, dashes
 * or line breaks anywhere or none, among other words. It counts only as a word of its own: a letter
 * or digit directly before its 'ST' or directly after its check character (e.g. 'XST26K7Q2PK',
 * 'ST26K7Q2PK9') makes it part of something else and it is not found. A reference whose check
 * character does not match is not found either.
 */
export function findPaymentReferences(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start < text.length; start++) {
    const first = text.charAt(start);
    if (first !== 'S' && first !== 's') continue;
    if (start > 0 && WORD_CHARACTER.test(text.charAt(start - 1))) continue;
    CANDIDATE.lastIndex = start;
    const match = CANDIDATE.exec(text);
    if (!match) continue;
    const end = start + match[0].length;
    if (end < text.length && WORD_CHARACTER.test(text.charAt(end))) continue;
    const reference = normalizePaymentReference(match[0]);
    if (!reference) continue;
    if (!found.includes(reference)) found.push(reference);
    start = end - 1;
  }
  return found;
}
