import { Button, Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export const subject = 'Deine Teilnahme ist bestätigt – Schlosstreffen';

export default function ApplicationConfirmedEmail({
  firstName,
  vehicleTitle,
  dashboardUrl,
}: EmailTemplateProps<'application-confirmed'>) {
  return (
    <EmailLayout preview="Du bist beim Schlosstreffen dabei!" title="Teilnahme bestätigt">
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`herzlichen Glückwunsch – du bist dabei! Dein Fahrzeug „${vehicleTitle}“ ist Teil des Schlosstreffens am 20. Juni 2026 von 10:00 bis 20:00 Uhr.`}
      </Text>
      <Text style={styles.text}>
        Deine Angaben und Fotos kannst du im Dashboard noch ändern, bis wir sie für das Quartett-Kartenspiel
        final freigeben. Praktische Infos zu Anfahrt, Einlass und Ablauf schicken wir dir rechtzeitig vor dem
        Event.
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

ApplicationConfirmedEmail.PreviewProps = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  dashboardUrl: 'http://localhost:3000/dashboard',
} satisfies EmailTemplateProps<'application-confirmed'>;
