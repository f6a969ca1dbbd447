import type { AnyFieldApi } from '@tanstack/react-form';
import { VEHICLE_TEXT_MAX, type ApplicationFormSchema, type VehicleEditSchema } from '@schlosstreffen/shared';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import * as v from 'valibot';
import { siteVehicleSchemas } from '../../lib/vehicle-schemas';
import { Button } from '../../components/ui/button';
import { CheckboxChip } from '../../components/ui/checkbox';
import { FieldFrame, fieldControl, fieldError, inputClass, TextField } from '../../components/ui/form-field';
import { ProgressBar } from '../../components/ui/progress-bar';
import { SelectField, type SelectOption } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { TextAreaField } from '../../components/ui/textarea';
import {
  DRIVE_OPTIONS_CREATE,
  DRIVE_OPTIONS_EDIT,
  FUEL_OPTIONS,
  stepOfFirstIssue,
  TUNING_CATEGORY_PRESETS,
} from './vehicle-form-values';

/** Shared pieces of the application wizard and the edit form. */

/**
 * A labelled number input bound to a TanStack Form field whose value is a number or null (empty):
 * what the user types is handed on as a number, never as text.
 */
function NumberField({
  field,
  label,
  required = false,
  hint,
  ...input
}: {
  field: AnyFieldApi;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
} & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'required' | 'type'
>) {
  const { id, error, attributes } = fieldControl(field, input.id, hint);
  const value = field.state.value as number | null | undefined;
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error}>
      <input
        inputMode="numeric"
        {...input}
        {...attributes}
        type="number"
        value={value === null || value === undefined || Number.isNaN(value) ? '' : value}
        required={required}
        onChange={(event) => {
          const text = event.target.value.trim();
          field.handleChange(text === '' ? null : Number(text));
        }}
        className={`${inputClass} tabular-nums ${input.className ?? ''}`}
      />
    </FieldFrame>
  );
}

/**
 * Tuning categories as toggle chips (Ark checkboxes): the presets, categories the vehicle already
 * has, and own ones added with 'Hinzufügen'.
 */
function TuningCategoriesField({ field }: { field: AnyFieldApi }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const selected = (field.state.value as string[] | null | undefined) ?? [];
  const error = fieldError(field);
  const options = [...TUNING_CATEGORY_PRESETS, ...selected.filter((item) => !isPreset(item))];

  const toggle = (category: string, checked: boolean) => {
    const next = checked
      ? [...selected.filter((item) => item !== category), category]
      : selected.filter((item) => item !== category);
    field.handleChange(next);
  };

  const add = () => {
    const category = draft.trim().slice(0, VEHICLE_TEXT_MAX.tuningCategory);
    if (!category) return;
    const known = options.find((item) => item.toLowerCase() === category.toLowerCase());
    if (!selected.includes(known ?? category)) field.handleChange([...selected, known ?? category]);
    setDraft('');
  };

  return (
    <fieldset className="flex flex-col gap-2.5" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-1 text-sm font-medium text-ash-300">Tuning-Kategorien</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((category) => (
          <CheckboxChip
            key={category}
            label={category}
            checked={selected.includes(category)}
            onCheckedChange={(checked) => toggle(category, checked)}
          />
        ))}
      </div>
      <div className="flex gap-2">
        <label htmlFor={`${id}-custom`} className="sr-only">
          Eigene Kategorie
        </label>
        <input
          id={`${id}-custom`}
          value={draft}
          maxLength={VEHICLE_TEXT_MAX.tuningCategory}
          placeholder="Eigene Kategorie"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          className={`${inputClass} py-2 text-sm`}
        />
        <Button variant="secondary" className="shrink-0 px-4 py-2" onClick={add} disabled={!draft.trim()}>
          Hinzufügen
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-ash-400">
        Wähle alles, was an deinem Fahrzeug verändert wurde.
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function isPreset(category: string): boolean {
  return (TUNING_CATEGORY_PRESETS as readonly string[]).includes(category);
}

