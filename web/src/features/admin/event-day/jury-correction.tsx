import { JURY_LIMITS, JURY_MESSAGES, JuryCorrectionSchema } from '@schlosstreffen/shared';
import type { JuryAdminView, JuryClassAdminView } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/date-format';
import { DialogActions, DialogSelect, JuryDialog } from './jury-dialog';
import { useJuryCorrection } from './jury-mutations';

const FAILURE = 'Die Korrektur konnte nicht gespeichert werden.';

/** The start numbers of the awarded places as they stand now (from the first place on). */
export function placesOf(juryClass: JuryClassAdminView): number[] {
  return (juryClass.result?.rows ?? [])
    .filter((row) => row.place !== null)
    .sort((a, b) => a.place! - b.place!)
    .map((row) => row.startNumber);
}

/**
 * 'Korrektur' of a class in the frozen record (admins): its places set anew by start number, always
 * with a reason; the corrections list keeps each one, the audit log too.
 */
export function CorrectionDialog({
  view,
  juryClass,
  onClose,
}: {
  view: JuryAdminView;
  juryClass: JuryClassAdminView;
  onClose: () => void;
}) {
  const correction = useJuryCorrection(view.year);
  const rows = juryClass.result?.rows ?? [];
  const count = Math.min(juryClass.places, rows.length);
  const current = placesOf(juryClass);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    defaultValues: {
      places: Array.from({ length: count }, (_, index) => (current[index] ? String(current[index]) : '')),
      reason: '',
    },
    onSubmit: async ({ value }) => {
      const places = value.places.map(Number);
      if (value.places.some((place) => !place) || new Set(places).size !== places.length) {
        setProblem(JURY_MESSAGES.correctionOrder);
        return;
      }
      const parsed = v.safeParse(JuryCorrectionSchema, {
        classId: juryClass.id,
        places,
        reason: value.reason,
      });
      if (!parsed.success) {
        setProblem(parsed.issues[0].message);
        return;
      }
      setProblem(null);
      try {
        await correction.mutateAsync(parsed.output);
        notify.success('Korrektur gespeichert', juryClass.name);
        onClose();
      } catch (error) {
        setProblem(errorText(error) ?? FAILURE);
        notify.error('Nicht korrigiert', error, FAILURE);
      }
    },
  });
  const options = rows.map((row) => ({
    value: String(row.startNumber),
    label: `Nr. ${row.startNumber} · ${row.name}`,
  }));
  const pending = correction.isPending;
  return (
    <JuryDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Korrektur"
      description={`${juryClass.name}: Die Plätze neu belegen, mit Begründung. Die Urkunden folgen, das Protokoll hält die Korrektur fest.`}
      busy={pending}
    >
      <form
        aria-label={`Korrektur ${juryClass.name}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        className="flex flex-col gap-4"
      >
        {Array.from({ length: count }, (_, index) => (
          <form.Field key={index} name={`places[${index}]`}>
            {(field) => (
              <DialogSelect
                label={`${index + 1}. Platz`}
                required
                options={options}
                value={field.state.value}
                onChange={field.handleChange}
                placeholder="Bitte wählen"
                disabled={pending}
              />
            )}
          </form.Field>
        ))}
        <form.Field name="reason" validators={{ onChange: JuryCorrectionSchema.entries.reason }}>
          {(field) => (
            <TextAreaField
              field={field}
              label="Grund"
              required
              rows={3}
              maxLength={JURY_LIMITS.reasonMax}
              hint={`Mindestens ${JURY_LIMITS.reasonMin} Zeichen`}
              disabled={pending}
            />
          )}
        </form.Field>
        {problem ? (
          <p role="alert" className="text-sm text-red-300">
            {problem}
          </p>
        ) : null}
        <DialogActions>
          <Button variant="ghost" disabled={pending} onClick={onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? <Spinner /> : null}
            Korrigieren
          </Button>
        </DialogActions>
      </form>
    </JuryDialog>
  );
}

/** The corrections of the frozen record, each with its reason. */
export function CorrectionsList({ view }: { view: JuryAdminView }) {
  if (view.corrections.length === 0) return null;
  return (
    <article
      aria-labelledby="jury-corrections"
      className="rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6"
    >
      <h2 id="jury-corrections" className="font-display text-xl text-parchment">
        Korrekturen
      </h2>
      <ul className="mt-3 flex flex-col gap-2 text-sm text-ash-300">
        {view.corrections.map((entry) => (
          <li key={`${entry.at}-${entry.classId}`}>
            {formatDateTime(entry.at)} · {entry.className}: {numbersLine(entry.from)} →{' '}
            {numbersLine(entry.to)}. Grund: {entry.reason}
          </li>
        ))}
      </ul>
    </article>
  );
}

const numbersLine = (numbers: readonly number[]) =>
  numbers.length ? numbers.map((number, index) => `${index + 1}. Nr. ${number}`).join(', ') : 'keine Plätze';
