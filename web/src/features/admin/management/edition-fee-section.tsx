import {
  BicSchema,
  EditionFeeObjectSchema,
  EuroInputSchema,
  FEE_LIMITS,
  FEE_MESSAGES,
  formatEuro,
  formatIban,
  IbanSchema,
  maskIban,
  normalizeBic,
  parseEuroInput,
  type EditionFee,
} from '@schlosstreffen/shared';
import { useForm, useStore, type AnyFieldApi } from '@tanstack/react-form';
import * as v from 'valibot';
import { Checkbox } from '../../../components/ui/checkbox';
import { TextField } from '../../../components/ui/form-field';
import { isApiError } from '../../../lib/api';
import { formatDate } from '../../../lib/date-format';
import { serverErrorListeners, setServerError } from '../../account/form-parts';

/**
 * The 'Teilnahmegebühr' of the edition form: its own TanStack form inside the edition's, its text
 * fields checked with the shared fee schema's parts, and what a save sends of it.
 */

/** An amount in cents as typed into a form: '25,00', '1.234,50'. */
const euroText = (cents: number) =>
  (cents / 100).toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const FEE = EditionFeeObjectSchema.entries;
const REFUND = FEE.refund.entries;

/** The fee's fields while it is switched on: typed text in, the fee's parts out. */
const FeeOnSchema = v.pipe(
  v.object({
    enabled: v.literal(true),
    amount: v.pipe(EuroInputSchema, FEE.amountCents),
    accountHolder: FEE.accountHolder,
    iban: IbanSchema,
    bic: v.pipe(
      v.string(),
      v.trim(),
      v.transform((bic) => (bic === '' ? null : bic)),
      v.nullable(BicSchema),
    ),
    payWithinDays: v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,3}$/, FEE_MESSAGES.payWithinDays),
      v.transform(Number),
      FEE.payWithinDays.wrapped,
    ),
    fullUntil: v.pipe(
      v.string(),
      v.trim(),
      v.transform((date) => (date === '' ? null : date)),
      REFUND.fullUntil,
    ),
    keep: v.pipe(EuroInputSchema, REFUND.keepCents),
  }),
  v.forward(
    v.partialCheck(
      [['amount'], ['keep']],
      ({ amount, keep }) => keep <= amount,
      FEE_MESSAGES.keepAboveAmount,
    ),
    ['keep'],
  ),
);

/** Switched off, nothing is checked: what was typed stays for switching it on again. */
const FeeOffSchema = v.object({
  enabled: v.literal(false),
  amount: v.string(),
  accountHolder: v.string(),
  iban: v.string(),
  bic: v.string(),
  payWithinDays: v.string(),
  fullUntil: v.string(),
  keep: v.string(),
});

export const FeeFormSchema = v.variant('enabled', [FeeOffSchema, FeeOnSchema]);

type FeeFormValues = Omit<v.InferInput<typeof FeeOffSchema>, 'enabled'> & { enabled: boolean };
type FeeFieldName = Exclude<keyof FeeFormValues, 'enabled'>;

function formValues(fee: EditionFee | null): FeeFormValues {
  return {
    enabled: fee !== null,
    amount: fee ? euroText(fee.amountCents) : '',
    accountHolder: fee?.accountHolder ?? '',
    iban: fee ? formatIban(fee.iban) : '',
    bic: fee?.bic ?? '',
    payWithinDays: String(fee?.payWithinDays ?? FEE_LIMITS.payWithinDaysDefault),
    fullUntil: fee?.refund.fullUntil ?? '',
    keep: euroText(fee?.refund.keepCents ?? 0),
  };
}

/** The fee part of the edition form, started from the edition's fee (or none). */
export function useEditionFeeForm(fee: EditionFee | null) {
  return useForm({
    defaultValues: formValues(fee),
    validators: { onChange: FeeFormSchema },
  });
}

export type EditionFeeForm = ReturnType<typeof useEditionFeeForm>;

function sameFee(a: EditionFee, b: EditionFee): boolean {
  return (
    a.amountCents === b.amountCents &&
    a.accountHolder === b.accountHolder &&
    a.iban === b.iban &&
    a.bic === b.bic &&
    a.payWithinDays === b.payWithinDays &&
    a.refund.fullUntil === b.refund.fullUntil &&
    a.refund.keepCents === b.refund.keepCents
  );
}

