import { Text } from '@react-email/components';
import { APPLICATION_MAIL_SUBJECTS, type EmailTemplateProps, type EventFacts } from '@schlosstreffen/shared';
import { APPLICATION_PREVIEW_PROPS, ApplicationMail } from './application-mail.js';
import { styles } from './layout.js';

export const subject = APPLICATION_MAIL_SUBJECTS['application-confirmed'];

export default function ApplicationConfirmedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
  event,
}: EmailTemplateProps<'application-confirmed'> & { event: EventFacts }) {
  return (
    <ApplicationMail
      preview="Du bist beim Schlosstreffen dabei!"
      title="Teilnahme bestätigt"
      firstName={firstName}
      dashboardUrl={dashboardUrl}
    >
      <Text style={styles.text}>
        {`herzlichen Glückwunsch – du bist dabei! Dein Fahrzeug „${vehicleTitle}“ ist Teil des Schlosstreffens am ${event.date} (${event.time}).`}
      </Text>
      <Text style={styles.text}>
        Deine Angaben und Fotos kannst du im Dashboard noch ändern, bis wir sie für das Quartett-Kartenspiel
        final freigeben. Praktische Infos zu Anfahrt, Einlass und Ablauf schicken wir dir rechtzeitig vor dem
        Event.
      </Text>
    </ApplicationMail>
  );
}

ApplicationConfirmedEmail.PreviewProps = APPLICATION_PREVIEW_PROPS;
