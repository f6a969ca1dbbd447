import { useForm, useStore } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { RESET_REDIRECT_MS, ResetPasswordFormSchema } from '@schlosstreffen/shared';
import { useEffect, type ReactNode } from 'react';
import * as v from 'valibot';
import { SuccessIcon, WarningIcon } from '../../components/ui/icons';
import { buttonClass } from '../../components/ui/button';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import { useResetPassword } from '../auth/auth-mutations';
import { resetTokenQueryOptions } from '../auth/reset-token-query';
import { Spinner } from '../../components/ui/spinner';
import { AccountForm, NewPasswordFields, SubmitButton, textLinkClass } from './form-parts';

const route = getRouteApi('/reset-password');

/** Checks the token, then shows the form (valid) or 'Ungültiger Link' (missing, invalid, expired). */
export function ResetPasswordPage() {
  const { token } = route.useSearch();
  // The route's loader started the check; a failed one is not repeated on mount.
  const check = useQuery({
    ...resetTokenQueryOptions(token ?? ''),
    enabled: Boolean(token),
    retryOnMount: false,
  });

  if (!token || check.isError) return <InvalidLink missing={!token} />;
  if (check.isPending) {
    return (
      <PageCard title="Passwort zurücksetzen" closeTo="/login">
        <p role="status" className="flex items-center gap-3 text-ash-300">
          <Spinner className="size-5 text-gold-400" />
          Token wird überprüft...
        </p>
      </PageCard>
    );
  }
  return <ResetForm token={token} email={check.data.email} />;
}

function ResetForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const done = reset.isSuccess;

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate({ to: '/login' }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const form = useForm({
    defaultValues: { password: '', confirmPassword: '' },
    validators: { onChange: ResetPasswordFormSchema },
    onSubmit: async ({ value }) => {
      const { password } = v.parse(ResetPasswordFormSchema, value);
      try {
        await reset.mutateAsync({ token, newPassword: password });
        notify.success('Passwort zurückgesetzt', 'Du kannst dich jetzt mit deinem neuen Passwort anmelden.');
      } catch (error) {
        notify.error('Fehler', error, 'Passwort konnte nicht zurückgesetzt werden.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  if (done) {
    return (
      <PageCard title="Passwort erfolgreich zurückgesetzt" closeTo="/login">
        <Outcome tone="success">
          <p role="status" className="text-sm text-ash-300">
            Du wirst gleich zur Anmeldung weitergeleitet.
          </p>
          <Link to="/login" className={textLinkClass}>
            Jetzt anmelden
          </Link>
        </Outcome>
      </PageCard>
    );
  }

  return (
    <PageCard
      title="Neues Passwort setzen"
      description={
        <>
          Für: <span className="break-all text-parchment">{email}</span>
        </>
      }
      closeTo="/login"
    >
      <AccountForm label="Neues Passwort setzen" onSubmit={() => form.handleSubmit()}>
        {/* Lets password managers store the new password under the right account. */}
        <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
        <NewPasswordFields form={form} name="password" label="Neues Passwort" />
        <SubmitButton pending={pending} label="Passwort speichern" pendingLabel="Setze Passwort..." />
      </AccountForm>
    </PageCard>
  );
}

function InvalidLink({ missing }: { missing: boolean }) {
  return (
    <PageCard title="Ungültiger Link" closeTo="/login">
      <Outcome tone="error">
        <p className="text-sm text-ash-300">
          {missing
            ? 'Diesem Link fehlt der Reset-Token. Öffne den Link bitte direkt aus der E-Mail.'
            : 'Dieser Link zum Zurücksetzen des Passworts ist ungültig oder abgelaufen.'}{' '}
          Reset-Links sind aus Sicherheitsgründen nur 1 Stunde gültig.
        </p>
        <Link to="/forgot-password" className={buttonClass('primary', 'w-full py-3')}>
          Neuen Link anfordern
        </Link>
      </Outcome>
    </PageCard>
  );
}

function Outcome({ tone, children }: { tone: 'success' | 'error'; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-5 text-center">
      <span
        aria-hidden="true"
        className={`flex size-14 items-center justify-center rounded-full border ${
          tone === 'success'
            ? 'border-gold-500/40 bg-gold-500/10 text-gold-300'
            : 'border-red-400/40 bg-red-500/10 text-red-300'
        }`}
      >
        {tone === 'success' ? <SuccessIcon className="size-7" /> : <WarningIcon className="size-7" />}
      </span>
      {children}
    </div>
  );
}