/**
 * What a save sends of the fee: nothing when it is unchanged (an edition without fee that stays
 * without sends no `fee` at all), `null` when it was switched off, else the fee. null when the
 * fields are not valid: their messages are shown and nothing may be sent.
 */
export async function feeToSave(
  form: EditionFeeForm,
  before: EditionFee | null,
): Promise<{ fee?: EditionFee | null } | null> {
  await form.handleSubmit();
  const parsed = v.safeParse(FeeFormSchema, form.state.values);
  if (!parsed.success) return null;
  const value = parsed.output;
  if (!value.enabled) return before === null ? {} : { fee: null };
  const fee: EditionFee = {
    amountCents: value.amount,
    accountHolder: value.accountHolder,
    iban: value.iban,
    bic: value.bic,
    payWithinDays: value.payWithinDays,
    refund: { fullUntil: value.fullUntil, keepCents: value.keep },
  };
  return before !== null && sameFee(before, fee) ? {} : { fee };
}

/** The server's field names of the fee (`fee.…`) and the form's. */
const SERVER_FIELDS: Record<string, FeeFieldName> = {
  'fee.amountCents': 'amount',
  'fee.accountHolder': 'accountHolder',
  'fee.iban': 'iban',
  'fee.bic': 'bic',
  'fee.payWithinDays': 'payWithinDays',
  'fee.refund.fullUntil': 'fullUntil',
  'fee.refund.keepCents': 'keep',
};

/**
 * Shows the server's messages on the fee's fields; whether every message it gave stands at one of
 * them (else the form shows the server's message itself).
 */
export function showFeeServerIssues(form: EditionFeeForm, error: unknown): boolean {
  if (!isApiError(error) || error.issues.length === 0) return false;
  let all = true;
  for (const issue of error.issues) {
    const name = SERVER_FIELDS[issue.field];
    if (name) setServerError(form, name, issue.message);
    else all = false;
  }
  return all;
}

export const FEE_FORM_INVALID = 'Bitte prüfen Sie die markierten Angaben zur Teilnahmegebühr.';

/** The editions list's line: '25,00 € · IBAN DE89 **** **** 3000'. */
export function feeSummary(fee: EditionFee): string {
  return `${formatEuro(fee.amountCents)} · IBAN ${maskIban(fee.iban)}`;
}

/** What an owner who declines after paying gets back, in one sentence. */
export function refundRuleText(amountCents: number, fullUntil: string | null, keepCents: number): string {
  if (keepCents <= 0) return 'Wer nach der Zahlung absagt, bekommt die volle Gebühr zurück.';
  const later =
    keepCents >= amountCents
      ? 'nichts'
      : `${formatEuro(amountCents - keepCents)} (${formatEuro(keepCents)} bleiben einbehalten)`;
  if (fullUntil === null) return `Wer nach der Zahlung absagt, bekommt ${later} zurück.`;
  return `Wer bis einschließlich ${formatDate(`${fullUntil}T12:00:00Z`)} absagt, bekommt die volle Gebühr zurück, wer später absagt, ${later}.`;
}

const REFUND_RULE_GENERAL =
  'Bis zum Datum wird voll erstattet, danach die Gebühr abzüglich des einbehaltenen Betrags: 0 heißt auch danach volle Erstattung, die ganze Gebühr heißt nichts zurück.';

function refundExplanation(values: FeeFormValues): string {
  const amount = parseEuroInput(values.amount);
  const keep = parseEuroInput(values.keep);
  const fullUntil = v.safeParse(REFUND.fullUntil, values.fullUntil.trim() || null);
  if (!amount.ok || !keep.ok || !fullUntil.success || keep.cents > amount.cents) return REFUND_RULE_GENERAL;
  return refundRuleText(amount.cents, fullUntil.output, keep.cents);
}

/** An amount field's text written the German way once it is left ('25,5' → '25,50'). */
const euroOnBlur = {
  ...serverErrorListeners,
  onBlur: ({ fieldApi }: { fieldApi: AnyFieldApi }) => {
    const parsed = parseEuroInput(String(fieldApi.state.value));
    if (parsed.ok) fieldApi.setValue(euroText(parsed.cents));
  },
};

/** The IBAN in groups of four once it is left. */
const ibanOnBlur = {
  ...serverErrorListeners,
  onBlur: ({ fieldApi }: { fieldApi: AnyFieldApi }) => {
    const typed = String(fieldApi.state.value);
    if (typed.trim() !== '') fieldApi.setValue(formatIban(typed));
  },
};

