import { Button, Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export const subject = 'Du stehst auf der Warteliste – Schlosstreffen';

export default function ApplicationWaitlistEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
}: EmailTemplateProps<'application-waitlist'>) {
  return (
    <EmailLayout
      preview="Deine Bewerbung für das Schlosstreffen steht auf der Warteliste."
      title="Auf der Warteliste"
    >
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`danke für deine Geduld! Wir haben deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“ geprüft und dich auf die Warteliste für das Schlosstreffen am 20. Juni 2026 gesetzt.`}
      </Text>
      <Text style={styles.text}>
        Die Plätze auf dem Schlossgelände sind leider begrenzt. Sobald ein Platz frei wird, melden wir uns bei
        dir. Den aktuellen Stand deiner Bewerbung siehst du jederzeit in deinem Dashboard.
      </Text>
      <Button href={dashboardUrl} style={styles.button}>
        Zum Dashboard
      </Button>
      <Text style={{ ...styles.muted, marginTop: '24px' }}>
        Falls der Button nicht funktioniert, öffne diesen Link:{' '}
        <Link href={dashboardUrl} style={styles.link}>
          {dashboardUrl}
        </Link>
      </Text>
    </EmailLayout>
  );
}

ApplicationWaitlistEmail.PreviewProps = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  dashboardUrl: 'http://localhost:3000/dashboard',
} satisfies EmailTemplateProps<'application-waitlist'>;
