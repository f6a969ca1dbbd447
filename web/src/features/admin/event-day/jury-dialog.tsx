import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useId, type ReactNode } from 'react';
import { inputClass } from '../../../components/ui/form-field';
import { XMarkIcon } from '../../../components/ui/icons';

/**
 * The frame of the jury screen's dialogs: title, an optional line, a scrolling body and a close
 * button; closing is refused while `busy`. Mounted only while open, so each opening starts afresh.
 */
export function JuryDialog({
  open,
  onOpenChange,
  title,
  description,
  busy = false,
  size = 'md',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  busy?: boolean;
  size?: 'md' | 'lg';
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!busy) onOpenChange(details.open);
      }}
      closeOnInteractOutside={false}
      closeOnEscape={!busy}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm" />
        <Dialog.Positioner className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
          <Dialog.Content
            className={`flex max-h-[100dvh] w-full flex-col overflow-hidden border border-white/10 bg-night-900 shadow-2xl shadow-black/60 focus:outline-none sm:max-h-[90dvh] sm:rounded-2xl ${
              size === 'lg' ? 'max-w-3xl' : 'max-w-xl'
            }`}
          >
            <header className="flex items-start justify-between gap-4 border-b border-white/10 px-5 pt-5 pb-4 sm:px-6">
              <div className="min-w-0">
                <Dialog.Title className="font-display text-2xl leading-tight text-parchment">
                  {title}
                </Dialog.Title>
                {description ? (
                  <Dialog.Description className="mt-1.5 text-sm text-ash-300">
                    {description}
                  </Dialog.Description>
                ) : null}
              </div>
              <Dialog.CloseTrigger
                aria-label="Schließen"
                title="Schließen"
                disabled={busy}
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full border border-white/10 text-ash-300 transition-colors hover:border-gold-400/60 hover:text-parchment disabled:opacity-40"
              >
                <XMarkIcon className="size-4" />
              </Dialog.CloseTrigger>
            </header>
            <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-5 sm:px-6">
              {children}
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The row of a dialog's buttons: Abbrechen and the action(s). */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>;
}

/**
 * A labelled native select for the dialogs: a list the dialog mounts with it would be hidden from
 * assistive technology by the dialog's modality (Ark hides what is outside it when it opens).
 */
export function DialogSelect({
  label,
  options,
  value,
  onChange,
  placeholder,
  required = false,
  disabled = false,
  hint,
}: {
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  /** The empty choice's text; without it there is none. */
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  hint?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={id}
        value={value}
        required={required}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} disabled:opacity-60`}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-ash-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
