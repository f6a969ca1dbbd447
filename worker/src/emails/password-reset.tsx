import { Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { ActionButton, EmailLayout, styles } from './layout.js';

export const subject = 'Passwort zurücksetzen – Schlosstreffen';

export default function PasswordResetEmail({ firstName, resetUrl }: EmailTemplateProps<'password-reset'>) {
  return (
    <EmailLayout preview="Setze dein Passwort für das Schlosstreffen zurück." title="Passwort zurücksetzen">
      <Text style={styles.text}>{firstName ? `Hallo ${firstName},` : 'Hallo,'}</Text>
      <Text style={styles.text}>
        du hast einen Link zum Zurücksetzen deines Passworts angefordert. Klicke auf den Button, um ein neues
        Passwort zu setzen. Der Link ist 1 Stunde gültig und kann nur einmal verwendet werden.
      </Text>
      <ActionButton href={resetUrl}>Neues Passwort setzen</ActionButton>
      <Text style={styles.muted}>
        Du hast das nicht angefordert? Dann kannst du diese E-Mail ignorieren, dein Passwort bleibt
        unverändert.
      </Text>
    </EmailLayout>
  );
}

PasswordResetEmail.PreviewProps = {
  firstName: 'Max',
  resetUrl: 'http://localhost:3000/reset-password?token=preview-token',
} satisfies EmailTemplateProps<'password-reset'>;
