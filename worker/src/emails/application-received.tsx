import { Text } from '@react-email/components';
import { APPLICATION_MAIL_SUBJECTS, type EmailTemplateProps, type EventFacts } from '@schlosstreffen/shared';
import { APPLICATION_PREVIEW_PROPS, ApplicationMail } from './application-mail.js';
import { styles } from './layout.js';

export const subject = APPLICATION_MAIL_SUBJECTS['application-received'];

export default function ApplicationReceivedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
  event,
}: EmailTemplateProps<'application-received'> & { event: EventFacts }) {
  return (
    <ApplicationMail
      preview="Deine Bewerbung für das Schlosstreffen ist bei uns eingegangen."
      title="Bewerbung eingegangen"
      firstName={firstName}
      dashboardUrl={dashboardUrl}
    >
      <Text style={styles.text}>
        {`vielen Dank für deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“ für das Schlosstreffen am ${event.date} (${event.time})! Deine Bewerbung ist bei uns eingegangen und wird jetzt von unserem Team geprüft.`}
      </Text>
      <Text style={styles.text}>
        Sobald wir entschieden haben, bekommst du eine E-Mail von uns. Den aktuellen Stand deiner Bewerbung
        siehst du jederzeit in deinem Dashboard.
      </Text>
    </ApplicationMail>
  );
}

ApplicationReceivedEmail.PreviewProps = APPLICATION_PREVIEW_PROPS;
