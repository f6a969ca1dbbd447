import { Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { ActionButton, EmailLayout, styles } from './layout.js';

export const confirmSubject = 'Bestätige deine neue E-Mail-Adresse – Schlosstreffen';
export const noticeSubject = 'Deine E-Mail-Adresse soll geändert werden – Schlosstreffen';

/** To the new address: the link that makes the change take effect. */
export function EmailChangeConfirmEmail({
  newEmail,
  confirmUrl,
}: EmailTemplateProps<'email-change-confirm'>) {
  return (
    <EmailLayout
      preview="Bestätige deine neue E-Mail-Adresse für das Schlosstreffen."
      title="Neue E-Mail-Adresse bestätigen"
    >
      <Text style={styles.text}>Hallo,</Text>
      <Text style={styles.text}>
        {`jemand möchte ein Konto beim Schlosstreffen künftig mit ${newEmail} nutzen. Warst du das, bestätige die neue Adresse mit dem Button; erst dann gilt sie. Der Link ist 24 Stunden gültig.`}
      </Text>
      <ActionButton href={confirmUrl}>Neue E-Mail-Adresse bestätigen</ActionButton>
      <Text style={styles.muted}>
        Du hast das nicht veranlasst? Dann ignoriere diese E-Mail; es ändert sich nichts.
      </Text>
    </EmailLayout>
  );
}

EmailChangeConfirmEmail.PreviewProps = {
  newEmail: 'max.neu@example.de',
  confirmUrl: 'http://localhost:3000/email-bestaetigen?token=preview',
} satisfies EmailTemplateProps<'email-change-confirm'>;

/** To the old address: tells the owner, so a stolen session cannot quietly take the account. */
export function EmailChangeNoticeEmail({
  firstName,
  newEmail,
  cancelUrl,
}: EmailTemplateProps<'email-change-notice'>) {
  return (
    <EmailLayout
      preview="Für dein Konto wurde eine neue E-Mail-Adresse angegeben."
      title="E-Mail-Adresse wird geändert"
    >
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`für dein Konto beim Schlosstreffen wurde die neue E-Mail-Adresse ${newEmail} angegeben. Sie gilt erst, wenn der Bestätigungslink an die neue Adresse geöffnet wird.`}
      </Text>
      <Text style={styles.text}>
        Warst du das nicht? Dann brich die Änderung hier ab und ändere dein Passwort. Auch ein neues Passwort
        bricht die Änderung ab.
      </Text>
      <ActionButton href={cancelUrl}>Änderung abbrechen</ActionButton>
    </EmailLayout>
  );
}

EmailChangeNoticeEmail.PreviewProps = {
  firstName: 'Max',
  newEmail: 'max.neu@example.de',
  cancelUrl: 'http://localhost:3000/email-aenderung-abbrechen?token=preview',
} satisfies EmailTemplateProps<'email-change-notice'>;