/** 'Schritt 2 von 4' with the step's name, the Ark progress bar and the list of steps. */
export function StepProgress({ step, steps }: { step: number; steps: readonly string[] }) {
  const total = steps.length;
  return (
    <div className="flex flex-col gap-3">
      <ProgressBar
        value={step}
        min={0}
        max={total}
        label={`Schritt ${step} von ${total}: ${steps[step - 1] ?? ''}`}
        valueText={`${step}/${total}`}
      />
      <ol
        className="hidden gap-2 text-xs sm:grid"
        style={{ gridTemplateColumns: `repeat(${total}, minmax(0, 1fr))` }}
      >
        {steps.map((name, index) => {
          const number = index + 1;
          const state = number < step ? 'done' : number === step ? 'current' : 'next';
          return (
            <li
              key={name}
              aria-current={state === 'current' ? 'step' : undefined}
              className={`flex items-center gap-2 ${
                state === 'current' ? 'text-gold-200' : state === 'done' ? 'text-ash-300' : 'text-ash-400'
              }`}
            >
              <span
                aria-hidden="true"
                className={`flex size-5 shrink-0 items-center justify-center rounded-full border text-[0.7rem] tabular-nums ${
                  state === 'current'
                    ? 'border-gold-400 bg-gold-500 font-semibold text-night-950'
                    : state === 'done'
                      ? 'border-gold-500/50 text-gold-300'
                      : 'border-white/15'
                }`}
              >
                {number}
              </span>
              <span className="truncate">{name}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** A step's heading; it takes focus when the step changes so screen readers announce it. */
export function StepHeading({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} tabIndex={-1} className="font-display text-2xl text-parchment focus:outline-none">
      {children}
    </h2>
  );
}

/** Two columns from small screens up. */
const fieldGridClass = 'grid gap-4 sm:grid-cols-2';

/**
 * Step state of the wizard and the edit form: moving to another step scrolls the progress bar into
 * view and focuses the step's heading (not on first render), so keyboard and screen reader users
 * follow. Ids are derived from `prefix` (`<prefix>-form`, `<prefix>-step-heading`, `<prefix>-progress`).
 */
export function useFormSteps(prefix: string, lastStep: number) {
  const [step, setStep] = useState(1);
  const ids = {
    form: `${prefix}-form`,
    heading: `${prefix}-step-heading`,
    progress: `${prefix}-progress`,
  };
  const stepChanged = useRef(false);
  useEffect(() => {
    if (!stepChanged.current) return;
    // The progress bar sits above the heading; scroll-margin keeps it clear of the fixed header.
    document.getElementById(ids.progress)?.scrollIntoView?.({ block: 'start' });
    document.getElementById(ids.heading)?.focus({ preventScroll: true });
  }, [step, ids.progress, ids.heading]);

  const goTo = (target: number) => {
    stepChanged.current = true;
    setStep(Math.min(lastStep, Math.max(1, target)));
  };
  // Lets the messages render, then puts the cursor on the first field that needs attention.
  const focusFirstInvalid = () =>
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`#${ids.form} [aria-invalid="true"]`)?.focus(),
    );
  /** After a refused submit: back to the step with the first invalid field, if that is another one. */
  const goToFirstInvalidStep = (schema: v.GenericSchema, values: unknown) => {
    const result = v.safeParse(schema, values);
    const target = result.issues ? stepOfFirstIssue(result.issues) : null;
    if (target !== null && target !== step) goTo(target);
  };
  /** The form's submit: 'Weiter' (`next`) before the last step, then `submit`; nothing while `busy`. */
  const submitStep =
    ({ busy, next, submit }: { busy: boolean; next: () => Promise<void>; submit: () => Promise<void> }) =>
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      event.stopPropagation();
      if (busy) return;
      if (step < lastStep) void next();
      else void submit();
    };
  return { step, goTo, ids, focusFirstInvalid, goToFirstInvalidStep, submitStep };
}

/** Below both forms: the uploads note, 'Zurück', and 'Weiter' or the submit button. */
export function FormStepNav({
  step,
  lastStep,
  busy,
  uploading,
  uploadingNote,
  nextDisabled = false,
  submitLabel,
  busyLabel,
  onBack,
}: {
  step: number;
  lastStep: number;
  busy: boolean;
  uploading: boolean;
  /** Shown while uploads run on the steps where they matter. */
  uploadingNote: string | null;
  nextDisabled?: boolean;
  submitLabel: string;
  busyLabel: string;
  onBack: () => void;
}) {
  return (
    <div className="mt-2 flex flex-col gap-3 border-t border-white/10 pt-6">
      {uploadingNote ? (
        <p className="text-sm text-gold-200" role="status">
          {uploadingNote}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button
          variant="secondary"
          className="disabled:opacity-40"
          disabled={step === 1 || busy}
          onClick={onBack}
        >
          Zurück
        </Button>
        {step < lastStep ? (
          <Button type="submit" disabled={nextDisabled}>
            Weiter
          </Button>
        ) : (
          <Button type="submit" disabled={busy || uploading}>
            {busy ? (
              <>
                <Spinner />
                {busyLabel}
              </>
            ) : (
              submitLabel
            )}
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * What the field groups use of a form: its Field component, for the create and the edit form alike
 * (their values differ in a few types; decimals are text when editing). A method, so each form's
 * own, narrower Field fits.
 */
export interface VehicleFormFields {
  Field(props: {
    name: string;
    validators?: { onChange?: v.GenericSchema };
    children: (field: AnyFieldApi) => ReactNode;
  }): ReactNode | Promise<ReactNode>;
}
type VehicleFieldSchemas = typeof ApplicationFormSchema.entries | typeof VehicleEditSchema.entries;

interface FieldGroupProps {
  form: VehicleFormFields;
  schema: VehicleFieldSchemas;
  /** 'create' adds examples and hints for first-time applicants. */
  variant: 'create' | 'edit';
}

const REQUIRED_NOTE = (
  <p className="-mt-3 text-sm text-ash-400">Mit * markierte Felder sind Pflichtfelder.</p>
);

/** Step 1 of both forms: basic data, tuning categories and descriptions. */
export function BasicDataFields({ form, schema: S, variant }: FieldGroupProps) {
  const create = variant === 'create';
  return (
    <div className="flex flex-col gap-5">
      {create ? REQUIRED_NOTE : null}
      <div className={fieldGridClass}>
        <form.Field name="brand" validators={{ onChange: S.brand }}>
          {(field) => (
            <TextField
              field={field}
              label="Marke"
              required
              autoComplete={create ? 'off' : undefined}
              placeholder={create ? 'z. B. BMW' : undefined}
              maxLength={VEHICLE_TEXT_MAX.brand}
            />
          )}
        </form.Field>
        <form.Field name="model" validators={{ onChange: S.model }}>
          {(field) => (
            <TextField
              field={field}
              label="Modell"
              required
              autoComplete={create ? 'off' : undefined}
              placeholder={create ? 'z. B. M3 (E30)' : undefined}
              maxLength={VEHICLE_TEXT_MAX.model}
            />
          )}
        </form.Field>
        <form.Field name="year" validators={{ onChange: S.year }}>
          {(field) => (
            <NumberField
              field={field}
              label="Baujahr"
              required
              min={siteVehicleSchemas().year.min}
              max={siteVehicleSchemas().year.max}
            />
          )}
        </form.Field>
        <form.Field name="color" validators={{ onChange: S.color }}>
          {(field) => (
            <TextField
              field={field}
              label="Farbe"
              placeholder={create ? 'z. B. Henna-Rot' : undefined}
              maxLength={VEHICLE_TEXT_MAX.color}
            />
          )}
        </form.Field>
        <div className="sm:col-span-2">
          <form.Field name="name" validators={{ onChange: S.name }}>
            {(field) => (
              <TextField
                field={field}
                label="Name auf der Karte"
                hint={
                  create
                    ? 'Optionaler Spitzname deines Fahrzeugs. Er steht als Titel auf der Quartett-Karte, sonst Marke und Modell.'
                    : 'Optionaler Spitzname. Er steht als Titel auf der Quartett-Karte, sonst Marke und Modell.'
                }
                maxLength={VEHICLE_TEXT_MAX.name}
              />
            )}
          </form.Field>
        </div>
        <form.Field name="licensePlate" validators={{ onChange: S.licensePlate }}>
          {(field) => (
            <TextField
              field={field}
              label="Kennzeichen"
              autoComplete="off"
              placeholder={create ? 'z. B. DD-ST 2026' : undefined}
              maxLength={VEHICLE_TEXT_MAX.licensePlate}
            />
          )}
        </form.Field>
        <form.Field name="vin" validators={{ onChange: S.vin }}>
          {(field) => (
            <TextField
              field={field}
              label="FIN (Fahrgestellnummer)"
              autoComplete="off"
              spellCheck={false}
              maxLength={VEHICLE_TEXT_MAX.vin}
            />
          )}
        </form.Field>
      </div>
      <form.Field name="tuningCategories" validators={{ onChange: S.tuningCategories }}>
        {(field) => <TuningCategoriesField field={field} />}
      </form.Field>
      <form.Field name="descriptionShort" validators={{ onChange: S.descriptionShort }}>
        {(field) => (
          <TextAreaField
            field={field}
            label="Kurzbeschreibung"
            rows={2}
            maxLength={VEHICLE_TEXT_MAX.descriptionShort}
            hint={create ? 'Ein, zwei Sätze für die Fahrzeugkarte.' : undefined}
          />
        )}
      </form.Field>
      <form.Field name="descriptionLong" validators={{ onChange: S.descriptionLong }}>
        {(field) => (
          <TextAreaField
            field={field}
            label="Ausführliche Beschreibung"
            rows={5}
            maxLength={VEHICLE_TEXT_MAX.descriptionLong}
            hint={create ? 'Geschichte, Aufbau und Besonderheiten deines Fahrzeugs.' : undefined}
          />
        )}
      </form.Field>
    </div>
  );
}

/**
 * Step 2 of both forms: performance data. Creating, the decimals are number inputs and there is a
 * fuel selector; editing, the decimals are text ('4,5'), the drive types are the lowercase ones
 * and there is no fuel selector (the fuel type is not editable).
 */
export function PerformanceFields({ form, schema: S, variant }: FieldGroupProps) {
  const create = variant === 'create';
  return (
    <div className="flex flex-col gap-5">
      {create ? REQUIRED_NOTE : null}
      <div className={fieldGridClass}>
        <form.Field name="ps" validators={{ onChange: S.ps }}>
          {(field) => <NumberField field={field} label="Leistung (PS)" required min={50} max={3000} />}
        </form.Field>
        <form.Field name="weightKg" validators={{ onChange: S.weightKg }}>
          {(field) => <NumberField field={field} label="Gewicht (kg)" required min={500} max={3000} />}
        </form.Field>
        <form.Field name="topSpeedKmh" validators={{ onChange: S.topSpeedKmh }}>
          {(field) => (
            <NumberField field={field} label="Höchstgeschwindigkeit (km/h)" required min={100} max={500} />
          )}
        </form.Field>
        <form.Field name="zeroToHundredS" validators={{ onChange: S.zeroToHundredS }}>
          {(field) =>
            create ? (
              <NumberField
                field={field}
                label="0-100 km/h (s)"
                required
                min={0}
                max={300}
                step={0.1}
                inputMode="decimal"
              />
            ) : (
              <TextField
                field={field}
                label="0-100 km/h (s)"
                required
                inputMode="decimal"
                autoComplete="off"
                hint="Zum Beispiel 4,5"
              />
            )
          }
        </form.Field>
        <form.Field name="torqueNm" validators={{ onChange: S.torqueNm }}>
          {(field) => <NumberField field={field} label="Drehmoment (Nm)" min={0} />}
        </form.Field>
        <form.Field name="quarterMileS" validators={{ onChange: S.quarterMileS }}>
          {(field) =>
            create ? (
              <NumberField
                field={field}
                label="Viertelmeile (s)"
                min={0}
                max={60}
                step={0.1}
                inputMode="decimal"
              />
            ) : (
              <TextField field={field} label="Viertelmeile (s)" inputMode="decimal" autoComplete="off" />
            )
          }
        </form.Field>
        <form.Field name="driveType" validators={{ onChange: S.driveType }}>
          {(field) => (
            <FormSelectField
              field={field}
              label="Antriebsart"
              options={create ? DRIVE_OPTIONS_CREATE : DRIVE_OPTIONS_EDIT}
            />
          )}
        </form.Field>
        {create ? (
          <form.Field name="fuelType" validators={{ onChange: 'fuelType' in S ? S.fuelType : undefined }}>
            {(field) => <FormSelectField field={field} label="Kraftstoff" options={FUEL_OPTIONS} />}
          </form.Field>
        ) : null}
        <form.Field name="displacementCcm" validators={{ onChange: S.displacementCcm }}>
          {(field) => <NumberField field={field} label="Hubraum (ccm)" min={0} />}
        </form.Field>
        <form.Field name="cylinders" validators={{ onChange: S.cylinders }}>
          {(field) => <NumberField field={field} label="Zylinder" min={0} max={24} />}
        </form.Field>
      </div>
      <form.Field name="specialMods" validators={{ onChange: S.specialMods }}>
        {(field) => (
          <TextAreaField
            field={field}
            label="Besondere Modifikationen"
            rows={4}
            maxLength={VEHICLE_TEXT_MAX.specialMods}
            hint={
              create
                ? 'Was macht dein Fahrzeug einzigartig? Motor, Fahrwerk, Karosserie, Innenraum …'
                : undefined
            }
          />
        )}
      </form.Field>
    </div>
  );
}

function FormSelectField({
  field,
  label,
  options,
}: {
  field: AnyFieldApi;
  label: string;
  options: readonly SelectOption[];
}) {
  return (
    <SelectField
      label={label}
      name={field.name}
      options={options}
      value={(field.state.value as string | null | undefined) ?? ''}
      onValueChange={field.handleChange}
      onBlur={field.handleBlur}
      error={fieldError(field)}
    />
  );
}
