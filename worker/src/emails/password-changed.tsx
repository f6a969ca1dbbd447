import { Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export const subject = 'Dein Passwort wurde geändert – Schlosstreffen';

/** Tells the owner that the password changed: every other session was ended. */
export default function PasswordChangedEmail({ firstName }: EmailTemplateProps<'password-changed'>) {
  return (
    <EmailLayout preview="Das Passwort deines Kontos wurde geändert." title="Passwort geändert">
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        das Passwort deines Kontos beim Schlosstreffen wurde soeben geändert. Alle anderen Anmeldungen wurden
        beendet.
      </Text>
      <Text style={styles.text}>
        Warst du das nicht? Dann setze dein Passwort über „Passwort vergessen?“ auf der Anmeldeseite sofort
        neu.
      </Text>
    </EmailLayout>
  );
}

PasswordChangedEmail.PreviewProps = { firstName: 'Max' } satisfies EmailTemplateProps<'password-changed'>;
