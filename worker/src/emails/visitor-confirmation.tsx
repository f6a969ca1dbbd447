import { Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { ActionButton, EmailLayout, styles } from './layout.js';

export const subject = 'Bitte bestätige deine Vormerkung – Schlosstreffen';

export default function VisitorConfirmationEmail({
  firstName,
  confirmUrl,
  unsubscribeUrl,
}: EmailTemplateProps<'visitor-confirmation'>) {
  return (
    <EmailLayout preview="Bestätige deine Vormerkung für das Schlosstreffen." title="Vormerkung bestätigen">
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        schön, dass du beim Schlosstreffen dabei sein möchtest! Bitte bestätige mit einem Klick, dass wir dir
        Neuigkeiten zum Event an diese Adresse schicken dürfen.
      </Text>
      <ActionButton href={confirmUrl}>Vormerkung bestätigen</ActionButton>
      <Text style={styles.muted}>
        Ohne deine Bestätigung schicken wir dir keine weiteren E-Mails. Du hast dich nicht vorgemerkt? Dann
        kannst du diese E-Mail einfach ignorieren.
      </Text>
      <Text style={styles.muted}>
        Du möchtest keine E-Mails mehr von uns?{' '}
        <Link href={unsubscribeUrl} style={styles.link}>
          Hier abmelden
        </Link>
      </Text>
    </EmailLayout>
  );
}

VisitorConfirmationEmail.PreviewProps = {
  firstName: 'Max',
  confirmUrl: 'http://localhost:3000/besucher/bestaetigen?token=preview-token',
  unsubscribeUrl: 'http://localhost:3000/besucher/abmelden?token=preview-token',
  oneClickUrl: 'http://localhost:3000/api/visitor-registrations/unsubscribe?token=preview-token',
} satisfies EmailTemplateProps<'visitor-confirmation'>;
