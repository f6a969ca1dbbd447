import { Spinner } from '../../components/ui/spinner';
import { useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';

/** Inline text links in forms and under cards. */
export const textLinkClass =
  'font-medium text-gold-300 underline decoration-gold-500/40 underline-offset-4 transition-colors hover:text-gold-200 hover:decoration-gold-300';

/** A full-width submit button, disabled with its progress label while the form is sent. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Button type="submit" disabled={pending} aria-disabled={pending} className="mt-2 w-full py-3">
      {pending ? (
        <>
          <Spinner />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </Button>
  );
}

/**
 * A form whose submit goes to TanStack Form: the browser's own validation bubbles are off so the
 * German messages from the shared schemas are the only ones shown. After a submit that left errors,
 * focus moves to the first invalid field.
 */
export function AccountForm({
  onSubmit,
  children,
  label,
}: {
  onSubmit: () => Promise<unknown>;
  children: ReactNode;
  /** Accessible name of the form. */
  label: string;
}) {
  const ref = useRef<HTMLFormElement>(null);
  return (
    <form
      ref={ref}
      noValidate
      aria-label={label}
      className="flex flex-col gap-4"
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        event.stopPropagation();
        void onSubmit().then(() => {
          ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
        });
      }}
    >
      {children}
    </form>
  );
}
