import type { PaymentMailProps } from '@schlosstreffen/shared';
import jsqrModule from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { MailAttachment } from '../adapters/mailer.js';
import { PREVIEW_EVENT } from './preview-event.js';
import { renderEmail } from './render.js';

// jsqr is CommonJS: its function is the default export, or the module itself.
const jsQR = ((jsqrModule as { default?: unknown }).default ?? jsqrModule) as typeof jsqrModule.default;

const application = {
  firstName: 'Clara',
  vehicleTitle: 'VW Golf II GTI',
  dashboardUrl: 'https://schlosstreffen.test/dashboard',
};
const invitation = {
  ...application,
  confirmUrl: 'https://schlosstreffen.test/einladung?token=c',
  declineUrl: 'https://schlosstreffen.test/einladung/absagen?token=d',
  startNumber: 12,
  parkingZone: 'B',
  checkInCode: 'c'.repeat(32),
  confirmBy: '2027-05-31T22:00:00.000Z',
};
// 5 June 2027, 21:59 UTC: 23:59 at the venue (summer time).
const payment: PaymentMailProps = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e.V.',
  iban: 'de89370400440532013000',
  bic: 'cobadeffxxx',
  reference: 'ST26-K7Q2P-K',
  dueAt: '2027-06-05T21:59:00.000Z',
};

/** Intl puts a non-breaking space before the euro sign. */
const flat = (text: string) => text.replace(/\u00a0/g, ' ');

/** The text a QR code PNG carries. */
async function decode(png: Buffer): Promise<string | null> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  return code ? new TextDecoder().decode(Uint8Array.from(code.binaryData)) : null;
}

const byCid = (attachments: MailAttachment[] | undefined, cid: string) =>
  attachments?.find((attachment) => attachment.cid === cid);

/** The fee's lines as the plain text shows them. */
const FACTS = [
  'Betrag: 25,00 €',
  'Kontoinhaber: Schlosstreffen e.V.',
  'IBAN: DE89 3704 0044 0532 0130 00',
  'BIC: COBADEFFXXX',
  'Verwendungszweck: ST26-K7Q2P-K',
  'Zahlen bis: 05.06.2027, 23:59 Uhr',
  'GiroCode: mit der Banking-App scannen',
  'Er ist nicht dein Check-in-Code',
];

describe('the invitation with a fee', () => {
  it('shows the transfer under the check-in code and carries both QR codes under their own cids', async () => {
    const mail = await renderEmail('invitation', { ...invitation, payment }, PREVIEW_EVENT);
    const text = flat(mail.text);
    for (const fact of FACTS) expect(text).toContain(fact);
    expect(text).toContain('STARTGELD');
    // The fee follows the gate's part.
    expect(text.indexOf('STARTGELD')).toBeGreaterThan(text.indexOf('c'.repeat(32)));
    const html = flat(mail.html);
    expect(html).toContain('src="cid:checkin-qr@schlosstreffen"');
    expect(html).toContain('src="cid:girocode@schlosstreffen"');
    expect(html.indexOf('cid:girocode@schlosstreffen')).toBeGreaterThan(
      html.indexOf('cid:checkin-qr@schlosstreffen'),
    );
    expect(html).toContain('alt="GiroCode für die Überweisung von 25,00 € Startgeld"');
    expect(html).toMatch(/<span style="[^"]*monospace[^"]*">ST26-K7Q2P-K<\/span>/);

    expect(mail.attachments?.map((attachment) => attachment.cid)).toEqual([
      'checkin-qr@schlosstreffen',
      'girocode@schlosstreffen',
    ]);
    const giro = byCid(mail.attachments, 'girocode@schlosstreffen')!;
    expect(giro.contentType).toBe('image/png');
    // EPC069-12: BCD, version 002, UTF-8, SCT, BIC, name, IBAN, amount, two empty elements, reference.
    expect(await decode(giro.content)).toBe(
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchlosstreffen e.V.\nDE89370400440532013000\nEUR25.00\n\n\nST26-K7Q2P-K',
    );
    expect(await decode(byCid(mail.attachments, 'checkin-qr@schlosstreffen')!.content)).toBe('c'.repeat(32));
  });

  it('keeps the invitation’s text as it is without a fee', async () => {
    const withFee = await renderEmail('invitation', { ...invitation, payment }, PREVIEW_EVENT);
    const without = await renderEmail('invitation', invitation, PREVIEW_EVENT);
    expect(withFee.subject).toBe(without.subject);
    const upToTheCode = (text: string) => text.slice(0, text.indexOf('c'.repeat(32)));
    expect(upToTheCode(withFee.text)).toBe(upToTheCode(without.text));
  });

  it('leaves BIC and deadline out when there are none, and the GiroCode’s BIC line empty', async () => {
    const mail = await renderEmail(
      'invitation',
      { ...invitation, payment: { ...payment, bic: null, dueAt: null } },
      PREVIEW_EVENT,
    );
    expect(mail.text).not.toContain('BIC');
    expect(mail.text).not.toContain('Zahlen bis');
    expect(flat(mail.text)).toContain('Verwendungszweck: ST26-K7Q2P-K');
    expect(await decode(byCid(mail.attachments, 'girocode@schlosstreffen')!.content)).toBe(
      'BCD\n002\n1\nSCT\n\nSchlosstreffen e.V.\nDE89370400440532013000\nEUR25.00\n\n\nST26-K7Q2P-K',
    );
  });
});

