import { Text } from '@react-email/components';
import { APPLICATION_MAIL_SUBJECTS, type EmailTemplateProps, type EventFacts } from '@schlosstreffen/shared';
import { APPLICATION_PREVIEW_PROPS, ApplicationMail } from './application-mail.js';
import { styles } from './layout.js';

export const subject = APPLICATION_MAIL_SUBJECTS['application-waitlist'];

export default function ApplicationWaitlistEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
  event,
}: EmailTemplateProps<'application-waitlist'> & { event: EventFacts }) {
  return (
    <ApplicationMail
      preview="Deine Bewerbung für das Schlosstreffen steht auf der Warteliste."
      title="Auf der Warteliste"
      firstName={firstName}
      dashboardUrl={dashboardUrl}
    >
      <Text style={styles.text}>
        {`danke für deine Geduld! Wir haben deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“ geprüft und dich auf die Warteliste für das Schlosstreffen am ${event.date} gesetzt.`}
      </Text>
      <Text style={styles.text}>
        Die Plätze auf dem Schlossgelände sind leider begrenzt. Sobald ein Platz frei wird, melden wir uns bei
        dir. Den aktuellen Stand deiner Bewerbung siehst du jederzeit in deinem Dashboard.
      </Text>
    </ApplicationMail>
  );
}

ApplicationWaitlistEmail.PreviewProps = APPLICATION_PREVIEW_PROPS;
