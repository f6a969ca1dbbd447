import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { Link } from '@tanstack/react-router';
import { LinkActionCard } from '../../components/link-action-card';
import { buttonClass } from '../../components/ui/button';
import { useDocumentMeta } from '../../lib/use-document-meta';
import { useConfirmEmail } from '../auth/auth-mutations';

/** /email-bestaetigen?token=…: the link sent to a new email address; the change applies on the button. */
export function EmailConfirmPage({ token }: { token: string | undefined }) {
  useDocumentMeta(
    'Neue E-Mail-Adresse bestätigen – Schlosstreffen',
    'Bestätige die neue E-Mail-Adresse deines Schlosstreffen-Kontos.',
  );
  const confirm = useConfirmEmail();
  return (
    <LinkActionCard
      title="E-Mail-Adresse bestätigen"
      token={token}
      intro={
        <p>
          Du hast in deinem Profil eine neue E-Mail-Adresse angegeben. Bestätige sie hier; danach meldest du
          dich mit ihr an, und wir schreiben dir nur noch an diese Adresse.
        </p>
      }
      actionLabel="Neue E-Mail-Adresse bestätigen"
      pendingLabel="Wird bestätigt..."
      action={(value) => confirm.mutateAsync(value)}
      invalidText={PRIVACY_MESSAGES.emailLinkInvalid}
      next={
        <Link to="/profile" className={buttonClass('secondary')}>
          Zum Profil
        </Link>
      }
    />
  );
}
