import type { AnyFieldApi } from '@tanstack/react-form';
import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { fieldError, inputClass } from './form-field';

/**
 * A labelled textarea bound to a TanStack Form field (string value); its error is tied to it with
 * aria-describedby. With `maxLength` a character count is shown under it.
 */
export function TextAreaField({
  field,
  label,
  required = false,
  hint,
  rows = 4,
  maxLength,
  ...textarea
}: {
  field: AnyFieldApi;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
} & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'required'
>) {
  const id = textarea.id ?? `field-${field.name}`;
  const error = fieldError(field);
  const value = (field.state.value as string | null | undefined) ?? '';
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <textarea
        {...textarea}
        id={id}
        name={field.name}
        rows={rows}
        maxLength={maxLength}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onBlur={field.handleBlur}
        onChange={(event) => field.handleChange(event.target.value)}
        className={`${inputClass} min-h-24 resize-y leading-relaxed ${textarea.className ?? ''}`}
      />
      {hint || maxLength ? (
        <div className="flex items-start justify-between gap-3 text-xs text-ash-400">
          {hint ? <p id={`${id}-hint`}>{hint}</p> : <span />}
          {maxLength ? (
            <span className="shrink-0 tabular-nums" aria-hidden="true">
              {value.length}/{maxLength}
            </span>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
