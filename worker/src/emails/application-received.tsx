import { Button, Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export const subject = 'Deine Bewerbung ist eingegangen – Schlosstreffen';

export default function ApplicationReceivedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
}: EmailTemplateProps<'application-received'>) {
  return (
    <EmailLayout
      preview="Deine Bewerbung für das Schlosstreffen ist bei uns eingegangen."
      title="Bewerbung eingegangen"
    >
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`vielen Dank für deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“ für das Schlosstreffen am 20. Juni 2026 (10:00–20:00 Uhr)! Deine Bewerbung ist bei uns eingegangen und wird jetzt von unserem Team geprüft.`}
      </Text>
      <Text style={styles.text}>
        Sobald wir entschieden haben, bekommst du eine E-Mail von uns. Den aktuellen Stand deiner Bewerbung
        siehst du jederzeit in deinem Dashboard.
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

ApplicationReceivedEmail.PreviewProps = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  dashboardUrl: 'http://localhost:3000/dashboard',
} satisfies EmailTemplateProps<'application-received'>;
