import { AccountDeleteSchema, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { useForm, useStore } from '@tanstack/react-form';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/form-field';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { issueFor } from '../../lib/api';
import { serverErrorListeners, setServerError } from './form-parts';
import { useDeleteAccount } from './privacy-mutations';
import { ProfileSection } from './profile-section';

const PASSWORD_ID = 'delete-account-password';

/**
 * 'Konto löschen': what goes and what stays, the password, and a last question. Afterwards the
 * session is gone: the cache forgets the user and the start page opens.
 */
export function DeleteAccountCard() {
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    defaultValues: { password: '' },
    validators: { onChange: AccountDeleteSchema },
    // A valid form only asks; the dialog's button deletes.
    onSubmit: () => setConfirming(true),
  });
  const password = useStore(form.store, (state) => state.values.password);

  // After a wrong password the dialog closes onto the password field.
  const focusPassword = useRef(false);

  const deleteAccount = async () => {
    focusPassword.current = false;
    try {
      await remove.mutateAsync(v.parse(AccountDeleteSchema, { password }));
    } catch (error) {
      const message = issueFor(error, 'password');
      if (message) {
        focusPassword.current = true;
        setServerError(form, 'password', message);
      } else {
        notify.error('Löschen fehlgeschlagen', error, RETRY_HINT);
      }
      setConfirming(false);
      return;
    }
    // The page may be gone by now (no signed-in user): toast and navigation need no component.
    notify.success('Konto gelöscht', PRIVACY_MESSAGES.accountDeleted);
    await navigate({ to: '/' });
  };

  return (
    <ProfileSection title="Konto löschen" id="profile-delete">
      <div className="flex flex-col gap-3 text-sm leading-relaxed text-ash-300">
        <p>Damit löschst du endgültig:</p>
        <ul className="flex list-disc flex-col gap-1 pl-5 marker:text-red-400">
          <li>dein Konto mit Name, E-Mail-Adresse und Passwort,</li>
          <li>deine Fahrzeuge und Bewerbungen mit allen Fotos,</li>
          <li>deine Einladungen mit Startnummer und Check-in-Code,</li>
          <li>deine Einwilligungen,</li>
          <li>eine Besucher-Voranmeldung mit derselben E-Mail-Adresse,</li>
          <li>deine Datenexporte.</li>
        </ul>
        <p>
          Der Statusverlauf deiner Bewerbungen bleibt für das Team erhalten, aber ohne deinen Namen. Bereits
          gedruckte Karten des Auto-Quartetts können wir nicht zurückholen.
        </p>
        <p>Möchtest du deine Daten behalten, lade sie vorher unter „Meine Daten“ herunter.</p>
      </div>
      <form
        ref={formRef}
        noValidate
        aria-label="Konto löschen"
        className="mt-5 flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          event.stopPropagation();
          void form.handleSubmit().then(() => {
            formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
          });
        }}
      >
        <form.Field name="password" listeners={serverErrorListeners}>
          {(field) => (
            <TextField
              field={field}
              id={PASSWORD_ID}
              label="Passwort zur Bestätigung"
              type="password"
              required
              autoComplete="current-password"
            />
          )}
        </form.Field>
        <Button type="submit" variant="danger" className="self-start" disabled={remove.isPending}>
          Konto endgültig löschen
        </Button>
      </form>

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setConfirming(false);
        }}
        title="Konto endgültig löschen?"
        finalFocusEl={() => (focusPassword.current ? document.getElementById(PASSWORD_ID) : null)}
        confirmLabel="Ja, endgültig löschen"
        pendingLabel="Wird gelöscht..."
        pending={remove.isPending}
        destructive
        onConfirm={() => void deleteAccount()}
      >
        Dein Konto und alle zugehörigen Daten werden sofort gelöscht, und du wirst abgemeldet. Das lässt sich
        nicht rückgängig machen.
      </ConfirmDialog>
    </ProfileSection>
  );
}
