import type { AnyFieldApi, AnyFieldLikeMetaBase } from '@tanstack/react-form';
import { useRef, type FormEvent, type FunctionComponent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';

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

/**
 * The server's message on a field (e.g. a wrong password), shown like a validation error until the
 * field is edited: pass `serverErrorListeners` to that field.
 */
export function setServerError<TName extends string>(
  form: {
    setFieldMeta: (name: TName, updater: (meta: AnyFieldLikeMetaBase) => AnyFieldLikeMetaBase) => void;
  },
  name: TName,
  message: string,
): void {
  form.setFieldMeta(name, (meta) => ({
    ...meta,
    isTouched: true,
    errorMap: { ...meta.errorMap, onServer: message },
  }));
}

export const serverErrorListeners = {
  onChange: ({ fieldApi }: { fieldApi: AnyFieldApi }) => fieldApi.setErrorMap({ onServer: undefined }),
};

/** What the field groups below need of a TanStack form: text fields with these names. */
interface FormWith<TName extends string> {
  state: { values: Record<TName, string> };
  Field: (props: {
    name: TName;
    children: (field: AnyFieldApi) => ReactNode;
  }) => ReturnType<FunctionComponent>;
}

/** Vorname and Nachname side by side. */
export function NameFields({ form }: { form: FormWith<'firstName' | 'lastName'> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <form.Field name="firstName">
        {(field) => <TextField field={field} label="Vorname" required autoComplete="given-name" />}
      </form.Field>
      <form.Field name="lastName">
        {(field) => <TextField field={field} label="Nachname" required autoComplete="family-name" />}
      </form.Field>
    </div>
  );
}

/** The required email field. */
export function EmailField({ form, label = 'Email' }: { form: FormWith<'email'>; label?: string }) {
  return (
    <form.Field name="email">
      {(field) => (
        <TextField
          field={field}
          label={label}
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
        />
      )}
    </form.Field>
  );
}

/** A new password (field `name`) and its confirmation (field `confirmPassword`). */
export function NewPasswordFields<TName extends string>({
  form,
  name,
  label,
}: {
  form: FormWith<TName | 'confirmPassword'>;
  name: TName;
  label: string;
}) {
  return (
    <>
      <form.Field name={name}>
        {(field) => (
          <TextField
            field={field}
            label={label}
            type="password"
            required
            autoComplete="new-password"
            hint="Mindestens 8 Zeichen."
          />
        )}
      </form.Field>
      <form.Field name="confirmPassword">
        {(field) => (
          <TextField
            field={field}
            label="Passwort bestätigen"
            type="password"
            required
            autoComplete="new-password"
          />
        )}
      </form.Field>
    </>
  );
}
