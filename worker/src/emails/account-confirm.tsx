import { Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { ActionButton, EmailLayout, styles } from './layout.js';

export const subject = 'Bestätige deine E-Mail-Adresse – Schlosstreffen';

/** To a new account's address. It names nobody: whoever registered may not own the address. */
export default function AccountConfirmEmail({ confirmUrl }: EmailTemplateProps<'account-confirm'>) {
  return (
    <EmailLayout
      preview="Bestätige deine E-Mail-Adresse für dein Schlosstreffen-Konto."
      title="E-Mail-Adresse bestätigen"
    >
      <Text style={styles.text}>Hallo,</Text>
      <Text style={styles.text}>
        mit dieser E-Mail-Adresse wurde ein Konto beim Schlosstreffen angelegt. Bestätige die Adresse mit dem
        Button; erst dann kannst du eine Bewerbung einreichen, und erst dann schreiben wir dir zu deinem
        Konto. Der Link ist 48 Stunden gültig.
      </Text>
      <ActionButton href={confirmUrl}>E-Mail-Adresse bestätigen</ActionButton>
      <Text style={styles.muted}>
        Du hast kein Konto angelegt? Dann ignoriere diese E-Mail: Ohne Bestätigung verknüpfen wir nichts mit
        deiner Adresse.
      </Text>
    </EmailLayout>
  );
}

AccountConfirmEmail.PreviewProps = {
  confirmUrl: 'http://localhost:3000/email-bestaetigen?token=preview',
} satisfies EmailTemplateProps<'account-confirm'>;
