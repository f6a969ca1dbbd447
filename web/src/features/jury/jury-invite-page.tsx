import { JURY_MESSAGES } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LinkActionCard } from '../../components/link-action-card';
import { buttonClass } from '../../components/ui/button';
import { api } from '../../lib/api';
import { currentUserQueryOptions } from '../../lib/current-user';

/**
 * '/jury/einladung?token=…', where the invitation mail leads (signed in: the route sends a signed-out
 * visitor to the login and back): the button accepts the invitation for the account signed in.
 */
export function JuryInvitePage({ token }: { token: string | undefined }) {
  const queryClient = useQueryClient();
  return (
    <LinkActionCard
      title="Einladung in die Jury"
      token={token}
      intro={
        <p>
          Sie wurden in die Jury des Schlosstreffens eingeladen. Mit dem Knopf nehmen Sie die Einladung für
          das Konto an, mit dem Sie gerade angemeldet sind.
        </p>
      }
      actionLabel="Einladung annehmen"
      pendingLabel="Wird angenommen..."
      invalidText={JURY_MESSAGES.inviteInvalid}
      action={async (value) => {
        const answer = await api.post<ServerMessage>('/api/jury/accept', { token: value });
        // From now on the account is a judge: the navigation shows 'Jury'.
        await queryClient.invalidateQueries({ queryKey: currentUserQueryOptions.queryKey });
        return answer;
      }}
      next={
        <Link to="/jury" className={buttonClass('primary', 'min-h-12')}>
          Zur Jury
        </Link>
      }
    />
  );
}
