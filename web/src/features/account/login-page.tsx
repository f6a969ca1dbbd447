import { useEffect } from 'react';
import { useForm, useStore } from '@tanstack/react-form';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { LoginSchema } from '@schlosstreffen/shared';
import * as v from 'valibot';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import { safeRedirectTarget } from '../../lib/route-guards';
import { announcePageLive } from '../../lib/page-live';
import { useLogin } from '../auth/auth-mutations';
import { AccountForm, EmailField, SubmitButton, textLinkClass } from './form-parts';

const route = getRouteApi('/login');

export function LoginPage() {
  useEffect(announcePageLive, []);
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const login = useLogin();

  const form = useForm({
    defaultValues: { email: '', password: '' },
    validators: { onChange: LoginSchema },
    onSubmit: async ({ value }) => {
      try {
        await login.mutateAsync(v.parse(LoginSchema, value));
        notify.success('Login erfolgreich', 'Willkommen zurück!');
        await navigate({ href: safeRedirectTarget(redirect), replace: true });
      } catch (error) {
        notify.error('Login fehlgeschlagen', error, 'Falsche Email oder Passwort.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <PageCard
      title="Anmelden"
      description="Willkommen zurück beim Schlosstreffen."
      closeTo="/"
      footer={
        <>
          Noch kein Konto?{' '}
          <Link to="/register" className={textLinkClass}>
            Jetzt registrieren
          </Link>
        </>
      }
    >
      <AccountForm label="Anmeldung" onSubmit={() => form.handleSubmit()}>
        <EmailField form={form} />
        <div className="flex flex-col gap-2">
          <form.Field name="password">
            {(field) => (
              <TextField
                field={field}
                label="Passwort"
                type="password"
                required
                autoComplete="current-password"
              />
            )}
          </form.Field>
          <Link to="/forgot-password" className={`self-end text-sm ${textLinkClass}`}>
            Passwort vergessen?
          </Link>
        </div>
        <SubmitButton pending={pending} label="Anmelden" pendingLabel="Anmelden..." />
      </AccountForm>
    </PageCard>
  );
}
