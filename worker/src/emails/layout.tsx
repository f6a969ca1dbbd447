import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { ReactNode } from 'react';
import { useMailSite } from './site.js';

const colors = { night: '#0b0b0f', card: '#16161d', gold: '#d4a24c', text: '#e9e6df', muted: '#9a968c' };

export const styles = {
  text: { color: colors.text, fontSize: '16px', lineHeight: '24px', margin: '0 0 16px' },
  muted: { color: colors.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px' },
  button: {
    backgroundColor: colors.gold,
    borderRadius: '6px',
    color: colors.night,
    display: 'inline-block',
    fontSize: '16px',
    fontWeight: 700,
    padding: '12px 24px',
    textDecoration: 'none',
  },
  link: { color: colors.gold, wordBreak: 'break-all' as const },
};

/** The event's branded frame shared by every mail. */
export function EmailLayout({
  preview,
  title,
  children,
}: {
  preview: string;
  title: string;
  children: ReactNode;
}) {
  const site = useMailSite();
  return (
    <Html lang="de">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: colors.night, fontFamily: 'Helvetica, Arial, sans-serif', margin: 0 }}>
        <Container style={{ maxWidth: '560px', margin: '0 auto', padding: '32px 16px' }}>
          <Text style={{ color: colors.gold, fontSize: '14px', letterSpacing: '4px', margin: '0 0 24px' }}>
            SCHLOSSTREFFEN
          </Text>
          <Section style={{ backgroundColor: colors.card, borderRadius: '12px', padding: '32px' }}>
            <Heading as="h1" style={{ color: colors.text, fontSize: '24px', margin: '0 0 24px' }}>
              {title}
            </Heading>
            {children}
          </Section>
          <Hr style={{ borderColor: '#2a2a33', margin: '32px 0 16px' }} />
          <Text style={styles.muted}>
            Schlosstreffen · Tuning-Treffen am Schloss in Sachsen. Diese E-Mail wurde automatisch versendet.
          </Text>
          <Text style={styles.muted}>
            <Link href={`${site.publicUrl}/datenschutz`} style={styles.link}>
              Datenschutz
            </Link>
            {' · '}
            <Link href={`${site.publicUrl}/impressum`} style={styles.link}>
              Impressum
            </Link>
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** The main call to action, with the link spelled out for mail clients that do not show buttons. */
export function ActionButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <>
      <Button href={href} style={styles.button}>
        {children}
      </Button>
      <Text style={{ ...styles.muted, marginTop: '24px' }}>
        Falls der Button nicht funktioniert, öffne diesen Link:{' '}
        <Link href={href} style={styles.link}>
          {href}
        </Link>
      </Text>
    </>
  );
}
