import {
  RecoveryCodeFormSchema,
  SecondFactorCodeSchema,
  SECOND_FACTOR,
  type SecondFactorStep,
} from '@schlosstreffen/shared';
import type { CurrentUser, SecondFactorSetup } from '@schlosstreffen/shared/api';
import { useForm, useStore, type AnyFieldApi } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import * as v from 'valibot';
import { Button, buttonClass } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { LoadError, Loading } from '../../components/ui/query-states';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { isApiError, issueFor } from '../../lib/api';
import {
  cancelPendingSignIn,
  secondFactorSetupQueryOptions,
  useConfirmSecondFactorSetup,
  useVerifySecondFactor,
} from '../auth/second-factor-api';
import { AccountForm, serverErrorListeners, setServerError, SubmitButton, textLinkClass } from './form-parts';
import { saveFile } from '../../lib/save-file';

/**
 * The second step of a staff sign-in (reviewers and admins, while the server asks for it): the
 * first time, setting up an authenticator app with the key shown as QR code and as text, then the
 * recovery codes shown once; afterwards the app's code, or one of the recovery codes.
 */
export function SecondFactorStepScreen({
  step,
  email,
  onSignedIn,
  onRestart,
}: {
  step: SecondFactorStep;
  email: string;
  /** The sign-in is complete. */
  onSignedIn: (user: CurrentUser, note?: string) => void;
  /** Back to the password (the pending sign-in was given up, or it lapsed). */
  onRestart: () => void;
}) {
  const restart = () => void cancelPendingSignIn().then(onRestart);
  /** The waiting sign-in is gone (it lapsed after its ten minutes, or the session ended). */
  const lapsed = (error: unknown) => {
    if (!isApiError(error) || error.status !== 401) return false;
    notify.error('Anmeldung abgelaufen', error, 'Bitte melde dich erneut an.');
    onRestart();
    return true;
  };
  return step === 'setup' ? (
    <SetupScreen email={email} onSignedIn={onSignedIn} onCancel={restart} lapsed={lapsed} />
  ) : (
    <CodeScreen email={email} onSignedIn={onSignedIn} onCancel={restart} lapsed={lapsed} />
  );
}

interface StepProps {
  email: string;
  onSignedIn: (user: CurrentUser, note?: string) => void;
  onCancel: () => void;
  lapsed: (error: unknown) => boolean;
}

/** The server's word on a field: its validation issue, or a rate limit's wait. */
function fieldMessage(error: unknown, field: string): string | undefined {
  return (
    issueFor(error, field) ?? (isApiError(error) && error.status === 429 ? error.serverMessage : undefined)
  );
}

function CancelLink({ onCancel }: { onCancel: () => void }) {
  return (
    <>
      Falsches Konto?{' '}
      <button type="button" onClick={onCancel} className={textLinkClass}>
        Zurück zur Anmeldung
      </button>
    </>
  );
}

/** The six digits of the app, with the one-time-code hints for password managers and phones. */
function OneTimeCodeInput({ field, hint }: { field: AnyFieldApi; hint?: string }) {
  return (
    <TextField
      field={field}
      label="Code aus der App"
      required
      hint={hint}
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={7}
      spellCheck={false}
      className="font-mono text-lg tracking-[0.3em]"
    />
  );
}

function SetupScreen({ email, onSignedIn, onCancel, lapsed }: StepProps) {
  const [done, setDone] = useState<{ user: CurrentUser; codes: string[] } | null>(null);
  if (done) {
    return <RecoveryCodes email={email} codes={done.codes} onContinue={() => onSignedIn(done.user)} />;
  }
  return (
    <PageCard
      title="Zweiten Faktor einrichten"
      description="Als Teammitglied meldest du dich zusätzlich mit einem Code aus einer Authenticator-App an. Das richtest du einmal ein."
      width="md"
      footer={<CancelLink onCancel={onCancel} />}
    >
      <SetupSteps
        email={email}
        lapsed={lapsed}
        onActivated={(user, codes) => {
          setDone({ user, codes });
        }}
      />
    </PageCard>
  );
}

