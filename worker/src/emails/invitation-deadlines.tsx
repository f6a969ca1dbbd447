import { Link, Text } from '@react-email/components';
import { venueDateTime, type EmailTemplateProps, type EventFacts } from '@schlosstreffen/shared';
import { APPLICATION_PREVIEW_PROPS, ApplicationMail } from './application-mail.js';
import { ActionButton, EmailLayout, styles } from './layout.js';

/** Mails of an invitation's deadline and its end: reminder, lapse, decline. */

export const reminderSubject = 'Erinnerung: Bitte bestätige deine Teilnahme am Schlosstreffen';

export function InvitationReminderEmail(
  props: EmailTemplateProps<'invitation-reminder'> & { event: EventFacts },
) {
  const deadline = venueDateTime(new Date(props.confirmBy));
  return (
    <EmailLayout preview={`Bitte bestätige bis ${deadline}.`} title="Bitte bestätige deine Teilnahme">
      <Text style={styles.text}>{`Hallo ${props.firstName},`}</Text>
      <Text style={styles.text}>
        {`du bist mit deinem Fahrzeug „${props.vehicleTitle}“ (Startnummer ${props.startNumber}) zum ${props.event.name} eingeladen, hast deine Teilnahme aber noch nicht bestätigt. Bitte bestätige bis ${deadline}; danach verfällt die Einladung und dein Platz geht an das nächste Fahrzeug auf der Warteliste.`}
      </Text>
      <ActionButton href={props.confirmUrl}>Teilnahme bestätigen</ActionButton>
      <Text style={styles.muted}>
        Du kannst doch nicht kommen? Dann gib deinen Platz bitte frei:{' '}
        <Link href={props.declineUrl} style={styles.link}>
          Teilnahme absagen
        </Link>
      </Text>
    </EmailLayout>
  );
}

InvitationReminderEmail.PreviewProps = {
  ...APPLICATION_PREVIEW_PROPS,
  startNumber: 17,
  confirmBy: '2026-05-31T22:00:00.000Z',
  confirmUrl: 'http://localhost:3000/einladung?token=preview',
  declineUrl: 'http://localhost:3000/einladung/absagen?token=preview',
} satisfies EmailTemplateProps<'invitation-reminder'> & { event: EventFacts };

export const lapsedSubject = 'Deine Einladung zum Schlosstreffen ist abgelaufen';

export function InvitationLapsedEmail(
  props: EmailTemplateProps<'invitation-lapsed'> & { event: EventFacts },
) {
  const deadline = venueDateTime(new Date(props.confirmBy));
  return (
    <ApplicationMail
      preview="Deine Einladung ist abgelaufen."
      title="Einladung abgelaufen"
      firstName={props.firstName}
      dashboardUrl={props.dashboardUrl}
    >
      <Text style={styles.text}>
        {`deine Einladung mit dem Fahrzeug „${props.vehicleTitle}“ war bis ${deadline} zu bestätigen. Da keine Bestätigung kam, ist sie abgelaufen, und der Platz ist an das nächste Fahrzeug auf der Warteliste gegangen.`}
      </Text>
      <Text style={styles.text}>
        {`Als Besucher bist du am ${props.event.date} (${props.event.time}) herzlich willkommen.`}
      </Text>
    </ApplicationMail>
  );
}

InvitationLapsedEmail.PreviewProps = {
  ...APPLICATION_PREVIEW_PROPS,
  confirmBy: '2026-05-31T22:00:00.000Z',
} satisfies EmailTemplateProps<'invitation-lapsed'> & { event: EventFacts };

export const declinedSubject = 'Deine Absage zum Schlosstreffen';

export function InvitationDeclinedEmail(
  props: EmailTemplateProps<'invitation-declined'> & { event: EventFacts },
) {
  return (
    <ApplicationMail
      preview="Deine Absage ist angekommen."
      title="Teilnahme abgesagt"
      firstName={props.firstName}
      dashboardUrl={props.dashboardUrl}
    >
      <Text style={styles.text}>
        {`schade, dass du mit deinem Fahrzeug „${props.vehicleTitle}“ nicht dabei sein kannst. Deine Absage ist angekommen, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.`}
      </Text>
      <Text style={styles.text}>
        {`Als Besucher bist du am ${props.event.date} (${props.event.time}) trotzdem herzlich willkommen.`}
      </Text>
    </ApplicationMail>
  );
}

InvitationDeclinedEmail.PreviewProps = APPLICATION_PREVIEW_PROPS;
