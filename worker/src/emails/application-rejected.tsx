import { Text } from '@react-email/components';
import { APPLICATION_MAIL_SUBJECTS, type EmailTemplateProps, type EventFacts } from '@schlosstreffen/shared';
import { APPLICATION_PREVIEW_PROPS, ApplicationMail } from './application-mail.js';
import { styles } from './layout.js';

export const subject = APPLICATION_MAIL_SUBJECTS['application-rejected'];

export default function ApplicationRejectedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
  event,
}: EmailTemplateProps<'application-rejected'> & { event: EventFacts }) {
  return (
    <ApplicationMail
      preview="Neuigkeiten zu deiner Bewerbung für das Schlosstreffen."
      title="Deine Bewerbung"
      firstName={firstName}
      dashboardUrl={dashboardUrl}
    >
      <Text style={styles.text}>
        {`vielen Dank für dein Interesse am Schlosstreffen und für deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“. Leider können wir dir diesmal keinen Platz anbieten.`}
      </Text>
      <Text style={styles.text}>
        {`Uns haben viele tolle Bewerbungen erreicht, und die Auswahl ist uns nicht leichtgefallen. Als Besucher bist du am ${event.date} (${event.time}) natürlich herzlich willkommen!`}
      </Text>
    </ApplicationMail>
  );
}

ApplicationRejectedEmail.PreviewProps = APPLICATION_PREVIEW_PROPS;
