import type { AnyFieldApi } from '@tanstack/react-form';
import { useLayoutEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react';

/** The first message of a field's validation errors (valibot issues or plain strings). */
export function fieldError(field: AnyFieldApi): string | undefined {
  if (!field.state.meta.isTouched && field.form.state.submissionAttempts === 0) return undefined;
  for (const error of field.state.meta.errors as unknown[]) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      return error.message;
    }
  }
  return undefined;
}

export const inputClass =
  'w-full rounded-lg border border-white/10 bg-night-900 px-3.5 py-2.5 text-parchment placeholder:text-ash-400/60 transition-colors focus:border-gold-400 focus:outline-none aria-[invalid=true]:border-red-400';

/**
 * What a control bound to `field` needs: its id (the given one or `field-<name>`), the error shown,
 * and the attributes that tie label, hint and error to it.
 */
export function fieldControl(field: AnyFieldApi, givenId: string | undefined, hint: ReactNode) {
  const id = givenId ?? `field-${field.name}`;
  const error = fieldError(field);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return {
    id,
    error,
    attributes: {
      id,
      name: field.name,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
      onBlur: field.handleBlur,
    },
  } as const;
}

/**
 * A ref for the control bound to `field`: when the control mounts, the form takes over what it
 * already holds. On a server-rendered page that is what was typed (or filled in by a password
 * manager) before the app took the page over: React keeps a field's value when it hydrates, but the
 * form state starts empty, and the form's next render would write that back into the field. Taken
 * over while React commits the field, before any event (a press replayed, or one that made React
 * hydrate the form at once) reaches the form. From then on React sees every keystroke itself; a
 * control the app creates holds its state already.
 */
export function useTypedValue<T extends HTMLInputElement | HTMLTextAreaElement>(field: AnyFieldApi) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    const value = field.state.value as unknown;
    if (typed !== undefined && typed !== String(value ?? '')) field.handleChange(typed);
  }, [field]);
  return ref;
}

/**
 * A checkbox of a server-rendered form: ticked before the app took the page over, the form takes
 * the tick over when the box mounts (as useTypedValue does for typed text).
 */
export function KeptCheckbox({ field, children }: { field: AnyFieldApi; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const input = ref.current?.querySelector<HTMLInputElement>('input[type="checkbox"]');
    if (input?.checked && field.state.value !== true) field.handleChange(true);
  }, [field]);
  return <div ref={ref}>{children}</div>;
}

/**
 * Label, control, hint and error of a form field. `below` replaces the plain hint line (it must
 * then carry the hint with id `<id>-hint` itself).
 */
export function FieldFrame({
  id,
  label,
  required,
  hint,
  error,
  below,
  children,
}: {
  id: string;
  label: ReactNode;
  required: boolean;
  hint?: ReactNode;
  error: string | undefined;
  below?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children}
      {below !== undefined ? (
        below
      ) : hint ? (
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

/** A labelled input bound to a TanStack Form field; its error is tied to it with aria-describedby. */
export function TextField({
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
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'value' | 'onChange' | 'onBlur' | 'required'>) {
  const { id, error, attributes } = fieldControl(field, input.id, hint);
  const value = field.state.value as string | number | null | undefined;
  const ref = useTypedValue<HTMLInputElement>(field);
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error}>
      <input
        {...input}
        {...attributes}
        ref={ref}
        value={value ?? ''}
        required={required}
        onChange={(event) => field.handleChange(event.target.value)}
        className={`${inputClass} ${input.className ?? ''}`}
      />
    </FieldFrame>
  );
}
