import {
  JURY_DEFAULT_CRITERIA,
  JURY_LIMITS,
  JURY_MESSAGES,
  JuryClassSchema,
  type JuryClassInput,
} from '@schlosstreffen/shared';
import type { JuryAdminView, JuryClassAdminView } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { CheckboxChip } from '../../../components/ui/checkbox';
import { TextField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify } from '../../../components/ui/toaster';
import { DialogActions, DialogSelect, JuryDialog } from './jury-dialog';
import { useSaveJuryClass } from './jury-mutations';

/** A criterion as the form holds it: numbers as typed; `key` tells the rows apart. */
interface CriterionRow {
  key: string;
  id?: string;
  name: string;
  weight: string;
  max: string;
}

interface ClassValues {
  name: string;
  places: string;
  criteria: CriterionRow[];
  zones: string[];
  categories: string[];
  yearFrom: string;
  yearTo: string;
  judgeIds: string[];
  headJudgeId: string;
}

let rows = 0;
const rowKey = () => `criterion-${(rows += 1)}`;

const wholeNumber = (message: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d{1,3}$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

/** What each field must hold, with the shared German messages. */
const FIELD = {
  name: JuryClassSchema.entries.name,
  criterionName: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(JURY_MESSAGES.criterionNameRequired),
    v.maxLength(JURY_LIMITS.criterionName, JURY_MESSAGES.criterionNameMax),
  ),
  weight: wholeNumber(JURY_MESSAGES.weight, JURY_LIMITS.weightMin, JURY_LIMITS.weightMax),
  max: wholeNumber(JURY_MESSAGES.scale, JURY_LIMITS.scaleMin, JURY_LIMITS.scaleMax),
  year: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => text === '' || (/^\d{4}$/.test(text) && +text >= 1886 && +text <= 2100),
      JURY_MESSAGES.years,
    ),
  ),
};

const PLACE_OPTIONS = [1, 2, 3].map((count) => ({
  value: String(count),
  label: count === 1 ? 'Nur der 1. Platz' : `${count} Plätze`,
}));

function valuesOf(juryClass: JuryClassAdminView | null, view: JuryAdminView): ClassValues {
  if (!juryClass)
    return {
      name: '',
      places: '3',
      criteria: JURY_DEFAULT_CRITERIA.map((c) => ({
        key: rowKey(),
        name: c.name,
        weight: String(c.weight),
        max: String(c.max),
      })),
      zones: [],
      categories: [],
      yearFrom: '',
      yearTo: '',
      // Every judge of the edition scores a new class unless chosen otherwise.
      judgeIds: view.judges.map((judge) => judge.userId),
      headJudgeId: '',
    };
  return {
    name: juryClass.name,
    places: String(juryClass.places),
    criteria: juryClass.criteria.map((c) => ({
      key: rowKey(),
      id: c.id,
      name: c.name,
      weight: String(c.weight),
      max: String(c.max),
    })),
    zones: [...juryClass.scope.zones],
    categories: [...juryClass.scope.categories],
    yearFrom: juryClass.scope.yearFrom === null ? '' : String(juryClass.scope.yearFrom),
    yearTo: juryClass.scope.yearTo === null ? '' : String(juryClass.scope.yearTo),
    judgeIds: [...juryClass.judgeIds],
    headJudgeId: juryClass.headJudgeId ?? '',
  };
}

/** The form's values as the API takes them (checked against the shared schema before sending). */
function inputOf(values: ClassValues): unknown {
  const year = (text: string) => (text.trim() === '' ? null : Number(text.trim()));
  const judgeIds = values.judgeIds;
  return {
    name: values.name,
    scope: {
      zones: values.zones,
      categories: values.categories,
      yearFrom: year(values.yearFrom),
      yearTo: year(values.yearTo),
    },
    criteria: values.criteria.map((row) => ({
      ...(row.id ? { id: row.id } : {}),
      name: row.name,
      weight: Number(row.weight.trim()),
      max: Number(row.max.trim()),
    })),
    places: Number(values.places),
    judgeIds,
    headJudgeId: values.headJudgeId && judgeIds.includes(values.headJudgeId) ? values.headJudgeId : null,
  };
}

