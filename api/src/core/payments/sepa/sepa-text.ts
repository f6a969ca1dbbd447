/**
 * The characters German banks take in SEPA files (DFÜ-Abkommen, Anlage 3, „Zeichensatz“): the
 * Latin set of the EPC (a–z A–Z 0–9 / - ? : ( ) . , ' + and the space) and the characters of the
 * former national format DTAUS that the banks undertake to accept, Ä Ö Ü ä ö ü ß and &. Banks
 * convert these where a receiving bank cannot show them; anything else may be replaced by them or
 * make them refuse the whole file, so it is replaced here.
 */
const SEPA_LATIN = /^[A-Za-z0-9/?:().,'+ -]$/;
const DTAUS_EXTRA = new Set(['Ä', 'Ö', 'Ü', 'ä', 'ö', 'ü', 'ß', '&']);

/** Letters without a decomposition and common punctuation, with their nearest allowed spelling. */
const SUBSTITUTES: Readonly<Record<string, string>> = {
  ẞ: 'SS',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Þ: 'Th',
  þ: 'th',
  ı: 'i',
  ...Object.fromEntries([...'‘’‚‛`´′"“”„‟«»‹›″'].map((char) => [char, "'"])),
  ...Object.fromEntries([...'‐‑‒–—―−_'].map((char) => [char, '-'])),
  '[': '(',
  '{': '(',
  ']': ')',
  '}': ')',
  ';': ',',
  '€': 'EUR',
};

const isAllowed = (char: string) => SEPA_LATIN.test(char) || DTAUS_EXTRA.has(char);

function sepaChar(char: string): string {
  if (isAllowed(char)) return char;
  const substitute = SUBSTITUTES[char];
  if (substitute !== undefined) return substitute;
  if (/\s/u.test(char)) return ' ';
  // Control and format characters (soft hyphen, zero-width space …) and stray combining marks.
  if (/[\p{Cc}\p{Cf}\p{M}]/u.test(char)) return '';
  // é → e, ñ → n, ﬁ → fi, full-width Ａ → A: the compatibility decomposition without its marks.
  const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (base !== '' && [...base].every((c) => SEPA_LATIN.test(c))) return base;
  return '.';
}

/**
 * A text in the characters German banks take: umlauts, ß and & kept, other accented letters
 * without their accents, typographic quotes and dashes as ' and -, line breaks and other spaces as
 * one space, anything else as '.'; trimmed and cut to `maxLength` characters.
 */
export function toSepaText(value: string, maxLength: number): string {
  let text = '';
  for (const char of value.normalize('NFC')) text += sepaChar(char);
  return text.replace(/ {2,}/g, ' ').trim().slice(0, maxLength).trimEnd();
}

/** Whether a text has something to read: a letter or a digit. */
export const hasLetterOrDigit = (text: string) => /[A-Za-z0-9ÄÖÜäöüß]/.test(text);

/**
 * A reference (message id, end-to-end id): 1–35 characters of the Latin set without spaces, not
 * starting or ending with '/' and without '//' (EPC rules for references). Checked, never altered:
 * the bank reports the end-to-end id back on the statement, where it has to match.
 */
export function isSepaIdentifier(value: string): boolean {
  return (
    /^[A-Za-z0-9/?:().,'+-]{1,35}$/.test(value) &&
    !value.startsWith('/') &&
    !value.endsWith('/') &&
    !value.includes('//')
  );
}
