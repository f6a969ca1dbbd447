import { INVITATION_MESSAGES } from '@schlosstreffen/shared';
import type { InvitationDeclineResult } from '@schlosstreffen/shared/api';
import { LinkActionCard } from '../../components/link-action-card';
import { api } from '../../lib/api';

/**
 * /einladung/absagen?token=…: the 'Teilnahme absagen' link of the invitation and reminder mails.
 * No sign-in (the token is the proof); the page states what follows and declines only when its
 * button is pressed, so a link scanner that opens every URL in a mail gives up no place.
 */
export function DeclineInvitation({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="Teilnahme absagen"
      token={token}
      intro={
        <>
          <p>
            Du kannst mit deinem Fahrzeug nicht zum Schlosstreffen kommen? Dann sag hier ab: Dein Platz geht
            an das nächste Fahrzeug auf der Warteliste.
          </p>
          <p className="mt-3 font-medium text-parchment">
            Wirklich absagen? Dein Platz und deine Startnummer verfallen, die Absage lässt sich nicht
            rückgängig machen.
          </p>
        </>
      }
      actionLabel="Ja, Teilnahme absagen"
      pendingLabel="Wird abgesagt..."
      destructive
      action={(value) => api.post<InvitationDeclineResult>('/api/invitations/decline', { token: value })}
      invalidText={INVITATION_MESSAGES.declineLinkInvalid}
    />
  );
}
