import { Heading, Img, Section, Text } from '@react-email/components';
import {
  epcQrPayload,
  formatEuro,
  formatIban,
  normalizeBic,
  venueDateTime,
  type PaymentMailProps,
} from '@schlosstreffen/shared';
import QRCode from 'qrcode';
import type { ReactNode } from 'react';
import type { MailAttachment } from '../adapters/mailer.js';
import { styles } from './layout.js';

/** Content id of the GiroCode image, apart from the check-in QR code's. */
export const GIROCODE_CID = 'girocode@schlosstreffen';

/** The transfer a mail asks for: the fee's account and reference, and the amount still to pay. */
export interface PaymentTransfer {
  payment: PaymentMailProps;
  /** What to transfer now: the whole fee, or what is still open of it. */
  transferCents: number;
}

/** The GiroCode's text (EPC069-12): the banking app fills in account, amount and reference. */
export function girocodePayload({ payment, transferCents }: PaymentTransfer): string {
  return epcQrPayload({
    name: payment.accountHolder,
    iban: payment.iban,
    bic: payment.bic,
    amountCents: transferCents,
    remittance: payment.reference,
  });
}

/** The GiroCode as a PNG, attached inline; error correction level M as EPC069-12 requires. */
export async function girocodeAttachment(transfer: PaymentTransfer): Promise<MailAttachment> {
  const png = await QRCode.toBuffer(girocodePayload(transfer), {
    errorCorrectionLevel: 'M',
    margin: 4,
    width: 360,
  });
  return { filename: 'girocode.png', content: png, contentType: 'image/png', cid: GIROCODE_CID };
}

const mono = { fontFamily: 'Menlo, Consolas, monospace' };
const line = { ...styles.text, margin: '0 0 4px' };

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text style={line}>
      <strong>{label}:</strong> {children}
    </Text>
  );
}

/**
 * The transfer details under a mail's text (not part of the editable text): amount, account,
 * reference, deadline and the GiroCode, which is no check-in code.
 */
export function PaymentDetails({ payment, transferCents }: PaymentTransfer) {
  const open = transferCents !== payment.amountCents;
  return (
    <Section style={{ margin: '24px 0 0' }}>
      <Heading as="h2" style={{ ...styles.text, fontSize: '20px', fontWeight: 700 }}>
        Startgeld
      </Heading>
      <Line label="Betrag">
        {formatEuro(transferCents)}
        {open ? ` (offen von ${formatEuro(payment.amountCents)})` : null}
      </Line>
      <Line label="Kontoinhaber">{payment.accountHolder}</Line>
      <Line label="IBAN">
        <span style={{ ...mono, whiteSpace: 'nowrap' }}>{formatIban(payment.iban)}</span>
      </Line>
      {payment.bic?.trim() ? <Line label="BIC">{normalizeBic(payment.bic)}</Line> : null}
      <Line label="Verwendungszweck">
        <span style={mono}>{payment.reference}</span>
      </Line>
      {payment.dueAt ? <Line label="Zahlen bis">{venueDateTime(new Date(payment.dueAt))}</Line> : null}
      <Section style={{ margin: '16px 0 0', textAlign: 'center' }}>
        <Img
          src={`cid:${GIROCODE_CID}`}
          alt={`GiroCode für die Überweisung von ${formatEuro(transferCents)} Startgeld`}
          width="180"
          height="180"
          style={{ backgroundColor: '#ffffff', borderRadius: '8px', margin: '0 auto' }}
        />
        <Text style={{ ...styles.muted, marginTop: '8px' }}>GiroCode: mit der Banking-App scannen</Text>
      </Section>
      <Text style={styles.text}>
        Der GiroCode füllt die Überweisung in deiner Banking-App mit Betrag, Konto und Verwendungszweck aus.
        Er ist nicht dein Check-in-Code und gilt nicht am Einlass.
      </Text>
    </Section>
  );
}
