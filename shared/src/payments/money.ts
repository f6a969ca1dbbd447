/** Euro amounts: kept as whole cents, shown and typed the German way. */
import * as v from 'valibot';

export const EURO_MESSAGES = {
  required: 'Bitte geben Sie einen Betrag an.',
  format: 'Bitte geben Sie den Betrag in Euro an, z. B. 25 oder 25,50.',
  negative: 'Der Betrag darf nicht negativ sein.',
  decimals: 'Bitte geben Sie höchstens zwei Nachkommastellen (Cent) an.',
  tooLarge: 'Der Betrag ist zu groß.',
} as const;

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** '25,00 €', '1.234,50 €' (with the non-breaking space Intl puts before the sign). */
export function formatEuro(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  return euro.format(cents / 100);
}

/** The largest amount a form takes: the most a SEPA credit transfer (and a GiroCode) carries. */
export const MAX_EURO_INPUT_CENTS = 99_999_999_999;

export type EuroInput = { ok: true; cents: number } | { ok: false; message: string };

/**
 * An amount typed into a form, in cents: '25' → 2500, '25,5' → 2550, '1.234,50 €' → 123450,
 * '25,–' → 2500. The decimal mark is the comma; a point followed by one or two digits (and no comma
 * anywhere) is read as a decimal point too ('25.50'), otherwise points separate thousands ('1.250'
 * is 1250 €). '€' or 'EUR' may stand before or after the number.
 */
export function parseEuroInput(input: string): EuroInput {
  let text = input
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:€|EUR)\s?|\s?(?:€|EUR)$/gi, '')
    .trim();
  if (text === '') return { ok: false, message: EURO_MESSAGES.required };
  if (/^[-−]/.test(text)) return { ok: false, message: EURO_MESSAGES.negative };
  text = text.replace(/,(?:-{1,2}|–|—)$/, '');
  if (!text.includes(',') && /^\d+\.\d{1,2}$/.test(text)) text = text.replace('.', ',');
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/.exec(text);
  if (!match) return { ok: false, message: EURO_MESSAGES.format };
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > 2) return { ok: false, message: EURO_MESSAGES.decimals };
  const euros = whole.replace(/\./g, '');
  if (euros.length > 12) return { ok: false, message: EURO_MESSAGES.tooLarge };
  const cents = Number(euros) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents > MAX_EURO_INPUT_CENTS) return { ok: false, message: EURO_MESSAGES.tooLarge };
  return { ok: true, cents };
}

/** A form's amount field: the typed text in, whole cents out (for TanStack Form's validators). */
export const EuroInputSchema = v.pipe(
  v.string(EURO_MESSAGES.required),
  v.rawTransform<string, number>(({ dataset, addIssue, NEVER }) => {
    const parsed = parseEuroInput(dataset.value);
    if (parsed.ok) return parsed.cents;
    addIssue({ message: parsed.message });
    return NEVER;
  }),
);
