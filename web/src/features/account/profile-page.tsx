import { useForm, useStore } from '@tanstack/react-form';
import { ChangePasswordFormSchema, ProfileSchema } from '@schlosstreffen/shared';
import type { ReactNode } from 'react';
import * as v from 'valibot';
import { TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import type { CurrentUser } from '../../lib/types';
import { useDocumentMeta } from '../../lib/use-document-meta';
import { useChangePassword, useUpdateProfile } from '../auth/auth-mutations';
import { useCurrentUser } from '../auth/auth-queries';
import { ProfilePending } from '../../components/route-pending';
import { AccountForm, EmailField, NameFields, NewPasswordFields, SubmitButton } from './form-parts';

export function ProfilePage() {
  useDocumentMeta(
    'Mein Profil – Schlosstreffen',
    'Persönliche Daten und Passwort deines Schlosstreffen-Kontos.',
  );
  const { data: user } = useCurrentUser();
  if (!user) return <ProfilePending />;

  return (
    <PageCard
      title="Mein Profil"
      description="Verwalte deine persönlichen Daten und dein Passwort."
      closeTo="/dashboard"
      width="xl"
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfileCard user={user} />
        <PasswordCard />
      </div>
    </PageCard>
  );
}

/** One of the page's two cards: a section named by its heading. */
function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-white/10 bg-night-950/60 p-4 sm:p-6">
      <h2 id={id} className="font-display text-xl text-parchment">
        {title}
      </h2>
      <div className="mt-5">{children}</div>
    </section>
  );
}

function ProfileCard({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();
  const form = useForm({
    defaultValues: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
    },
    validators: { onChange: ProfileSchema },
    onSubmit: async ({ value, formApi }) => {
      try {
        const updated = await update.mutateAsync(v.parse(ProfileSchema, value));
        notify.success('Profil aktualisiert', 'Deine Änderungen wurden gespeichert.');
        formApi.reset({
          firstName: updated.firstName ?? '',
          lastName: updated.lastName ?? '',
          email: updated.email,
        });
      } catch (error) {
        notify.error('Aktualisierung fehlgeschlagen', error, 'Bitte versuchen Sie es erneut.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <Card title="Persönliche Informationen" id="profile-personal">
      <AccountForm label="Persönliche Informationen" onSubmit={() => form.handleSubmit()}>
        <NameFields form={form} />
        <EmailField form={form} />
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
