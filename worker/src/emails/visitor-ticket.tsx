import { Img, Section, Text } from '@react-email/components';
import type { EmailTemplateProps, EventFacts } from '@schlosstreffen/shared';
import QRCode from 'qrcode';
import type { MailAttachment } from '../adapters/mailer.js';
import { renderVisitorTicketPdf } from '../pdf/visitor-ticket.js';
import { styles } from './layout.js';

export type VisitorTicketProps = EmailTemplateProps<'visitor-ticket'>;

/** Content id of the ticket's QR code image, apart from the invitation's check-in code. */
export const VISITOR_TICKET_CID = 'visitor-ticket@schlosstreffen';
export const VISITOR_TICKET_PDF = 'Besucherticket.pdf';

/**
 * The ticket's QR code as a PNG, attached inline (mail clients block data: images), and the ticket
 * as PDF to print or keep. Both hold exactly the ticket's secret.
 */
export async function visitorTicketAttachments(
  props: VisitorTicketProps,
  event: EventFacts,
): Promise<MailAttachment[]> {
  const [png, pdf] = await Promise.all([
    QRCode.toBuffer(props.ticketSecret, { errorCorrectionLevel: 'M', margin: 4, width: 360 }),
    renderVisitorTicketPdf(event, props),
  ]);
  return [
    {
      filename: 'besucherticket-qr-code.png',
      content: png,
      contentType: 'image/png',
      cid: VISITOR_TICKET_CID,
    },
    { filename: VISITOR_TICKET_PDF, content: pdf, contentType: 'application/pdf' },
  ];
}

/** What the gate needs, under the ticket mail's text (not part of the editable text): the QR code. */
export function VisitorTicketCode() {
  return (
    <Section style={{ margin: '8px 0 0', textAlign: 'center' }}>
      <Img
        src={`cid:${VISITOR_TICKET_CID}`}
        alt="QR-Code des Besuchertickets"
        width="180"
        height="180"
        style={{ backgroundColor: '#ffffff', borderRadius: '8px', margin: '0 auto' }}
      />
      <Text style={{ ...styles.muted, marginTop: '8px' }}>Dein Besucherticket</Text>
      <Text style={styles.text}>
        Zeig den QR-Code am Eingang auf dem Handy oder ausgedruckt vor. Er gilt für einen Einlass.
      </Text>
    </Section>
  );
}
