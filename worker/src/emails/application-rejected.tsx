import { Button, Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export const subject = 'Deine Bewerbung beim Schlosstreffen';

export default function ApplicationRejectedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
}: EmailTemplateProps<'application-rejected'>) {
  return (
    <EmailLayout preview="Neuigkeiten zu deiner Bewerbung für das Schlosstreffen." title="Deine Bewerbung">
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`vielen Dank für dein Interesse am Schlosstreffen und für deine Bewerbung mit deinem Fahrzeug „${vehicleTitle}“. Leider können wir dir diesmal keinen Platz anbieten.`}
      </Text>
      <Text style={styles.text}>
        Uns haben viele tolle Bewerbungen erreicht, und die Auswahl ist uns nicht leichtgefallen. Als Besucher
        bist du am 20. Juni 2026 von 10:00 bis 20:00 Uhr natürlich herzlich willkommen!
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

ApplicationRejectedEmail.PreviewProps = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  dashboardUrl: 'http://localhost:3000/dashboard',
} satisfies EmailTemplateProps<'application-rejected'>;
