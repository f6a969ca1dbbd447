import { useForm, useStore } from '@tanstack/react-form';
import { Link } from '@tanstack/react-router';
import { ForgotPasswordSchema } from '@schlosstreffen/shared';
import { useEffect, useRef } from 'react';
import * as v from 'valibot';
import { buttonClass } from '../../components/ui/button';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import { useForgotPassword } from '../auth/auth-mutations';
import { AccountForm, EmailField, SubmitButton } from './form-parts';
import { announcePageLive } from '../../lib/page-live';

const SENT_TEXT = 'Falls die E-Mail-Adresse existiert, wurde ein Reset-Link versendet.';

export function ForgotPasswordPage() {
  useEffect(announcePageLive, []);
  const forgot = useForgotPassword();
  // Once sent, the confirmation replaces the form.
  const sentTo = forgot.isSuccess ? forgot.variables.email : null;

  const form = useForm({
    defaultValues: { email: '' },
    validators: { onChange: ForgotPasswordSchema },
    onSubmit: async ({ value }) => {
      try {
        await forgot.mutateAsync(v.parse(ForgotPasswordSchema, value));
        notify.success('E-Mail versendet', SENT_TEXT);
      } catch (error) {
        notify.error('Fehler', error, 'Ein Fehler ist aufgetreten.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <PageCard
      title="Passwort vergessen?"
      description={
        sentTo
          ? undefined
          : 'Gib die Email-Adresse deines Kontos ein. Wir senden dir einen Link zum Zurücksetzen.'
      }
      closeTo="/login"
    >
      {sentTo ? (
        <SentConfirmation email={sentTo} />
      ) : (
        <AccountForm label="Reset-Link anfordern" onSubmit={() => form.handleSubmit()}>
          <EmailField form={form} />
          <SubmitButton pending={pending} label="Reset-Link senden" pendingLabel="Sende..." />
        </AccountForm>
      )}
    </PageCard>
  );
}

function SentConfirmation({ email }: { email: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to the confirmation so screen readers announce it.
  useEffect(() => heading.current?.focus(), []);

  return (
    <div className="flex flex-col items-center gap-5 text-center">
      <span
        aria-hidden="true"
        className="flex size-14 items-center justify-center rounded-full border border-gold-500/40 bg-gold-500/10 text-gold-300"
      >
        <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="1.6">
          <path d="M3.5 6.5h17v11h-17z" strokeLinejoin="round" />
          <path d="m3.5 6.5 8.5 7 8.5-7" strokeLinejoin="round" />
        </svg>
      </span>
      <h2 ref={heading} tabIndex={-1} className="font-display text-2xl text-parchment focus:outline-none">
        E-Mail versendet!
      </h2>
      <p className="text-sm text-ash-300">
        Falls für <span className="break-all text-parchment">{email}</span> ein Konto existiert, haben wir dir
        einen Link zum Zurücksetzen gesendet. Er ist 1 Stunde gültig – schau auch in deinen Spam-Ordner.
      </p>
      <Link to="/login" className={buttonClass('primary', 'w-full py-3')}>
        Zurück zum Login
      </Link>
    </div>
  );
}
