import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { Link } from '@tanstack/react-router';
import { LinkActionCard } from '../../components/link-action-card';
import { buttonClass } from '../../components/ui/button';
import { useConfirmEmail } from '../auth/auth-mutations';

/**
 * /email-bestaetigen?token=…: the link that confirms an address, a new account's or the new one of an
 * email change; it applies on the button.
 */
export function EmailConfirmPage({ token }: { token: string | undefined }) {
  const confirm = useConfirmEmail();
  return (
    <LinkActionCard
      title="E-Mail-Adresse bestätigen"
      token={token}
      intro={
        <p>
          Bestätige hier die E-Mail-Adresse deines Schlosstreffen-Kontos. Danach kannst du Bewerbungen
          einreichen; bei einer geänderten Adresse meldest du dich künftig mit der neuen an, und wir schreiben
          dir nur noch an sie.
        </p>
      }
      actionLabel="E-Mail-Adresse bestätigen"
      pendingLabel="Wird bestätigt..."
      action={(value) => confirm.mutateAsync(value)}
      invalidText={PRIVACY_MESSAGES.emailLinkInvalid}
      next={
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Zu meinen Fahrzeugen
        </Link>
      }
    />
  );
}
