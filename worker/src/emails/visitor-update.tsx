import { Link, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import { EmailLayout, styles } from './layout.js';

export type VisitorUpdateProps = EmailTemplateProps<'visitor-update'>;

export const subject = ({ subject: text }: VisitorUpdateProps) => `${text} – Schlosstreffen`;

/** Paragraphs at blank lines; single line breaks stay inside a paragraph. */
const paragraphs = (body: string) =>
  body
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);

/** An event update to a confirmed visitor: the admin's text, then how to stop these mails. */
export default function VisitorUpdateEmail({
  firstName,
  subject: title,
  body,
  unsubscribeUrl,
  test,
}: VisitorUpdateProps) {
  const [first] = paragraphs(body);
  return (
    <EmailLayout preview={first?.slice(0, 120) ?? title} title={title}>
      {test ? (
        <Text style={{ ...styles.muted, fontWeight: 700 }}>
          Testversand: So sieht das Update für die Besucher aus. Der Abmeldelink wirkt hier nicht.
        </Text>
      ) : null}
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      {paragraphs(body).map((paragraph, index) => (
        <Text key={index} style={{ ...styles.text, whiteSpace: 'pre-line' }}>
          {paragraph}
        </Text>
      ))}
      <Text style={styles.muted}>
        Du bekommst diese E-Mail, weil du dich beim Schlosstreffen als Besucher vorgemerkt und das bestätigt
        hast. Keine Updates mehr?{' '}
        <Link href={unsubscribeUrl} style={styles.link}>
          Hier abmelden
        </Link>
      </Text>
    </EmailLayout>
  );
}

VisitorUpdateEmail.PreviewProps = {
  firstName: 'Max',
  subject: 'Der Zeitplan steht',
  body: 'Am Samstag öffnen wir die Tore um 10 Uhr.\n\nParkplätze für Besucher gibt es am Nordtor.',
  unsubscribeUrl: 'http://localhost:3000/besucher/abmelden?token=preview-token',
  oneClickUrl: 'http://localhost:3000/api/visitor-registrations/unsubscribe?token=preview-token',
  test: false,
} satisfies VisitorUpdateProps;
