import { Portal } from '@ark-ui/react/portal';
import { createListCollection, Select } from '@ark-ui/react/select';
import { useId, useMemo, type ReactNode } from 'react';
import { CheckIcon, XMarkIcon } from './icons';

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A labelled single-choice select (Ark select) for short option lists. `value` is the chosen option's
 * value or '' for none; optional selects get a clear button ('Auswahl entfernen'), unless
 * `alwaysSet` (a control with a default, such as a sort order: no clear button, no required mark). The trigger
 * carries `aria-invalid` and, with an error, `aria-describedby` pointing at the message.
 */
export function SelectField({
  label,
  options,
  value,
  onValueChange,
  onBlur,
  name,
  placeholder = 'Bitte wählen',
  required = false,
  alwaysSet = false,
  disabled = false,
  error,
  hint,
}: {
  label: ReactNode;
  options: readonly SelectOption[];
  value: string;
  onValueChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  placeholder?: string;
  required?: boolean;
  alwaysSet?: boolean;
  disabled?: boolean;
  error?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const collection = useMemo(() => createListCollection({ items: [...options] }), [options]);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  const selected = value && options.some((option) => option.value === value) ? [value] : [];

  return (
    <Select.Root
      id={id}
      collection={collection}
      value={selected}
      onValueChange={(details) => onValueChange(details.value[0] ?? '')}
      onOpenChange={(details) => {
        if (!details.open) onBlur?.();
      }}
      name={name}
      required={required}
      disabled={disabled}
      invalid={Boolean(error)}
      deselectable={!required && !alwaysSet}
      positioning={{ sameWidth: true, gutter: 6 }}
      className="flex flex-col gap-1.5"
    >
      <Select.Label className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </Select.Label>
      <Select.Control className="relative">
        <Select.Trigger
          aria-describedby={describedBy || undefined}
          className="group flex w-full items-center justify-between gap-3 rounded-lg border border-white/10 bg-night-900 px-3.5 py-2.5 text-left text-parchment transition-colors hover:border-white/20 focus:border-gold-400 focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-400 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-60 data-[invalid]:border-red-400 data-[state=open]:border-gold-400"
        >
          <Select.ValueText
            placeholder={placeholder}
            className="truncate group-data-[placeholder-shown]:text-ash-400"
          />
          <Select.Indicator className="shrink-0 text-ash-400 transition-transform data-[state=open]:rotate-180">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
            </svg>
          </Select.Indicator>
        </Select.Trigger>
        {!required && !alwaysSet && selected.length > 0 ? (
          <Select.ClearTrigger
            aria-label="Auswahl entfernen"
            title="Auswahl entfernen"
            className="absolute top-1/2 right-9 -translate-y-1/2 rounded p-1 text-ash-400 transition-colors hover:text-parchment"
          >
            <XMarkIcon className="size-3.5" />
          </Select.ClearTrigger>
        ) : null}
      </Select.Control>
      <Portal>
        {/* The content's z-index becomes the positioner's (Ark), so the list opens above dialogs too. */}
        <Select.Positioner className="z-50">
          <Select.Content className="z-50 max-h-72 overflow-y-auto rounded-xl border border-white/10 bg-night-800 p-1 shadow-2xl shadow-black/60 focus:outline-none">
            {collection.items.map((item) => (
              <Select.Item
                key={item.value}
                item={item}
                className="flex cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-2 text-sm text-parchment data-[highlighted]:bg-gold-500/15 data-[state=checked]:text-gold-200"
              >
                <Select.ItemText>{item.label}</Select.ItemText>
                <Select.ItemIndicator className="text-gold-300">
                  <CheckIcon className="size-4" />
                </Select.ItemIndicator>
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
      <Select.HiddenSelect />
      {hint ? (
        <p id={hintId} className="text-xs text-ash-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </Select.Root>
  );
}
