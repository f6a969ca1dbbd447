import type { AnyFieldApi } from '@tanstack/react-form';
import { VEHICLE_TEXT_MAX } from '@schlosstreffen/shared';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { CheckboxChip } from '../../components/ui/checkbox';
import { fieldError, inputClass } from '../../components/ui/form-field';
import { ProgressBar } from '../../components/ui/progress-bar';
import { TUNING_CATEGORY_PRESETS } from './vehicle-form-values';

/** Shared pieces of the application wizard and the edit form. */

/**
 * A labelled number input bound to a TanStack Form field whose value is a number or null (empty):
 * what the user types is handed on as a number, never as text.
 */
export function NumberField({
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
  const id = input.id ?? `field-${field.name}`;
  const error = fieldError(field);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  const value = field.state.value as number | null | undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        inputMode="numeric"
        {...input}
        id={id}
        type="number"
        name={field.name}
        value={value === null || value === undefined || Number.isNaN(value) ? '' : value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onBlur={field.handleBlur}
        onChange={(event) => {
          const text = event.target.value.trim();
          field.handleChange(text === '' ? null : Number(text));
        }}
        className={`${inputClass} tabular-nums ${input.className ?? ''}`}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-ash-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Tuning categories as toggle chips (Ark checkboxes): the presets, categories the vehicle already
 * has, and own ones added with 'Hinzufügen'.
 */
export function TuningCategoriesField({ field }: { field: AnyFieldApi }) {
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
export const fieldGridClass = 'grid gap-4 sm:grid-cols-2';
