/**
 * IBAN and BIC: normalizing, checking (length per country, ISO 13616 mod-97 checksum), display
 * forms and their valibot schemas with German messages.
 */
import * as v from 'valibot';

/**
 * The countries of the SEPA schemes' geographical scope with their own IBAN prefix, with their IBAN
 * length and their name as it follows „für“ in a message. Overseas territories that bank with
 * French or Finnish IBANs (Guadeloupe, Åland …) need no row of their own. An IBAN of any other
 * country is refused: a fee is paid and refunded by SEPA credit transfer.
 */
export const SEPA_IBAN_COUNTRIES: Readonly<Record<string, { length: number; name: string }>> = {
  AD: { length: 24, name: 'Andorra' },
  AL: { length: 28, name: 'Albanien' },
  AT: { length: 20, name: 'Österreich' },
  BE: { length: 16, name: 'Belgien' },
  BG: { length: 22, name: 'Bulgarien' },
  CH: { length: 21, name: 'die Schweiz' },
  CY: { length: 28, name: 'Zypern' },
  CZ: { length: 24, name: 'Tschechien' },
  DE: { length: 22, name: 'Deutschland' },
  DK: { length: 18, name: 'Dänemark' },
  EE: { length: 20, name: 'Estland' },
  ES: { length: 24, name: 'Spanien' },
  FI: { length: 18, name: 'Finnland' },
  FR: { length: 27, name: 'Frankreich' },
  GB: { length: 22, name: 'das Vereinigte Königreich' },
  GI: { length: 23, name: 'Gibraltar' },
  GR: { length: 27, name: 'Griechenland' },
  HR: { length: 21, name: 'Kroatien' },
  HU: { length: 28, name: 'Ungarn' },
  IE: { length: 22, name: 'Irland' },
  IS: { length: 26, name: 'Island' },
  IT: { length: 27, name: 'Italien' },
  LI: { length: 21, name: 'Liechtenstein' },
  LT: { length: 20, name: 'Litauen' },
  LU: { length: 20, name: 'Luxemburg' },
  LV: { length: 21, name: 'Lettland' },
  MC: { length: 27, name: 'Monaco' },
  MD: { length: 24, name: 'die Republik Moldau' },
  ME: { length: 22, name: 'Montenegro' },
  MK: { length: 19, name: 'Nordmazedonien' },
  MT: { length: 31, name: 'Malta' },
  NL: { length: 18, name: 'die Niederlande' },
  NO: { length: 15, name: 'Norwegen' },
  PL: { length: 28, name: 'Polen' },
  PT: { length: 25, name: 'Portugal' },
  RO: { length: 24, name: 'Rumänien' },
  RS: { length: 22, name: 'Serbien' },
  SE: { length: 24, name: 'Schweden' },
  SI: { length: 19, name: 'Slowenien' },
  SK: { length: 24, name: 'die Slowakei' },
  SM: { length: 27, name: 'San Marino' },
  VA: { length: 22, name: 'die Vatikanstadt' },
};

export const BANK_ACCOUNT_MESSAGES = {
  ibanRequired: 'Bitte geben Sie die IBAN an.',
  ibanCharacters: 'Die IBAN darf nur Buchstaben und Ziffern enthalten (Leerzeichen sind erlaubt).',
  ibanStart: 'Die IBAN beginnt mit dem Länderkürzel und zwei Prüfziffern, z. B. DE89 3704 0044 0532 0130 00.',
  ibanCountry: (code: string) =>
    `IBANs aus „${code}“ sind nicht möglich: Überwiesen wird per SEPA, das Konto muss in einem SEPA-Land liegen.`,
  ibanTooShort: (country: string, length: number, expected: number) =>
    `Die IBAN ist zu kurz für ${country}: ${length} statt ${expected} Zeichen.`,
  ibanTooLong: (country: string, length: number, expected: number) =>
    `Die IBAN ist zu lang für ${country}: ${length} statt ${expected} Zeichen.`,
  ibanChecksum: 'Die IBAN ist ungültig: Die Prüfsumme stimmt nicht. Bitte prüfen Sie sie auf Tippfehler.',
  bicRequired: 'Bitte geben Sie die BIC an.',
  bicLength: 'Die BIC hat 8 oder 11 Zeichen, z. B. COBADEFFXXX.',
  bicFormat:
    'Die BIC ist ungültig: Auf vier Buchstaben für die Bank folgen zwei für das Land und zwei Zeichen für den Ort, z. B. COBADEFFXXX.',
} as const;

