import { useEffect } from 'react';
import { useForm, useStore } from '@tanstack/react-form';
import { Link, useNavigate } from '@tanstack/react-router';
import { RegisterFormSchema } from '@schlosstreffen/shared';
import * as v from 'valibot';
import { PrivacyLink } from '../../components/privacy-link';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { useRegister } from '../auth/auth-mutations';
import {
  AccountForm,
  EmailField,
  NameFields,
  NewPasswordFields,
  SubmitButton,
  textLinkClass,
} from './form-parts';
import { announcePageLive } from '../../lib/page-live';

const EMPTY: v.InferInput<typeof RegisterFormSchema> = {
  firstName: '',
  lastName: '',
  email: '',
  instagramHandle: '',
  password: '',
  confirmPassword: '',
};

export function RegisterPage() {
  useEffect(announcePageLive, []);
  const navigate = useNavigate();
  const register = useRegister();

  const form = useForm({
    defaultValues: EMPTY,
    validators: { onChange: RegisterFormSchema },
    onSubmit: async ({ value }) => {
      const { confirmPassword: _confirm, ...body } = v.parse(RegisterFormSchema, value);
      try {
        await register.mutateAsync(body);
        notify.success('Registrierung erfolgreich', `Willkommen beim Schlosstreffen, ${body.firstName}!`);
        await navigate({ to: '/dashboard' });
      } catch (error) {
        notify.error('Registrierung fehlgeschlagen', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <PageCard
      title="Konto erstellen"
      description="Registriere dich, um dein Fahrzeug für das Schlosstreffen anzumelden."
      closeTo="/"
      footer={
        <>
          Schon registriert?{' '}
          <Link to="/login" className={textLinkClass}>
            Jetzt anmelden
          </Link>
        </>
      }
    >
      <AccountForm label="Registrierung" onSubmit={() => form.handleSubmit()}>
        <NameFields form={form} />
        <EmailField form={form} />
        <form.Field name="instagramHandle">
          {(field) => (
            <TextField
              field={field}
              label="Instagram Name (optional)"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="@deinname"
            />
          )}
        </form.Field>
        <NewPasswordFields form={form} name="password" label="Passwort" />
        <p className="text-xs leading-relaxed text-ash-400">
          Mit der Registrierung akzeptierst du, dass wir deine Angaben für dein Konto und deine Bewerbungen
          speichern – mehr dazu in der <PrivacyLink className={textLinkClass} />.
        </p>
        <SubmitButton pending={pending} label="Registrieren" pendingLabel="Registriere..." />
      </AccountForm>
    </PageCard>
  );
}
