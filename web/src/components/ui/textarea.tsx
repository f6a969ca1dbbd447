import type { AnyFieldApi } from '@tanstack/react-form';
import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldFrame, fieldControl, inputClass, useTypedValue } from './form-field';

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
  const { id, error, attributes } = fieldControl(field, textarea.id, hint);
  const value = (field.state.value as string | null | undefined) ?? '';
  const ref = useTypedValue<HTMLTextAreaElement>(field);
  return (
    <FieldFrame
      id={id}
      label={label}
      required={required}
      error={error}
      below={
        hint || maxLength ? (
          <div className="flex items-start justify-between gap-3 text-xs text-ash-400">
            {hint ? <p id={`${id}-hint`}>{hint}</p> : <span />}
            {maxLength ? (
              <span className="shrink-0 tabular-nums" aria-hidden="true">
                {value.length}/{maxLength}
              </span>
            ) : null}
          </div>
        ) : null
      }
    >
      <textarea
        {...textarea}
        {...attributes}
        ref={ref}
        rows={rows}
        maxLength={maxLength}
        value={value}
        required={required}
        onChange={(event) => field.handleChange(event.target.value)}
        className={`${inputClass} min-h-24 resize-y leading-relaxed ${textarea.className ?? ''}`}
      />
    </FieldFrame>
  );
}
