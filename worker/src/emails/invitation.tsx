import { Img, Section, Text } from '@react-email/components';
import type { EmailTemplateProps } from '@schlosstreffen/shared';
import QRCode from 'qrcode';
import type { MailAttachment } from '../adapters/mailer.js';
import { styles } from './layout.js';

export type InvitationProps = EmailTemplateProps<'invitation'>;

/** Content id of the QR code image attached to the mail. */
export const QR_CID = 'checkin-qr@schlosstreffen';

/** The check-in code as a PNG QR code, attached inline (mail clients block data: images). */
export async function attachments({ checkInCode }: InvitationProps): Promise<MailAttachment[]> {
  const png = await QRCode.toBuffer(checkInCode, { errorCorrectionLevel: 'M', margin: 2, width: 360 });
  return [{ filename: 'check-in-qr-code.png', content: png, contentType: 'image/png', cid: QR_CID }];
}

/** What the gate needs, under the invitation's text (not part of the editable text): QR code and code. */
export function CheckInCode({ checkInCode }: { checkInCode: string }) {
  return (
    <Section style={{ margin: '8px 0 0', textAlign: 'center' }}>
      <Img
        src={`cid:${QR_CID}`}
        alt="QR-Code für den Check-in"
        width="180"
        height="180"
        style={{ backgroundColor: '#ffffff', borderRadius: '8px', margin: '0 auto' }}
      />
      <Text style={{ ...styles.muted, marginTop: '8px' }}>Dein Check-in-Code</Text>
      <Text style={styles.text}>
        Zeig den QR-Code am Einlass auf dem Handy oder ausgedruckt vor. Lässt er sich nicht scannen, genügt
        deine Startnummer oder dieser Code:
      </Text>
      <Text style={{ ...styles.text, fontFamily: 'Menlo, Consolas, monospace', wordBreak: 'break-all' }}>
        {checkInCode}
      </Text>
    </Section>
  );
}
