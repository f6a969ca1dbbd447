import { Column, Img, Link, Row, Section, Text } from '@react-email/components';
import {
  invitationMailSubject,
  venueDateTime,
  type EmailTemplateProps,
  type EventFacts,
} from '@schlosstreffen/shared';
import { PREVIEW_EVENT } from './preview-event.js';
import QRCode from 'qrcode';
import { APPLICATION_PREVIEW_PROPS } from './application-mail.js';
import { ActionButton, EmailLayout, styles } from './layout.js';
import type { MailAttachment } from '../adapters/mailer.js';

export type InvitationProps = EmailTemplateProps<'invitation'>;

/** Content id of the QR code image attached to the mail. */
export const QR_CID = 'checkin-qr@schlosstreffen';

export const subject = ({ startNumber }: InvitationProps) => invitationMailSubject(startNumber);

/** The check-in code as a PNG QR code, attached inline (mail clients block data: images). */
export async function attachments({ checkInCode }: InvitationProps): Promise<MailAttachment[]> {
  const png = await QRCode.toBuffer(checkInCode, { errorCorrectionLevel: 'M', margin: 2, width: 360 });
  return [{ filename: 'check-in-qr-code.png', content: png, contentType: 'image/png', cid: QR_CID }];
}

const fact = { ...styles.text, margin: '0 0 4px' };
const label = { ...styles.muted, margin: '0', textTransform: 'uppercase' as const, letterSpacing: '1px' };

function Fact({ name, value }: { name: string; value: string }) {
  return (
    <Section style={{ margin: '0 0 12px' }}>
      <Text style={label}>{name}</Text>
      <Text style={{ ...fact, fontWeight: 700 }}>{value}</Text>
    </Section>
  );
}

export default function InvitationEmail(props: InvitationProps & { event: EventFacts }) {
  const { firstName, vehicleTitle, startNumber, parkingZone, checkInCode, confirmBy, movedUp } = props;
  const { name: eventName, date: eventDate, time: eventTime, place } = props.event;
  const deadline = confirmBy ? venueDateTime(new Date(confirmBy)) : null;
  return (
    <EmailLayout
      preview={`Du bist eingeladen! Startnummer ${startNumber}, Parkzone ${parkingZone}`}
      title="Du bist eingeladen!"
    >
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      {movedUp ? (
        <Text style={styles.text}>
          {`gute Nachrichten: Ein Platz ist frei geworden, und dein Fahrzeug „${vehicleTitle}“ ist von der Warteliste nachgerückt. Wir freuen uns, dich zum ${eventName} einzuladen.`}
        </Text>
      ) : (
        <Text style={styles.text}>
          {`wir freuen uns, dich mit deinem Fahrzeug „${vehicleTitle}“ zum ${eventName} einzuladen.`}
        </Text>
      )}
      <Text style={styles.text}>
        {deadline
          ? `Bitte bestätige deine Teilnahme bis ${deadline}. Ohne Bestätigung verfällt die Einladung danach, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.`
          : 'Bitte bestätige deine Teilnahme, damit wir deinen Platz fest einplanen können.'}
      </Text>
      <ActionButton href={props.confirmUrl}>Teilnahme bestätigen</ActionButton>
      <Row style={{ margin: '24px 0 8px' }}>
        <Column style={{ verticalAlign: 'top', width: '50%' }}>
          <Fact name="Startnummer" value={String(startNumber)} />
          <Fact name="Parkzone" value={parkingZone} />
          {deadline ? <Fact name="Bestätigen bis" value={deadline} /> : null}
          <Fact name="Datum" value={eventDate} />
          <Fact name="Uhrzeit" value={eventTime} />
          <Fact name="Ort" value={place} />
        </Column>
        <Column style={{ verticalAlign: 'top', width: '50%', textAlign: 'center' }}>
          <Img
            src={`cid:${QR_CID}`}
            alt="QR-Code für den Check-in"
            width="180"
            height="180"
            style={{ backgroundColor: '#ffffff', borderRadius: '8px', margin: '0 auto' }}
          />
          <Text style={{ ...styles.muted, marginTop: '8px' }}>Dein Check-in-Code</Text>
        </Column>
      </Row>
      <Text style={styles.text}>
        Zeig den QR-Code am Einlass auf dem Handy oder ausgedruckt vor. Lässt er sich nicht scannen, genügt
        deine Startnummer oder dieser Code:
      </Text>
      <Text style={{ ...styles.text, fontFamily: 'Menlo, Consolas, monospace', wordBreak: 'break-all' }}>
        {checkInCode}
      </Text>
      <Text style={styles.muted}>
        Den Stand deiner Bewerbung siehst du jederzeit im Dashboard: {props.dashboardUrl}
      </Text>
      {props.declineUrl ? (
        <Text style={styles.muted}>
          Du kannst doch nicht kommen? Dann gib deinen Platz bitte frei, damit jemand von der Warteliste
          nachrücken kann:{' '}
          <Link href={props.declineUrl} style={styles.link}>
            Teilnahme absagen
          </Link>
        </Text>
      ) : null}
    </EmailLayout>
  );
}

InvitationEmail.PreviewProps = {
  ...APPLICATION_PREVIEW_PROPS,
  startNumber: 17,
  parkingZone: 'A',
  checkInCode: 'q3Jx9w0bYlTQe6sKcM1uRzA4pVnH8dLf',
  confirmUrl: 'http://localhost:3000/einladung?token=preview',
  declineUrl: 'http://localhost:3000/einladung/absagen?token=preview',
  confirmBy: '2026-05-31T22:00:00.000Z',
  movedUp: false,
  event: PREVIEW_EVENT,
} satisfies InvitationProps & { event: EventFacts };
