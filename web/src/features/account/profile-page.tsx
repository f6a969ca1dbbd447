import { useForm, useStore } from '@tanstack/react-form';
import { ChangePasswordFormSchema, PRIVACY_MESSAGES, ProfileSchema } from '@schlosstreffen/shared';
import { useMemo } from 'react';
import * as v from 'valibot';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import { issueFor } from '../../lib/api';
import { useChangePassword, useUpdateProfile } from '../auth/auth-mutations';
import { EmailConfirmNotice } from './email-confirm-notice';
import { useCurrentUser } from '../../lib/current-user';
import { ProfilePending } from '../../components/route-pending';
import { ConsentsCard } from './consents-card';
import { DataExportCard } from './data-export-card';
import { DeleteAccountCard } from './delete-account-card';
import {
  AccountForm,
  EmailField,
  NameFields,
  NewPasswordFields,
  serverErrorListeners,
  setServerError,
  SubmitButton,
} from './form-parts';
import { ProfileSection as Card } from './profile-section';

export function ProfilePage() {
  const { data: user } = useCurrentUser();
  if (!user) return <ProfilePending />;

  return (
    <PageCard
      title="Mein Profil"
      description="Verwalte deine persönlichen Daten, dein Passwort und deine Einwilligungen."
      closeTo="/dashboard"
      width="xl"
    >
      <EmailConfirmNotice className="mb-6" />
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfileCard user={user} />
        <PasswordCard />
        <ConsentsCard className="lg:col-span-2" />
        <DataExportCard />
        <DeleteAccountCard />
      </div>
    </PageCard>
  );
}

/** The address as the server stores it (trimmed, lower case), or null while the input is no valid address. */
function normalizedEmail(value: string): string | null {
  const result = v.safeParse(ProfileSchema.entries.email, value);
  return result.success ? result.output : null;
}

type ProfileFormValues = v.InferInput<typeof ProfileSchema>;

/** The profile form: a changed email also needs the current password. */
function profileFormSchema(currentEmail: string) {
  return v.pipe(
    ProfileSchema,
    v.forward(
      v.partialCheck(
        [['email'], ['currentPassword']],
        (input) => input.email === currentEmail.toLowerCase() || Boolean(input.currentPassword),
        PRIVACY_MESSAGES.passwordRequiredForEmail,
      ),
      ['currentPassword'],
    ),
  );
}

function ProfileCard({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();
  const schema = useMemo(() => profileFormSchema(user.email), [user.email]);
  const defaultValues: ProfileFormValues = {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email,
    currentPassword: '',
  };
  const form = useForm({
    defaultValues,
    validators: { onChange: schema },
    onSubmit: async ({ value, formApi }) => {
      const { currentPassword, ...profile } = v.parse(schema, value);
      const emailChange = profile.email !== user.email.toLowerCase();
      try {
        const updated = await update.mutateAsync(emailChange ? { ...profile, currentPassword } : profile);
        const pending = emailChange && updated.pendingEmail ? updated.pendingEmail : null;
        notify.success(
          'Profil aktualisiert',
          pending ? PRIVACY_MESSAGES.emailChangePending(pending) : 'Deine Änderungen wurden gespeichert.',
        );
        formApi.reset({
          firstName: updated.firstName ?? '',
          lastName: updated.lastName ?? '',
          email: updated.email,
          currentPassword: '',
        });
      } catch (error) {
        // A wrong password or a taken address: the server's word on its field.
        for (const name of ['currentPassword', 'email'] as const) {
          const message = issueFor(error, name);
          if (message) setServerError(formApi, name, message);
        }
        notify.error('Aktualisierung fehlgeschlagen', error, 'Bitte versuchen Sie es erneut.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  const enteredEmail = useStore(form.store, (state) => state.values.email);
  const entered = normalizedEmail(enteredEmail);
  const changingEmail = entered !== null && entered !== user.email.toLowerCase();

  return (
    <Card title="Persönliche Informationen" id="profile-personal">
      {user.pendingEmail ? (
        <div
          className="mb-5 rounded-xl border border-gold-500/40 bg-gold-500/10 px-4 py-3 text-sm"
          data-testid="pending-email"
        >
          <p className="font-semibold text-parchment">Neue E-Mail-Adresse noch nicht bestätigt</p>
          <p className="mt-0.5 text-ash-300">
            {PRIVACY_MESSAGES.emailChangePending(user.pendingEmail)} Bis dahin gilt weiter {user.email}.
          </p>
        </div>
      ) : null}
      <AccountForm label="Persönliche Informationen" onSubmit={() => form.handleSubmit()}>
        <NameFields form={form} />
        <EmailField form={form} />
        {changingEmail ? (
          <form.Field name="currentPassword" listeners={serverErrorListeners}>
            {(field) => (
              <TextField
                field={field}
                id="profile-current-password"
                label="Aktuelles Passwort"
                type="password"
                required
                autoComplete="current-password"
                hint="Zum Ändern der E-Mail-Adresse. Die neue Adresse gilt, sobald du den Link in unserer E-Mail an sie öffnest."
              />
            )}
          </form.Field>
        ) : null}
        <SubmitButton pending={pending} label="Änderungen speichern" pendingLabel="Speichern..." />
      </AccountForm>
    </Card>
  );
}

const EMPTY_PASSWORDS = { currentPassword: '', newPassword: '', confirmPassword: '' };

function PasswordCard() {
  const change = useChangePassword();
  const form = useForm({
    defaultValues: EMPTY_PASSWORDS,
    validators: { onChange: ChangePasswordFormSchema },
    onSubmit: async ({ value, formApi }) => {
      const { currentPassword, newPassword } = v.parse(ChangePasswordFormSchema, value);
      try {
        await change.mutateAsync({ currentPassword, newPassword });
        notify.success('Passwort geändert', 'Dein neues Passwort gilt ab sofort.');
        formApi.reset(EMPTY_PASSWORDS);
      } catch (error) {
        notify.error('Passwortänderung fehlgeschlagen', error, 'Bitte versuchen Sie es erneut.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <Card title="Passwort ändern" id="profile-password">
      <AccountForm label="Passwort ändern" onSubmit={() => form.handleSubmit()}>
        <form.Field name="currentPassword">
          {(field) => (
            <TextField
              field={field}
              label="Aktuelles Passwort"
              type="password"
              required
              autoComplete="current-password"
            />
          )}
        </form.Field>
        <NewPasswordFields form={form} name="newPassword" label="Neues Passwort" />
        <SubmitButton pending={pending} label="Passwort ändern" pendingLabel="Ändern..." />
      </AccountForm>
    </Card>
  );
}
