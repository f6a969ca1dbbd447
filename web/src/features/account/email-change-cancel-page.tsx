import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { Link } from '@tanstack/react-router';
import { LinkActionCard } from '../../components/link-action-card';
import { buttonClass } from '../../components/ui/button';
import { api } from '../../lib/api';

/**
 * /email-aenderung-abbrechen?token=…: the link in the notice to the old address; the pending change
 * is dropped on the button (no sign-in: whoever changed it may have locked the owner out).
 */
export function EmailChangeCancelPage({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="E-Mail-Änderung abbrechen"
      token={token}
      intro={
        <p>
          Für dein Konto wurde eine neue E-Mail-Adresse angegeben. Warst du das nicht, brich die Änderung hier
          ab; dein Konto behält seine bisherige Adresse. Ändere danach dein Passwort.
        </p>
      }
      actionLabel="Änderung abbrechen"
      pendingLabel="Wird abgebrochen..."
      action={(value) => api.post<ServerMessage>('/api/auth/cancel-email-change', { token: value })}
      invalidText={PRIVACY_MESSAGES.emailLinkInvalid}
      next={
        <Link to="/forgot-password" className={buttonClass('secondary')}>
          Passwort zurücksetzen
        </Link>
      }
      destructive
    />
  );
}
