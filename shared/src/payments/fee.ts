/**
 * An edition's participation fee ('Teilnahmegebühr'), as `fee` of PATCH /api/admin/editions/{year}:
 * the amount, the account it is paid to, the days to pay after an invitation's confirm-by deadline
 * and the refund rule. `fee: null` removes it; the edition's schema makes the key optional (absent
 * leaves the fee as it is).
 */
import * as v from 'valibot';
import { BANK_ACCOUNT_MESSAGES, BicSchema, IbanSchema } from './bank-account.js';
import { formatEuro } from './money.js';

export const FEE_LIMITS = {
  minCents: 1,
  maxCents: 100_000,
  accountHolderMax: 70,
  payWithinDaysMax: 60,
  payWithinDaysDefault: 5,
} as const;

/**
 * Characters of an account holder's name: the Latin set every SEPA bank must carry
 * (a–z A–Z 0–9 space / - ? : ( ) . , ' +) and what German banks carry besides (Ä Ö Ü ä ö ü ß &).
 * The GiroCode is UTF-8 and keeps umlauts; a bank abroad may turn them into A/O/U, which still pays.
 */
const ACCOUNT_HOLDER_CHARACTER = /[a-zA-Z0-9 /\-?:().,'+ÄÖÜäöüß&]/;

export const FEE_MESSAGES = {
  fee: 'Bitte geben Sie die Teilnahmegebühr vollständig an: Betrag, Kontoinhaber, IBAN, Zahlungsfrist und Erstattungsregel.',
  amount: `Bitte geben Sie den Betrag in Cent als ganze Zahl an (${formatEuro(FEE_LIMITS.minCents)} bis ${formatEuro(FEE_LIMITS.maxCents)}).`,
  amountRange: `Der Betrag muss zwischen ${formatEuro(FEE_LIMITS.minCents)} und ${formatEuro(FEE_LIMITS.maxCents)} liegen.`,
  accountHolderRequired: 'Bitte geben Sie den Kontoinhaber an.',
  accountHolderMax: `Der Kontoinhaber darf höchstens ${FEE_LIMITS.accountHolderMax} Zeichen lang sein.`,
  accountHolderCharacters: (characters: string) =>
    `Diese Zeichen übernehmen Banken bei Überweisungen nicht: ${characters}. Erlaubt sind Buchstaben (auch Umlaute und ß), Ziffern, Leerzeichen und / - ? : ( ) . , ' + &.`,
  payWithinDays: `Bitte geben Sie die Zahlungsfrist als ganze Zahl von 0 bis ${FEE_LIMITS.payWithinDaysMax} Tagen an.`,
  refund:
    'Bitte geben Sie die Erstattungsregel an: volle Erstattung bis (Datum oder leer) und den einbehaltenen Betrag.',
  fullUntil:
    'Bitte geben Sie das Datum, bis zu dem voll erstattet wird, als JJJJ-MM-TT an (z. B. 2026-05-31) oder lassen Sie es leer.',
  keepCents: 'Bitte geben Sie den einbehaltenen Betrag in Cent als ganze Zahl ab 0 an.',
  keepAboveAmount: 'Der einbehaltene Betrag darf nicht höher sein als die Teilnahmegebühr.',
} as const;

/** `v.object` whose missing keys read like their entries' message for undefined, anything else `message`. */
function objectWithMessage<const TEntries extends v.ObjectEntries>(entries: TEntries, message: string) {
  return v.object(entries, (issue) => {
    const key = issue.path?.[0]?.key;
    const entry = typeof key === 'string' && Object.hasOwn(entries, key) ? entries[key] : undefined;
    return (entry && v.safeParse(entry, undefined).issues?.[0]?.message) || message;
  });
}

/** 'YYYY-MM-DD' naming a day that exists. */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function isFeeAmount(cents: number): boolean {
  return Number.isInteger(cents) && cents >= FEE_LIMITS.minCents && cents <= FEE_LIMITS.maxCents;
}

const cents = (message: string) => v.pipe(v.number(message), v.integer(message));

/** Who receives the transfers, as it should appear in the payer's banking app. */
export const AccountHolderSchema = v.pipe(
  v.string(FEE_MESSAGES.accountHolderRequired),
  v.trim(),
  v.nonEmpty(FEE_MESSAGES.accountHolderRequired),
  v.maxLength(FEE_LIMITS.accountHolderMax, FEE_MESSAGES.accountHolderMax),
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const bad = [...new Set([...dataset.value].filter((char) => !ACCOUNT_HOLDER_CHARACTER.test(char)))];
    if (bad.length > 0)
      addIssue({ message: FEE_MESSAGES.accountHolderCharacters(bad.map((char) => `„${char}“`).join(' ')) });
  }),
);

/**
 * The refund rule: until `fullUntil` (that day included) a declined car gets its whole fee back;
 * afterwards, or always when `fullUntil` is null, the fee minus `keepCents` (keepCents equal to the
 * fee: nothing).
 */
const RefundRuleSchema = objectWithMessage(
  {
    fullUntil: v.nullable(
      v.pipe(v.string(FEE_MESSAGES.fullUntil), v.check(isCalendarDate, FEE_MESSAGES.fullUntil)),
    ),
    keepCents: v.pipe(cents(FEE_MESSAGES.keepCents), v.minValue(0, FEE_MESSAGES.keepCents)),
  },
  FEE_MESSAGES.refund,
);

/** The fee itself; IBAN and BIC come out in their electronic form. */
export const EditionFeeObjectSchema = v.pipe(
  objectWithMessage(
    {
      amountCents: v.pipe(
        cents(FEE_MESSAGES.amount),
        v.minValue(FEE_LIMITS.minCents, FEE_MESSAGES.amountRange),
        v.maxValue(FEE_LIMITS.maxCents, FEE_MESSAGES.amountRange),
      ),
      accountHolder: AccountHolderSchema,
      iban: IbanSchema,
      /** Optional since SEPA needs no BIC within the EEA; null (or '') when the organizer gives none. */
      bic: v.optional(
        v.pipe(
          v.nullable(v.string(BANK_ACCOUNT_MESSAGES.bicFormat)),
          v.transform((bic) => (bic === null || bic.trim() === '' ? null : bic)),
          v.nullable(BicSchema),
        ),
        null,
      ),
      payWithinDays: v.optional(
        v.pipe(
          v.number(FEE_MESSAGES.payWithinDays),
          v.integer(FEE_MESSAGES.payWithinDays),
          v.minValue(0, FEE_MESSAGES.payWithinDays),
          v.maxValue(FEE_LIMITS.payWithinDaysMax, FEE_MESSAGES.payWithinDays),
        ),
        FEE_LIMITS.payWithinDaysDefault,
      ),
      refund: RefundRuleSchema,
    },
    FEE_MESSAGES.fee,
  ),
  v.forward(
    v.partialCheck(
      [['amountCents'], ['refund', 'keepCents']],
      // Compared only with a valid amount: a wrong amount has its own message.
      (fee) => !isFeeAmount(fee.amountCents) || fee.refund.keepCents <= fee.amountCents,
      FEE_MESSAGES.keepAboveAmount,
    ),
    ['refund', 'keepCents'],
  ),
);

/** `fee` of PATCH /api/admin/editions/{year}: the fee, or null to remove it. */
export const EditionFeeSchema = v.nullable(EditionFeeObjectSchema);

export type EditionFee = v.InferOutput<typeof EditionFeeObjectSchema>;
export type EditionFeeInput = v.InferInput<typeof EditionFeeObjectSchema>;
