import { Link, Text } from '@react-email/components';
import type { EmailTemplateProps, EventFacts } from '@schlosstreffen/shared';
import { ActionButton, EmailLayout, styles } from './layout.js';

type Props = EmailTemplateProps<'visitor-next-edition'> & { event: EventFacts };

export const subject = 'Das nächste Schlosstreffen steht fest';

/** To a visitor of an earlier edition who asked to hear about the next one: its date and where to sign up. */
export default function VisitorNextEditionEmail({ firstName, signUpUrl, unsubscribeUrl, event }: Props) {
  return (
    <EmailLayout
      preview={`${event.name} ${event.year}: ${event.date}, ${event.place}.`}
      title="Das nächste Schlosstreffen"
    >
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      <Text style={styles.text}>
        {`du wolltest wissen, wann das nächste Schlosstreffen stattfindet: ${event.name} ${event.year} ist am ${event.date}, ${event.time}, Ort: ${event.place}. Wenn du wieder dabei sein möchtest, merke dich für dieses Treffen neu vor.`}
      </Text>
      <ActionButton href={signUpUrl}>Als Besucher vormerken</ActionButton>
      <Text style={styles.muted}>
        Dies ist die einzige E-Mail, die wir dir dazu schicken; deine bisherige Vormerkung löschen wir danach
        mit den Daten des vergangenen Treffens.
      </Text>
      <Text style={styles.muted}>
        Du möchtest nichts mehr von uns hören?{' '}
        <Link href={unsubscribeUrl} style={styles.link}>
          Hier abmelden
        </Link>
      </Text>
    </EmailLayout>
  );
}

VisitorNextEditionEmail.PreviewProps = {
  firstName: 'Max',
  signUpUrl: 'http://localhost:3000/visitor-registration',
  unsubscribeUrl: 'http://localhost:3000/besucher/abmelden?token=preview-token',
  oneClickUrl: 'http://localhost:3000/api/visitor-registrations/unsubscribe?token=preview-token',
} satisfies EmailTemplateProps<'visitor-next-edition'>;