const bicOnBlur = {
  ...serverErrorListeners,
  onBlur: ({ fieldApi }: { fieldApi: AnyFieldApi }) => {
    fieldApi.setValue(normalizeBic(String(fieldApi.state.value)));
  },
};

const codeInput = { autoComplete: 'off', spellCheck: false, autoCapitalize: 'characters' } as const;

/** 'Teilnahmegebühr': switched on, the amount, the account, the days to pay and the refund rule. */
export function EditionFeeSection({
  form,
  year,
  hadFee,
}: {
  form: EditionFeeForm;
  year: number;
  /** Whether the edition has a fee now: switching it off then removes it on saving. */
  hadFee: boolean;
}) {
  const values = useStore(form.store, (state) => state.values);
  const id = (name: FeeFieldName) => `edition-${year}-fee-${name}`;
  const explanationId = `edition-${year}-fee-refund`;
  return (
    <div className="border-t border-white/10 pt-4">
      <fieldset className="flex min-w-0 flex-col gap-4">
        <legend className="mb-3 font-display text-xl text-parchment">Teilnahmegebühr</legend>
        <form.Field name="enabled">
          {(field) => (
            <Checkbox
              checked={field.state.value}
              onCheckedChange={(checked) => field.handleChange(checked)}
              label="Teilnahmegebühr erheben"
              description={
                hadFee && !field.state.value
                  ? 'Beim Speichern wird die Teilnahmegebühr entfernt: Eingeladene zahlen nichts.'
                  : 'Eingeladene überweisen sie nach ihrer Zusage. Ohne Gebühr bleibt die Einladung, wie sie ist.'
              }
            />
          )}
        </form.Field>
        {values.enabled ? (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <form.Field name="amount" listeners={euroOnBlur}>
                {(field) => (
                  <TextField
                    field={field}
                    id={id('amount')}
                    label="Betrag"
                    required
                    inputMode="decimal"
                    autoComplete="off"
                    hint="In Euro, z. B. 25,00"
                  />
                )}
              </form.Field>
              <form.Field name="accountHolder" listeners={serverErrorListeners}>
                {(field) => (
                  <TextField
                    field={field}
                    id={id('accountHolder')}
                    label="Kontoinhaber"
                    required
                    autoComplete="off"
                  />
                )}
              </form.Field>
              <form.Field name="iban" listeners={ibanOnBlur}>
                {(field) => <TextField field={field} id={id('iban')} label="IBAN" required {...codeInput} />}
              </form.Field>
              <form.Field name="bic" listeners={bicOnBlur}>
                {(field) => <TextField field={field} id={id('bic')} label="BIC (optional)" {...codeInput} />}
              </form.Field>
              <form.Field name="payWithinDays" listeners={serverErrorListeners}>
                {(field) => (
                  <TextField
                    field={field}
                    id={id('payWithinDays')}
                    label="Zahlungsfrist (Tage nach der Bestätigungsfrist)"
                    required
                    inputMode="numeric"
                    autoComplete="off"
                    hint={`Bezahlt wird bis zu so vielen Tagen nach Ablauf der Frist zum Bestätigen (üblich: ${FEE_LIMITS.payWithinDaysDefault}).`}
                  />
                )}
              </form.Field>
            </div>
            <fieldset aria-describedby={explanationId} className="flex min-w-0 flex-col gap-4">
              <legend className="mb-3 text-sm font-semibold text-parchment">Erstattung bei Absage</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <form.Field name="fullUntil" listeners={serverErrorListeners}>
                  {(field) => (
                    <TextField
                      field={field}
                      id={id('fullUntil')}
                      label="Volle Erstattung bis"
                      type="date"
                      hint="Einschließlich; leer: kein Stichtag."
                    />
                  )}
                </form.Field>
                <form.Field name="keep" listeners={euroOnBlur}>
                  {(field) => (
                    <TextField
                      field={field}
                      id={id('keep')}
                      label="Danach einbehalten"
                      required
                      inputMode="decimal"
                      autoComplete="off"
                      hint="In Euro; 0: auch danach volle Erstattung, die ganze Gebühr: nichts zurück."
                    />
                  )}
                </form.Field>
              </div>
              <p id={explanationId} className="text-sm text-ash-300">
                {refundExplanation(values)}
              </p>
            </fieldset>
          </>
        ) : null}
      </fieldset>
    </div>
  );
}
