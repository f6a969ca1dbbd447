import { MESSAGES, VISITOR_NEXT_EDITION_CONSENT } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { LinkActionCard } from '../../components/link-action-card';
import { api } from '../../lib/api';

/** Where the links of the visitor mails lead: each acts only when its button is pressed. */

/** /besucher/bestaetigen?token=…: confirms a visitor pre-registration (double opt-in). */
export function VisitorConfirmPage({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="Vormerkung bestätigen"
      token={token}
      intro={
        <p>
          Bestätige, dass du als Besucher vorgemerkt werden möchtest. Danach schicken wir dir Neuigkeiten zum
          Schlosstreffen an diese E-Mail-Adresse; abmelden kannst du dich jederzeit über den Link in unseren
          E-Mails. Wurde bei der Vormerkung angekreuzt, dass wir dich auch über das nächste Schlosstreffen
          informieren, gilt das mit deiner Bestätigung ebenfalls.
        </p>
      }
      actionLabel="Vormerkung bestätigen"
      pendingLabel="Wird bestätigt..."
      action={(value) => api.post<ServerMessage>('/api/visitor-registrations/confirm', { token: value })}
      invalidText={MESSAGES.visitorLinkInvalid}
    />
  );
}

/**
 * /besucher/naechstes-treffen?token=…: the link mailed when a repeated sign-up asked to hear about
 * the next edition; its button gives that consent, in the wording shown here.
 */
export function VisitorNextEditionPage({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="Über das nächste Treffen informieren"
      token={token}
      intro={
        <>
          <p>
            Für diese E-Mail-Adresse wurde gewünscht, auch über das nächste Schlosstreffen informiert zu
            werden.
          </p>
          <p className="mt-3 text-parchment">„{VISITOR_NEXT_EDITION_CONSENT.text}“</p>
          <p className="mt-3">Warst du das nicht, schließe diese Seite einfach; es ändert sich nichts.</p>
        </>
      }
      actionLabel="Einwilligen"
      pendingLabel="Wird gespeichert..."
      action={(value) => api.post<ServerMessage>('/api/visitor-registrations/next-edition', { token: value })}
      invalidText={MESSAGES.visitorLinkInvalid}
    />
  );
}

/** /besucher/abmelden?token=…: ends the event updates and deletes the pre-registration. */
export function VisitorUnsubscribePage({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="Von Event-Updates abmelden"
      token={token}
      intro={
        <p>
          Wenn du dich abmeldest, erhältst du keine E-Mails mehr zum Schlosstreffen, und wir löschen deine
          Besucher-Voranmeldung mit Name, E-Mail-Adresse und Telefonnummer.
        </p>
      }
      actionLabel="Abmelden"
      pendingLabel="Wird abgemeldet..."
      destructive
      action={(value) => api.post<ServerMessage>('/api/visitor-registrations/unsubscribe', { token: value })}
      invalidText={MESSAGES.visitorLinkInvalid}
    />
  );
}
