import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import { useId, type ReactNode } from 'react';
import { CheckIcon } from './icons';

/**
 * A labelled checkbox (Ark checkbox). The real input is Ark's hidden input: it carries the
 * accessible name, `aria-invalid` and, with an error, `aria-describedby` pointing at the message.
 */
export function Checkbox({
  checked,
  onCheckedChange,
  onBlur,
  label,
  description,
  error,
  name,
  required = false,
  disabled = false,
  className = '',
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  onBlur?: () => void;
  label: ReactNode;
  /** Smaller text under the label. */
  description?: ReactNode;
  error?: string;
  name?: string;
  required?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <ArkCheckbox.Root
        id={id}
        checked={checked}
        onCheckedChange={(details) => onCheckedChange(details.checked === true)}
        invalid={Boolean(error)}
        required={required}
        disabled={disabled}
        name={name}
        className="group flex cursor-pointer items-start gap-3 rounded-xl border border-white/10 bg-night-900/60 p-4 transition-colors hover:border-gold-500/40 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-60 data-[invalid]:border-red-400/70 data-[state=checked]:border-gold-500/50 data-[state=checked]:bg-gold-500/5"
      >
        <ArkCheckbox.Control className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-md border border-white/25 bg-night-950 text-night-950 transition-colors data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-3 data-[focus-visible]:outline-gold-400 data-[invalid]:border-red-400 data-[state=checked]:border-gold-400 data-[state=checked]:bg-gold-400">
          <ArkCheckbox.Indicator>
            <CheckIcon />
          </ArkCheckbox.Indicator>
        </ArkCheckbox.Control>
        <span className="flex min-w-0 flex-col gap-1">
          <ArkCheckbox.Label className="text-sm leading-relaxed text-parchment">
            {label}
            {required ? <span aria-hidden="true"> *</span> : null}
          </ArkCheckbox.Label>
          {description ? (
            <span id={descriptionId} className="text-xs text-ash-400">
              {description}
            </span>
          ) : null}
        </span>
        <ArkCheckbox.HiddenInput aria-describedby={describedBy || undefined} onBlur={onBlur} />
      </ArkCheckbox.Root>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A compact toggle chip (Ark checkbox), e.g. one tuning category in a group. */
export function CheckboxChip({
  checked,
  onCheckedChange,
  label,
  disabled = false,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <ArkCheckbox.Root
      checked={checked}
      onCheckedChange={(details) => onCheckedChange(details.checked === true)}
      disabled={disabled}
      className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-white/15 bg-night-900 px-3 py-1.5 text-sm text-ash-300 transition-colors select-none hover:border-gold-500/50 hover:text-parchment has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold-400 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-60 data-[state=checked]:border-gold-400 data-[state=checked]:bg-gold-500/15 data-[state=checked]:text-gold-200"
    >
      <ArkCheckbox.Control className="flex items-center">
        <ArkCheckbox.Indicator>
          <CheckIcon className="size-3.5 text-gold-300" />
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      <ArkCheckbox.Label>{label}</ArkCheckbox.Label>
      <ArkCheckbox.HiddenInput />
    </ArkCheckbox.Root>
  );
}
