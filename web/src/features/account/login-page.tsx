import { useEffect, useState } from 'react';
import { useForm, useStore } from '@tanstack/react-form';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { LoginSchema, type SecondFactorStep } from '@schlosstreffen/shared';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import * as v from 'valibot';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import { safeRedirectTarget } from '../../lib/route-guards';
import { announcePageLive } from '../../lib/page-live';
import { isSecondFactorChallenge, refreshCurrentUser, useLogin } from '../auth/auth-mutations';
import { AccountForm, EmailField, SubmitButton, textLinkClass } from './form-parts';
import { SecondFactorStepScreen } from './second-factor-screens';

const route = getRouteApi('/login');

export function LoginPage() {
  useEffect(announcePageLive, []);
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  // A staff sign-in whose password was right waits for its second factor on this page.
  const [secondFactor, setSecondFactor] = useState<{ step: SecondFactorStep; email: string } | null>(null);

  const signedIn = async (note = 'Willkommen zurück!') => {
    notify.success('Login erfolgreich', note);
    await navigate({ href: safeRedirectTarget(redirect), replace: true });
  };

  const form = useForm({
    defaultValues: { email: '', password: '' },
    validators: { onChange: LoginSchema },
    onSubmit: async ({ value }) => {
      try {
        const input = v.parse(LoginSchema, value);
        const answer = await login.mutateAsync(input);
        if (isSecondFactorChallenge(answer)) {
          setSecondFactor({ step: answer.secondFactor, email: input.email });
          return;
        }
        await signedIn();
      } catch (error) {
        notify.error('Login fehlgeschlagen', error, 'Falsche Email oder Passwort.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  if (secondFactor) {
    return (
      <SecondFactorStepScreen
        step={secondFactor.step}
        email={secondFactor.email}
        onSignedIn={(user: CurrentUser, note?: string) =>
          void refreshCurrentUser(queryClient, user).then(() => signedIn(note))
        }
        onRestart={() => {
          setSecondFactor(null);
          form.setFieldValue('password', '');
        }}
      />
    );
  }

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