/**
 * 'Klasse anlegen' or 'Klasse bearbeiten': name, which cars compete (parking zones, tuning
 * categories, construction years; none chosen: all confirmed cars), the scorecard's criteria with
 * weights and scales, the places awarded, the judges and the head judge. Once a class has scores,
 * its criteria stay as they are.
 */
export function JuryClassDialog({
  view,
  juryClass,
  open,
  onOpenChange,
}: {
  view: JuryAdminView;
  /** The class to edit; null: a new one. */
  juryClass: JuryClassAdminView | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveJuryClass(view.year);
  return (
    <JuryDialog
      open={open}
      onOpenChange={onOpenChange}
      title={juryClass ? 'Klasse bearbeiten' : 'Klasse anlegen'}
      description={
        juryClass
          ? juryClass.name
          : 'Eine Klasse wertet die bestätigten Autos, die zu ihr passen, mit einem gewichteten Bewertungsbogen.'
      }
      busy={save.isPending}
      size="lg"
    >
      <ClassForm view={view} juryClass={juryClass} save={save} onDone={() => onOpenChange(false)} />
    </JuryDialog>
  );
}

function ClassForm({
  view,
  juryClass,
  save,
  onDone,
}: {
  view: JuryAdminView;
  juryClass: JuryClassAdminView | null;
  save: ReturnType<typeof useSaveJuryClass>;
  onDone: () => void;
}) {
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const criteriaLocked = Boolean(juryClass?.hasScores);
  const form = useForm({
    defaultValues: valuesOf(juryClass, view),
    onSubmit: async ({ value }) => {
      const parsed = v.safeParse(JuryClassSchema, inputOf(value));
      if (!parsed.success) {
        // Everything that is wrong at once (each field's own rules have passed already).
        setFormErrors([...new Set(parsed.issues.map((issue) => issue.message))]);
        return;
      }
      setFormErrors([]);
      const input: JuryClassInput = parsed.output;
      try {
        await save.mutateAsync({ id: juryClass?.id, input });
        notify.success(juryClass ? 'Klasse gespeichert' : 'Klasse angelegt', input.name);
        onDone();
      } catch (error) {
        const text = errorText(error) ?? 'Die Klasse konnte nicht gespeichert werden.';
        setFormErrors([text]);
        notify.error('Nicht gespeichert', error, 'Die Klasse konnte nicht gespeichert werden.');
      }
    },
  });
  const pending = save.isPending;
  const judgeName = new Map(view.judges.map((judge) => [judge.userId, judge.name]));

  return (
    <form
      noValidate
      aria-label={juryClass ? 'Klasse bearbeiten' : 'Klasse anlegen'}
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      className="flex flex-col gap-6"
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <form.Field name="name" validators={{ onChange: FIELD.name }}>
          {(field) => (
            <TextField
              field={field}
              label="Name"
              required
              maxLength={JURY_LIMITS.className}
              placeholder="z. B. Bester Umbau"
              disabled={pending}
            />
          )}
        </form.Field>
        <form.Field name="places">
          {(field) => (
            <DialogSelect
              label="Vergebene Plätze"
              options={PLACE_OPTIONS}
              value={field.state.value}
              onChange={field.handleChange}
              disabled={pending}
            />
          )}
        </form.Field>
      </div>

      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold text-parchment">Bewertungsbogen</legend>
        <p className="text-xs text-ash-400">
          Jedes Kriterium wird von 0 bis zum Skalenende bewertet; die Summe zählt gewichtet (Gewicht × Wert).
          Bei Gleichstand entscheidet zuerst das schwerste Kriterium.
        </p>
        {criteriaLocked ? (
          <>
            <p className="rounded-xl border border-gold-500/30 bg-gold-500/10 px-4 py-2 text-sm text-gold-200">
              {JURY_MESSAGES.criteriaLocked}
            </p>
            <CriteriaTable criteria={juryClass?.criteria ?? []} />
          </>
        ) : (
          <form.Field name="criteria" mode="array">
            {(criteria) => (
              <>
                <ol className="flex flex-col gap-3">
                  {criteria.state.value.map((row, index) => (
                    <li
                      key={row.key}
                      className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2 rounded-xl border border-white/10 bg-night-950/50 p-3 sm:grid-cols-[minmax(0,1fr)_5.5rem_5.5rem_auto]"
                    >
                      <form.Field
                        name={`criteria[${index}].name`}
                        validators={{ onChange: FIELD.criterionName }}
                      >
                        {(field) => (
                          <div className="col-span-3 sm:col-span-1">
                            <TextField
                              field={field}
                              label={<RowLabel text="Kriterium" index={index} />}
                              required
                              maxLength={JURY_LIMITS.criterionName}
                              disabled={pending}
                            />
                          </div>
                        )}
                      </form.Field>
                      <form.Field name={`criteria[${index}].weight`} validators={{ onChange: FIELD.weight }}>
                        {(field) => (
                          <TextField
                            field={field}
                            label={<RowLabel text="Gewicht" index={index} />}
                            required
                            inputMode="numeric"
                            disabled={pending}
                          />
                        )}
                      </form.Field>
                      <form.Field name={`criteria[${index}].max`} validators={{ onChange: FIELD.max }}>
                        {(field) => (
                          <TextField
                            field={field}
                            label={<RowLabel text="Skala bis" index={index} />}
                            required
                            inputMode="numeric"
                            disabled={pending}
                          />
                        )}
                      </form.Field>
                      <Button
                        variant="ghost"
                        className="mt-7 !px-3"
                        aria-label={`Kriterium ${index + 1} entfernen`}
                        title="Entfernen"
                        disabled={pending || criteria.state.value.length <= 1}
                        onClick={() => criteria.removeValue(index)}
                      >
                        ✕
                      </Button>
                    </li>
                  ))}
                </ol>
                <div>
                  <Button
                    variant="secondary"
                    disabled={pending || criteria.state.value.length >= JURY_LIMITS.criteria}
                    onClick={() => criteria.pushValue({ key: rowKey(), name: '', weight: '1', max: '10' })}
                  >
                    Kriterium hinzufügen
                  </Button>
                </div>
              </>
            )}
          </form.Field>
        )}
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="text-sm font-semibold text-parchment">Wer antritt</legend>
        <p className="text-xs text-ash-400">
          Alle bestätigten Autos, die zu jeder gewählten Angabe passen. Nichts gewählt: alle bestätigten
          Autos.
        </p>
        <form.Field name="zones">
          {(field) => (
            <ChipGroup
              label="Parkzonen"
              options={view.zones}
              empty="Diese Ausgabe hat keine Parkzonen."
              chosen={field.state.value}
              onChange={field.handleChange}
              disabled={pending}
            />
          )}
        </form.Field>
        <form.Field name="categories">
          {(field) => (
            <ChipGroup
              label="Tuning-Kategorien"
              options={view.categories}
              empty="Noch kein bestätigtes Auto nennt eine Kategorie."
              chosen={field.state.value}
              onChange={field.handleChange}
              disabled={pending}
            />
          )}
        </form.Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <form.Field name="yearFrom" validators={{ onChange: FIELD.year }}>
            {(field) => (
              <TextField
                field={field}
                label="Baujahr von"
                inputMode="numeric"
                placeholder="z. B. 1960"
                disabled={pending}
              />
            )}
          </form.Field>
          <form.Field name="yearTo" validators={{ onChange: FIELD.year }}>
            {(field) => (
              <TextField
                field={field}
                label="Baujahr bis"
                inputMode="numeric"
                placeholder="z. B. 1989"
                disabled={pending}
              />
            )}
          </form.Field>
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="text-sm font-semibold text-parchment">Jury</legend>
        <form.Field name="judgeIds">
          {(field) => (
            <ChipGroup
              label="Jurymitglieder der Klasse"
              options={view.judges.map((judge) => judge.userId)}
              labelOf={(id) => judgeName.get(id) ?? id}
              empty="Noch keine Jurymitglieder: Fügen Sie sie unter „Jurymitglieder“ hinzu."
              chosen={field.state.value}
              onChange={field.handleChange}
              disabled={pending}
            />
          )}
        </form.Field>
        <form.Subscribe selector={(state) => state.values.judgeIds}>
          {(judgeIds) => (
            <form.Field name="headJudgeId">
              {(field) => (
                <DialogSelect
                  label="Jury-Leitung"
                  hint="Schließt die Klasse ab und entscheidet einen Gleichstand, mit Begründung."
                  options={judgeIds.map((id) => ({ value: id, label: judgeName.get(id) ?? id }))}
                  value={judgeIds.includes(field.state.value) ? field.state.value : ''}
                  onChange={field.handleChange}
                  placeholder="Keine"
                  disabled={pending || judgeIds.length === 0}
                />
              )}
            </form.Field>
          )}
        </form.Subscribe>
      </fieldset>

      {formErrors.length ? (
        <div
          role="alert"
          className="rounded-xl border border-red-400/30 bg-red-950/30 px-4 py-3 text-sm text-red-200"
        >
          {formErrors.length === 1 ? (
            <p>{formErrors[0]}</p>
          ) : (
            <ul className="list-disc pl-5">
              {formErrors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <DialogActions>
        <Button variant="ghost" disabled={pending} onClick={onDone}>
          Abbrechen
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : null}
          {juryClass ? 'Speichern' : 'Klasse anlegen'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** A row's field label: short on screen, with the row's number for screen readers. */
function RowLabel({ text, index }: { text: string; index: number }) {
  return (
    <>
      {text}
      <span className="sr-only"> (Nr. {index + 1})</span>
    </>
  );
}

/** The criteria of a class, read only. */
export function CriteriaTable({ criteria }: { criteria: JuryClassAdminView['criteria'] }) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs tracking-wide text-ash-400 uppercase">
        <tr>
          <th scope="col" className="py-1.5 pr-3 font-medium">
            Kriterium
          </th>
          <th scope="col" className="py-1.5 pr-3 text-right font-medium">
            Gewicht
          </th>
          <th scope="col" className="py-1.5 text-right font-medium">
            Skala
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-white/5">
        {criteria.map((criterion) => (
          <tr key={criterion.id}>
            <td className="py-1.5 pr-3 text-parchment">{criterion.name}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">× {criterion.weight}</td>
            <td className="py-1.5 text-right tabular-nums">0–{criterion.max}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A labelled group of toggle chips: the chosen values of a multiple choice. */
export function ChipGroup({
  label,
  options,
  labelOf = (option) => option,
  empty,
  chosen,
  onChange,
  disabled,
}: {
  label: string;
  options: readonly string[];
  labelOf?: (option: string) => string;
  empty: ReactNode;
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  disabled: boolean;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-2">
      <span className="text-sm font-medium text-ash-300">{label}</span>
      {options.length === 0 ? (
        <p className="text-xs text-ash-400">{empty}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {options.map((option) => (
            <CheckboxChip
              key={option}
              label={labelOf(option)}
              checked={chosen.includes(option)}
              disabled={disabled}
              onCheckedChange={(checked) =>
                onChange(checked ? [...chosen, option] : chosen.filter((value) => value !== option))
              }
            />
          ))}
        </div>
      )}
    </div>
  );
}