describe('the invitation without a fee', () => {
  it.each([
    ['no payment', invitation],
    ['payment null', { ...invitation, payment: null }],
  ])('%s: only the check-in QR code, no word of a fee', async (_, props) => {
    const mail = await renderEmail('invitation', props, PREVIEW_EVENT);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments?.[0]?.cid).toBe('checkin-qr@schlosstreffen');
    for (const part of [mail.html, mail.text]) {
      expect(part).not.toMatch(/Startgeld|GiroCode|Verwendungszweck|IBAN/i);
      expect(part).not.toContain('girocode@schlosstreffen');
    }
  });
});

describe('payment mails', () => {
  it('the reminder asks for what is open by the deadline, with the transfer and its GiroCode', async () => {
    const mail = await renderEmail(
      'payment-reminder',
      { ...application, payment, openCents: 2500 },
      PREVIEW_EVENT,
    );
    expect(mail.subject).toBe('Erinnerung: Dein Startgeld für das Schlosstreffen');
    const text = flat(mail.text);
    expect(text).toContain('Hallo Clara,');
    expect(text).toContain('„VW Golf II GTI“');
    expect(text).toContain('Bitte überweise 25,00 € bis 05.06.2027, 23:59 Uhr');
    expect(text).toContain('Verwendungszweck bitte genau ST26-K7Q2P-K an');
    for (const fact of FACTS) expect(text).toContain(fact);
    expect(mail.attachments?.map((attachment) => attachment.cid)).toEqual(['girocode@schlosstreffen']);
    expect(mail.html).toContain('src="cid:girocode@schlosstreffen"');
    expect(mail.html).not.toContain('checkin-qr@schlosstreffen');
    expect(await decode(mail.attachments![0]!.content)).toContain('\nEUR25.00\n');
    // A reminder always names its deadline.
    await expect(
      renderEmail(
        'payment-reminder',
        { ...application, payment: { ...payment, dueAt: null }, openCents: 2500 },
        PREVIEW_EVENT,
      ),
    ).rejects.toThrow();
  });

  it('after a partial payment: what came, what is open, and a GiroCode for the open amount', async () => {
    const mail = await renderEmail(
      'payment-partial',
      { ...application, payment, paidCents: 1000, openCents: 1500 },
      PREVIEW_EVENT,
    );
    expect(mail.subject).toBe('Dein Startgeld ist noch nicht vollständig – Schlosstreffen');
    const text = flat(mail.text);
    expect(text).toContain('Bisher sind 10,00 € von 25,00 € Startgeld bei uns eingegangen');
    expect(text).toContain('es fehlen also noch 15,00 €');
    expect(text).toContain('bis 05.06.2027, 23:59 Uhr mit dem Verwendungszweck ST26-K7Q2P-K');
    expect(text).toContain('Betrag: 15,00 € (offen von 25,00 €)');
    expect(text).toContain('IBAN: DE89 3704 0044 0532 0130 00');
    expect(await decode(byCid(mail.attachments, 'girocode@schlosstreffen')!.content)).toBe(
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchlosstreffen e.V.\nDE89370400440532013000\nEUR15.00\n\n\nST26-K7Q2P-K',
    );
    await expect(
      renderEmail(
        'payment-partial',
        { ...application, payment, paidCents: 2500, openCents: 0 },
        PREVIEW_EVENT,
      ),
    ).rejects.toThrow();
  });

  it('after the deadline: the place went to the waitlist and what came is paid back', async () => {
    const mail = await renderEmail('payment-lapsed', { ...application, dueAt: payment.dueAt }, PREVIEW_EVENT);
    expect(mail.subject).toBe('Dein Startgeld ist nicht eingegangen – Schlosstreffen');
    expect(mail.text).toContain('war bis 05.06.2027, 23:59 Uhr zu überweisen');
    expect(mail.text).toContain('nicht vollständig bei uns eingegangen');
    expect(mail.text).toContain('der Platz ist an das nächste Fahrzeug auf der Warteliste gegangen');
    expect(mail.text).toContain('zahlen wir dir diesen Betrag zurück');
    expect(mail.attachments).toBeUndefined();
    expect(mail.html).not.toContain('GiroCode');
  });
});
