import { PAYMENT_MESSAGES } from '@schlosstreffen/shared';
import type { PaymentImportResult } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { FieldFrame, fieldControl, fieldError, inputClass } from '../../../components/ui/form-field';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify } from '../../../components/ui/toaster';
import { useImportStatement, type StatementFormat } from './payments-mutations';
import { bookingDateText } from './payments-format';

const FORMAT_OPTIONS: readonly { value: StatementFormat; label: string }[] = [
  { value: 'camt', label: 'camt.053/camt.052 (XML oder ZIP)' },
  { value: 'sparkasse', label: 'CSV Sparkasse' },
  { value: 'hibiscus', label: 'CSV Hibiscus' },
];

const NOT_CSV = 'Eine XML- oder ZIP-Datei ist ein camt-Kontoauszug: Bitte wählen Sie dieses Format.';
const IMPORT_FAILURE = 'Der Kontoauszug konnte nicht eingelesen werden.';

const isCsv = (file: File) => /\.csv$/i.test(file.name);

/** A file is chosen, and a CSV file comes with its bank's layout (and only a CSV file). */
const ImportFormSchema = v.pipe(
  v.object({
    file: v.custom<File | null>((value) => value instanceof File, PAYMENT_MESSAGES.fileRequired),
    format: v.picklist(['camt', 'sparkasse', 'hibiscus'] as const, PAYMENT_MESSAGES.csvPreset),
  }),
  v.forward(
    v.check(({ file, format }) => !file || !isCsv(file) || format !== 'camt', PAYMENT_MESSAGES.csvPreset),
    ['format'],
  ),
  v.forward(
    v.check(({ file, format }) => !file || isCsv(file) || format === 'camt', NOT_CSV),
    ['format'],
  ),
);

/** What one statement did, in the order a treasurer reads it. */
const COUNT_LABELS: readonly [keyof PaymentImportResult['counts'], string][] = [
  ['paid', 'Bezahlt'],
  ['partial', 'Teilweise bezahlt'],
  ['overpaid', 'Überzahlt'],
  ['already_paid', 'Bereits bezahlt'],
  ['unassigned', 'Nicht zugeordnet'],
  ['known', 'Bereits eingelesen'],
  ['skipped', 'Übersprungen'],
];

/**
 * 'Kontoauszug einlesen': a camt.053/052 file (XML or ZIP) or a bank's CSV is sent as it is; each
 * line is booked once, so reading a file twice books nothing twice. The outcome stays below.
 */
export function StatementImport({ year }: { year: number }) {
  const importing = useImportStatement(year);
  const fileInput = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    defaultValues: { file: null as File | null, format: 'camt' as StatementFormat },
    validators: { onChange: ImportFormSchema },
    onSubmit: async ({ value, formApi }) => {
      if (!value.file) return;
      setProblem(null);
      try {
        const result = await importing.mutateAsync({ file: value.file, format: value.format });
        notify.success('Kontoauszug eingelesen', result.message);
        formApi.reset({ file: null, format: value.format });
        if (fileInput.current) fileInput.current.value = '';
      } catch (error) {
        setProblem(errorText(error) ?? IMPORT_FAILURE);
        notify.error('Nicht eingelesen', error, IMPORT_FAILURE);
      }
    },
  });
  const pending = importing.isPending;
  const fileHint = 'camt.053 oder camt.052 als XML oder ZIP, oder die CSV-Datei Ihres Kontos.';

  return (
    <section aria-labelledby="payments-import" className="flex flex-col gap-4">
      <h2 id="payments-import" className="font-display text-2xl text-parchment">
        Kontoauszug einlesen
      </h2>
      <form
        aria-labelledby="payments-import"
        aria-busy={pending}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        className="grid gap-4 rounded-2xl border border-white/10 bg-night-900/80 p-5 sm:p-6 md:grid-cols-2"
      >
        <form.Field name="file">
          {(field) => {
            const { id, error, attributes } = fieldControl(field, 'payments-statement-file', fileHint);
            return (
              <FieldFrame id={id} label="Kontoauszug (Datei)" required hint={fileHint} error={error}>
                <input
                  {...attributes}
                  ref={fileInput}
                  type="file"
                  accept=".xml,.zip,.csv"
                  required
                  disabled={pending}
                  onChange={(event) => field.handleChange(event.target.files?.[0] ?? null)}
                  className={`${inputClass} file:mr-3 file:rounded-full file:border-0 file:bg-gold-500/15 file:px-3 file:py-1 file:text-sm file:font-semibold file:text-gold-200`}
                />
              </FieldFrame>
            );
          }}
        </form.Field>
        <form.Field name="format">
          {(field) => (
            <SelectField
              label="Format"
              options={FORMAT_OPTIONS}
              value={field.state.value}
              onValueChange={(value) => field.handleChange(value as StatementFormat)}
              onBlur={field.handleBlur}
              alwaysSet
              disabled={pending}
              error={fieldError(field)}
            />
          )}
        </form.Field>
        <div className="flex flex-col gap-3 md:col-span-2 sm:flex-row sm:items-center">
          <Button type="submit" disabled={pending} className="self-start">
            {pending ? <Spinner /> : null}
            {pending ? 'Wird eingelesen...' : 'Einlesen'}
          </Button>
          <p role="status" className="text-sm text-ash-300">
            {pending ? 'Der Kontoauszug wird eingelesen und mit den Startgeldern abgeglichen...' : ''}
          </p>
        </div>
        {problem ? (
          <p role="alert" className="text-sm text-red-300 md:col-span-2">
            {problem}
          </p>
        ) : null}
      </form>
      {importing.data && !pending ? <ImportOutcome result={importing.data} /> : null}
    </section>
  );
}

function ImportOutcome({ result }: { result: PaymentImportResult }) {
  return (
    <article
      aria-labelledby="payments-import-result"
      className={`rounded-2xl border p-5 sm:p-6 ${
        result.fileSeenBefore ? 'border-gold-500/30 bg-gold-500/10' : 'border-emerald-400/30 bg-emerald-500/5'
      }`}
    >
      <h3 id="payments-import-result" className="font-display text-xl text-parchment">
        Ergebnis
      </h3>
      <p className="mt-1 text-sm text-parchment">{result.message}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        {COUNT_LABELS.map(([key, label]) => (
          <div
            key={key}
            className="flex flex-col-reverse rounded-xl border border-white/10 bg-night-900/80 px-3 py-2"
          >
            <dt className="text-xs text-ash-300">{label}</dt>
            <dd className="font-display text-2xl text-parchment tabular-nums">{result.counts[key]}</dd>
          </div>
        ))}
      </dl>
      {result.skipped.length > 0 ? (
        <>
          <h4 className="mt-5 text-sm font-semibold text-parchment">Übersprungene Buchungen</h4>
          <ul className="mt-2 flex flex-col gap-1 text-sm text-ash-300">
            {result.skipped.map((line, index) => (
              <li key={index}>
                {line.message} ({line.amount} {line.currency}
                {line.bookingDate ? `, ${bookingDateText(line.bookingDate)}` : ''})
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}