const stepNumberClass =
  'flex size-7 shrink-0 items-center justify-center rounded-full border border-gold-500/40 text-sm font-semibold text-gold-200';

function SetupSteps({
  email,
  lapsed,
  onActivated,
}: {
  email: string;
  lapsed: (error: unknown) => boolean;
  onActivated: (user: CurrentUser, codes: string[]) => void;
}) {
  const setup = useQuery(secondFactorSetupQueryOptions);
  const confirm = useConfirmSecondFactorSetup();
  const form = useForm({
    defaultValues: { code: '' },
    validators: { onChange: SecondFactorCodeSchema },
    onSubmit: async ({ value }) => {
      try {
        const answer = await confirm.mutateAsync(v.parse(SecondFactorCodeSchema, value));
        onActivated(answer.user, answer.recoveryCodes);
      } catch (error) {
        if (lapsed(error)) return;
        const message = fieldMessage(error, 'code');
        if (message) setServerError(form, 'code', message);
        else notify.error('Einrichtung fehlgeschlagen', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  // A sign-in that lapsed meanwhile goes back to the password.
  useEffect(() => {
    if (setup.isError) lapsed(setup.error);
  }, [setup.isError, setup.error, lapsed]);

  if (setup.isPending) {
    return (
      <Loading label="Schlüssel wird erstellt...">
        <div aria-hidden="true" className="mx-auto size-52 animate-pulse rounded-xl bg-night-800" />
      </Loading>
    );
  }
  if (setup.isError) {
    return <LoadError title="Der Schlüssel konnte nicht geladen werden" query={setup} compact />;
  }

  return (
    <ol className="flex flex-col gap-6">
      <li className="flex gap-3">
        <span aria-hidden="true" className={stepNumberClass}>
          1
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="font-medium text-parchment">Schlüssel in die App übernehmen</h2>
          <p className="mt-1 text-sm text-ash-300">
            Öffne deine Authenticator-App (etwa Google Authenticator, Microsoft Authenticator, 2FAS oder
            Aegis), füge ein Konto hinzu und scanne den QR-Code.
          </p>
          <KeyView setup={setup.data} email={email} />
        </div>
      </li>
      <li className="flex gap-3">
        <span aria-hidden="true" className={stepNumberClass}>
          2
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="font-medium text-parchment">Code eingeben</h2>
          <p className="mt-1 mb-4 text-sm text-ash-300">
            Die App zeigt jetzt alle {SECOND_FACTOR.periodSeconds} Sekunden einen neuen 6-stelligen Code. Gib
            den aktuellen ein.
          </p>
          <AccountForm label="Zweiten Faktor einrichten" onSubmit={() => form.handleSubmit()}>
            <form.Field name="code" listeners={serverErrorListeners}>
              {(field) => <OneTimeCodeInput field={field} />}
            </form.Field>
            <SubmitButton pending={pending} label="Einrichten und anmelden" pendingLabel="Wird geprüft..." />
          </AccountForm>
        </div>
      </li>
    </ol>
  );
}

/** The key as QR code and as text (grouped for typing), with a button that copies it. */
function KeyView({ setup, email }: { setup: SecondFactorSetup; email: string }) {
  const keyId = useId();
  const copy = () =>
    copyText(setup.key.replace(/\s/g, ''), 'Schlüssel kopiert', 'Füge ihn in deiner Authenticator-App ein.');
  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="flex flex-col items-center gap-4 sm:flex-row">
        <img
          src={setup.qrCode}
          alt={`QR-Code mit dem Schlüssel für ${email}`}
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-xl bg-white p-1.5"
        />
        <dl className="grid w-full grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-xs text-ash-400">
          <dt>Anbieter</dt>
          <dd className="text-ash-300">{setup.issuer}</dd>
          <dt>Konto</dt>
          <dd className="break-all text-ash-300">{setup.account}</dd>
          <dt>Art</dt>
          <dd className="text-ash-300">
            zeitbasiert (TOTP), {SECOND_FACTOR.digits} Ziffern, {SECOND_FACTOR.periodSeconds} Sekunden
          </dd>
        </dl>
      </div>
      <div className="text-sm">
        <p id={`${keyId}-label`} className="text-ash-300">
          Kein Scan möglich? Gib den Schlüssel von Hand ein:
        </p>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
          <p
            id={keyId}
            className="flex-1 rounded-lg border border-white/10 bg-night-950 px-3 py-2 font-mono text-base tracking-wider break-words text-gold-100 select-all"
          >
            {setup.key}
          </p>
          <Button
            variant="secondary"
            className="shrink-0 px-4 py-2 text-xs"
            aria-describedby={`${keyId}-label`}
            onClick={() => void copy()}
          >
            Schlüssel kopieren
          </Button>
        </div>
        {/* On the phone that runs the app, the key opens it directly (otpauth:// link). */}
        <a
          href={setup.otpauthUri}
          className={buttonClass('secondary', 'mt-2 flex w-full px-4 py-2 text-center text-xs sm:hidden')}
        >
          In der App öffnen
        </a>
      </div>
    </div>
  );
}

async function copyText(text: string, done: string, description: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(done, description);
  } catch {
    notify.error('Kopieren nicht möglich', undefined, 'Bitte markiere den Text und kopiere ihn von Hand.');
  }
}

/** The recovery codes, shown this once: download or copy, then confirm they are kept. */
function RecoveryCodes({
  email,
  codes,
  onContinue,
}: {
  email: string;
  codes: string[];
  onContinue: () => void;
}) {
  const [kept, setKept] = useState(false);
  const text = [
    'Schlosstreffen – Wiederherstellungscodes',
    `Konto: ${email}`,
    'Jeder Code gilt für eine Anmeldung ohne Authenticator-App.',
    '',
    ...codes,
    '',
  ].join('\n');
  const download = () =>
    saveFile(
      new Blob([text], { type: 'text/plain;charset=utf-8' }),
      'schlosstreffen-wiederherstellungscodes.txt',
    );
  return (
    <PageCard
      title="Wiederherstellungscodes"
      description="Der zweite Faktor ist eingerichtet. Hast du dein Gerät einmal nicht zur Hand, meldest du dich mit einem dieser Codes an. Jeder Code gilt genau einmal."
      width="md"
    >
      <p
        role="status"
        className="rounded-lg border border-gold-500/30 bg-gold-500/10 px-4 py-3 text-sm text-gold-100"
      >
        Die Codes werden nur jetzt angezeigt. Bewahre sie sicher auf, getrennt von deinem Gerät, etwa in
        deinem Passwort-Manager oder ausgedruckt.
      </p>
      <ol
        aria-label="Wiederherstellungscodes"
        className="mt-5 grid grid-cols-2 gap-2 rounded-xl border border-white/10 bg-night-950 p-4 font-mono text-base tracking-wider text-parchment"
      >
        {codes.map((code) => (
          <li key={code} className="text-center">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <Button variant="secondary" onClick={download}>
          Herunterladen
        </Button>
        <Button
          variant="secondary"
          onClick={() => void copyText(codes.join('\n'), 'Codes kopiert', 'Bewahre sie sicher auf.')}
        >
          Kopieren
        </Button>
      </div>
      <Checkbox
        className="mt-6"
        checked={kept}
        onCheckedChange={setKept}
        label="Ich habe die Wiederherstellungscodes sicher aufbewahrt"
      />
      <Button className="mt-4 w-full py-3" disabled={!kept} onClick={onContinue}>
        Weiter
      </Button>
    </PageCard>
  );
}

function CodeScreen({ email, onSignedIn, onCancel, lapsed }: StepProps) {
  const [recovery, setRecovery] = useState(false);
  return (
    <PageCard
      title="Anmeldung bestätigen"
      description={
        recovery
          ? 'Gib einen deiner Wiederherstellungscodes ein. Jeder Code gilt genau einmal.'
          : `Gib den Code ein, den deine Authenticator-App für ${email} zeigt.`
      }
      footer={<CancelLink onCancel={onCancel} />}
    >
      {recovery ? (
        <RecoveryCodeForm onSignedIn={onSignedIn} lapsed={lapsed} onBack={() => setRecovery(false)} />
      ) : (
        <AppCodeForm onSignedIn={onSignedIn} lapsed={lapsed} onRecovery={() => setRecovery(true)} />
      )}
    </PageCard>
  );
}

function AppCodeForm({
  onSignedIn,
  lapsed,
  onRecovery,
}: {
  onSignedIn: StepProps['onSignedIn'];
  lapsed: StepProps['lapsed'];
  onRecovery: () => void;
}) {
  const verify = useVerifySecondFactor();
  const form = useForm({
    defaultValues: { code: '' },
    validators: { onChange: SecondFactorCodeSchema },
    onSubmit: async ({ value }) => {
      try {
        const answer = await verify.mutateAsync(v.parse(SecondFactorCodeSchema, value));
        onSignedIn(answer.user);
      } catch (error) {
        if (lapsed(error)) return;
        const message = fieldMessage(error, 'code');
        if (message) setServerError(form, 'code', message);
        else notify.error('Bestätigung fehlgeschlagen', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  return (
    <AccountForm label="Anmeldung bestätigen" onSubmit={() => form.handleSubmit()}>
      <form.Field name="code" listeners={serverErrorListeners}>
        {(field) => (
          <OneTimeCodeInput
            field={field}
            hint={`6 Ziffern, alle ${SECOND_FACTOR.periodSeconds} Sekunden neu.`}
          />
        )}
      </form.Field>
      <SubmitButton pending={pending} label="Bestätigen" pendingLabel="Wird geprüft..." />
      <button type="button" onClick={onRecovery} className={`self-center text-sm ${textLinkClass}`}>
        Wiederherstellungscode verwenden
      </button>
    </AccountForm>
  );
}

function RecoveryCodeForm({
  onSignedIn,
  lapsed,
  onBack,
}: {
  onSignedIn: StepProps['onSignedIn'];
  lapsed: StepProps['lapsed'];
  onBack: () => void;
}) {
  const verify = useVerifySecondFactor();
  const form = useForm({
    defaultValues: { recoveryCode: '' },
    validators: { onChange: RecoveryCodeFormSchema },
    onSubmit: async ({ value }) => {
      try {
        const answer = await verify.mutateAsync(v.parse(RecoveryCodeFormSchema, value));
        onSignedIn(
          answer.user,
          answer.recoveryCodesLeft === 1
            ? 'Wiederherstellungscode verwendet: noch 1 Code übrig.'
            : `Wiederherstellungscode verwendet: noch ${answer.recoveryCodesLeft} Codes übrig.`,
        );
      } catch (error) {
        if (lapsed(error)) return;
        const message = fieldMessage(error, 'recoveryCode');
        if (message) setServerError(form, 'recoveryCode', message);
        else notify.error('Bestätigung fehlgeschlagen', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  return (
    <AccountForm label="Mit Wiederherstellungscode anmelden" onSubmit={() => form.handleSubmit()}>
      <form.Field name="recoveryCode" listeners={serverErrorListeners}>
        {(field) => (
          <TextField
            field={field}
            label="Wiederherstellungscode"
            required
            hint="Zum Beispiel ABCDE-FGHJK."
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="font-mono tracking-wider"
          />
        )}
      </form.Field>
      <SubmitButton
        pending={pending}
        label="Mit Wiederherstellungscode anmelden"
        pendingLabel="Wird geprüft..."
      />
      <button type="button" onClick={onBack} className={`self-center text-sm ${textLinkClass}`}>
        Code aus der App verwenden
      </button>
    </AccountForm>
  );
}