/** The electronic form: without spaces, upper case. */
export function normalizeIban(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** ISO 13616: the first four characters moved to the end, letters as 10–35, the number mod 97. */
function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = Number.parseInt(char, 36);
    remainder = (value < 10 ? remainder * 10 + value : remainder * 100 + value) % 97;
  }
  return remainder;
}

/** What is wrong with an IBAN (any spelling), as the German message; null when it is valid. */
export function ibanProblem(input: string): string | null {
  const iban = normalizeIban(input);
  if (iban === '') return BANK_ACCOUNT_MESSAGES.ibanRequired;
  if (!/^[A-Z0-9]+$/.test(iban)) return BANK_ACCOUNT_MESSAGES.ibanCharacters;
  if (!/^[A-Z]{2}[0-9]{2}/.test(iban)) return BANK_ACCOUNT_MESSAGES.ibanStart;
  const code = iban.slice(0, 2);
  const country = SEPA_IBAN_COUNTRIES[code];
  if (!country) return BANK_ACCOUNT_MESSAGES.ibanCountry(code);
  if (iban.length < country.length)
    return BANK_ACCOUNT_MESSAGES.ibanTooShort(country.name, iban.length, country.length);
  if (iban.length > country.length)
    return BANK_ACCOUNT_MESSAGES.ibanTooLong(country.name, iban.length, country.length);
  if (ibanRemainder(iban) !== 1) return BANK_ACCOUNT_MESSAGES.ibanChecksum;
  return null;
}

export function isValidIban(input: string): boolean {
  return ibanProblem(input) === null;
}

/** The paper form: groups of four, e.g. 'DE89 3704 0044 0532 0130 00'. */
export function formatIban(input: string): string {
  return normalizeIban(input).replace(/(.{4})(?!$)/g, '$1 ');
}

/**
 * The masked form shown wherever the whole IBAN is not needed: country and check digits, two masked
 * groups whatever the length, the last four characters ('DE89 **** **** 3000').
 */
export function maskIban(input: string): string {
  const iban = normalizeIban(input);
  if (iban.length < 8) return '**** ****';
  return `${iban.slice(0, 4)} **** **** ${iban.slice(-4)}`;
}

/** Without spaces, upper case. */
export function normalizeBic(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** What is wrong with a BIC, as the German message; null when its form is valid. */
export function bicProblem(input: string): string | null {
  const bic = normalizeBic(input);
  if (bic === '') return BANK_ACCOUNT_MESSAGES.bicRequired;
  if (bic.length !== 8 && bic.length !== 11) return BANK_ACCOUNT_MESSAGES.bicLength;
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(bic)) return BANK_ACCOUNT_MESSAGES.bicFormat;
  return null;
}

export function isValidBic(input: string): boolean {
  return bicProblem(input) === null;
}

function problemCheck(problem: (value: string) => string | null) {
  return v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = problem(dataset.value);
    if (message) addIssue({ message });
  });
}

/** An IBAN in any spelling; the output is its electronic form ('DE89370400440532013000'). */
export const IbanSchema = v.pipe(
  v.string(BANK_ACCOUNT_MESSAGES.ibanRequired),
  v.transform(normalizeIban),
  problemCheck(ibanProblem),
);

/** A BIC in any spelling; the output is upper case without spaces. */
export const BicSchema = v.pipe(
  v.string(BANK_ACCOUNT_MESSAGES.bicRequired),
  v.transform(normalizeBic),
  problemCheck(bicProblem),
);
