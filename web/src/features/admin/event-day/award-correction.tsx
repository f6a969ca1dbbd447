import {
  AWARD_MESSAGES,
  AwardCorrectionSchema,
  CORRECTION_REASON,
  formatAtVenue,
  type AwardCorrectionInput,
} from '@schlosstreffen/shared';
import type { AwardAdminView } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { fieldError, TextField } from '../../../components/ui/form-field';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify } from '../../../components/ui/toaster';
import { useAwardCorrection } from './award-mutations';

const FAILURE_FALLBACK = 'Die Korrektur konnte nicht gespeichert werden.';
/** The votes as typed: a whole number. */
const VotesText = v.pipe(v.string(), v.trim(), v.regex(/^\d{1,6}$/, AWARD_MESSAGES.correctionVotes));

interface CorrectionValues {
  /** The car's start number as the select holds it. */
  startNumber: string;
  votes: string;
  reason: string;
}

const votesText = (count: number) => (count === 1 ? '1 Stimme' : `${count} Stimmen`);

/**
 * 'Endergebnis korrigieren' (admins): a car's final votes, 0 taking it out of the result, always
 * with a reason; the ranks and certificates follow, the look back names the correction, and the
 * list below keeps each one with its reason.
 */
export function AwardCorrectionCard({ view, className }: { view: AwardAdminView; className: string }) {
  const mutation = useAwardCorrection(view.year);
  const [outcome, setOutcome] = useState('');
  const cars = view.ranking.filter((row) => row.votes > 0);
  const form = useForm({
    defaultValues: { startNumber: '', votes: '', reason: '' } as CorrectionValues,
    onSubmit: async ({ value, formApi }) => {
      const correction: AwardCorrectionInput = v.parse(AwardCorrectionSchema, {
        startNumber: Number(value.startNumber),
        votes: Number(value.votes),
        reason: value.reason,
      });
      try {
        const answer = await mutation.mutateAsync(correction);
        notify.success(answer.message);
        setOutcome(answer.message);
        formApi.reset();
      } catch (error) {
        notify.error('Fehler', error, FAILURE_FALLBACK);
        setOutcome(`Fehler: ${errorText(error) ?? FAILURE_FALLBACK}`);
      }
    },
  });
  const pending = mutation.isPending;

  return (
    <article aria-labelledby="award-correction" className={className}>
      <h2 id="award-correction" className="font-display text-xl text-parchment">
        Endergebnis korrigieren
      </h2>
      <p className="mt-1 text-sm text-ash-400">
        Ein Fehler im Endergebnis wird mit Begründung korrigiert: die Stimmen eines Autos (0 nimmt es aus dem
        Ergebnis). Die Plätze und Urkunden folgen, der Rückblick nennt die Korrektur (ohne Begründung), das
        Protokoll hält sie fest.
      </p>
      <form
        aria-label="Endergebnis korrigieren"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        className="mt-4 flex flex-col gap-4"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <form.Field
            name="startNumber"
            validators={{ onSubmit: v.pipe(v.string(), v.nonEmpty('Bitte wähle ein Auto.')) }}
          >
            {(field) => (
              <SelectField
                label="Auto"
                name="startNumber"
                required
                options={cars.map((row) => ({
                  value: String(row.startNumber),
                  label: `Nr. ${row.startNumber} · ${row.name} (${votesText(row.votes)})`,
                }))}
                value={field.state.value}
                onValueChange={field.handleChange}
                onBlur={field.handleBlur}
                disabled={pending}
                error={fieldError(field)}
              />
            )}
          </form.Field>
          <form.Field name="votes" validators={{ onChange: VotesText }}>
            {(field) => (
              <TextField
                field={field}
                label="Stimmen richtig"
                required
                inputMode="numeric"
                disabled={pending}
              />
            )}
          </form.Field>
        </div>
        <form.Field name="reason" validators={{ onChange: AwardCorrectionSchema.entries.reason }}>
          {(field) => (
            <TextAreaField
              field={field}
              label="Grund"
              required
              rows={3}
              maxLength={CORRECTION_REASON.max}
              hint={`Mindestens ${CORRECTION_REASON.min} Zeichen`}
              disabled={pending}
            />
          )}
        </form.Field>
        <p role="status" className="sr-only">
          {outcome}
        </p>
        <div>
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? (
              <>
                <Spinner />
                Wird korrigiert...
              </>
            ) : (
              'Korrigieren'
            )}
          </Button>
        </div>
      </form>
      {view.corrections.length ? (
        <section aria-labelledby="award-corrections" className="mt-6 border-t border-white/10 pt-4">
          <h3 id="award-corrections" className="text-sm font-semibold text-parchment">
            Bisherige Korrekturen
          </h3>
          <ul className="mt-2 flex flex-col gap-2 text-sm text-ash-300">
            {view.corrections.map((correction) => (
              <li key={correction.at}>
                {formatAtVenue(new Date(correction.at), 'dateTime')}: Startnummer {correction.startNumber},{' '}
                {votesText(correction.from)} → {votesText(correction.to)}. Grund: {correction.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
