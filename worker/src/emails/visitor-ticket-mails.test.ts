import jsqrModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TICKET_PAGE_MM, TICKET_RULE } from '../pdf/visitor-ticket.js';
import { pt } from '../pdf/print-marks.js';
import { PREVIEW_EVENT } from './preview-event.js';
import { renderEmail } from './render.js';

// jsqr is CommonJS: its function is the default export, or the module itself.
const jsQR = ((jsqrModule as { default?: unknown }).default ?? jsqrModule) as typeof jsqrModule.default;

const SECRET = 'VTq3Zx9-kP2mW7_rT5vN8bY4cH6jL1dF0sA';
const links = {
  unsubscribeUrl: 'https://schlosstreffen.test/besucher/abmelden?token=abc',
  oneClickUrl: 'https://schlosstreffen.test/api/visitor-registrations/unsubscribe?token=abc',
};
/** What the job's props and its opened sealed box give the renderer together. */
const ticket = {
  firstName: 'Łucja',
  ticketUrl: `https://schlosstreffen.test/besucherticket/${SECRET}`,
  returnUrl: `https://schlosstreffen.test/besucherticket/${SECRET}/zurueckgeben`,
  ticketSecret: SECRET,
  ...links,
};
const ONE_CLICK = {
  'List-Unsubscribe': `<${links.oneClickUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
};
const MOVED_UP = 'gute Nachrichten: Ein Platz ist frei geworden, und du bist von der Warteliste nachgerückt.';

/** The text a QR code PNG carries. */
async function decode(png: Buffer): Promise<string | null> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  return code ? new TextDecoder().decode(Uint8Array.from(code.binaryData)) : null;
}

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    context: {
      getImageData(x: number, y: number, width: number, height: number): ImageData;
    };
  };
}
interface ImageData {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Pixels per point the page is rendered at to read its QR code. */
const SCALE = 3;

/** The PDF as pdfjs reads it: pages, the first page's size and text, and the QR code on it. */
async function readPdf(data: Buffer) {
  const pdf = await getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  try {
    const page = await pdf.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    const viewport = page.getViewport({ scale: SCALE });
    // pdfjs draws on @napi-rs/canvas in Node (its own canvas factory).
    const { canvas, context } = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory.create(
      viewport.width,
      viewport.height,
    ) as ReturnType<CanvasFactory['create']> & { canvas: unknown };
    await page.render({ canvas, canvasContext: context, viewport } as never).promise;
    const image = context.getImageData(0, 0, viewport.width, viewport.height);
    const [, , width, height] = page.view as [number, number, number, number];
    return {
      pages: pdf.numPages,
      width,
      height,
      text,
      code: jsQR(image.data, image.width, image.height)?.data ?? null,
    };
  } finally {
    await pdf.destroy();
  }
}

describe('the visitor ticket mail', () => {
  it('says what the ticket is in German, links its page and its return, and offers one-click unsubscribe', async () => {
    const mail = await renderEmail('visitor-ticket', ticket, PREVIEW_EVENT);
    expect(mail.subject).toBe('Dein Besucherticket – Schlosstreffen 2026');
    expect(mail.text).toContain('Hallo Łucja,');
    expect(mail.text).toContain(
      'hier ist dein Besucherticket zum Schlosstreffen 2026 am Samstag, 20. Juni 2026 (10:00 – 20:00 Uhr). Ort: Schlosspark, Sachsen.',
    );
    expect(mail.text).toContain('kostenlos und persönlich');
    expect(mail.text).toContain(`Ticket öffnen <${ticket.ticketUrl}>`);
    expect(mail.text).toContain('auch ohne Netz');
    expect(mail.text).toContain('als PDF an dieser E-Mail');
    expect(mail.text).toContain(`Ticket zurückgeben <${ticket.returnUrl}>`);
    expect(mail.text).toContain('die nächste Person auf der Warteliste deinen Platz bekommt');
    expect(mail.text).toContain(`Hier abmelden <${links.unsubscribeUrl}>`);
    expect(mail.text).not.toContain('nachgerückt');
    expect(mail.headers).toEqual(ONE_CLICK);
  });

  it('carries the QR code inline under its own cid and the ticket as PDF, both holding exactly the secret', async () => {
    const mail = await renderEmail('visitor-ticket', ticket, PREVIEW_EVENT);
    expect(mail.attachments).toHaveLength(2);
    const [qr, pdf] = mail.attachments!;

    expect(qr).toMatchObject({ cid: 'visitor-ticket@schlosstreffen', contentType: 'image/png' });
    expect(mail.html).toContain('src="cid:visitor-ticket@schlosstreffen"');
    expect(mail.html).toContain('alt="QR-Code des Besuchertickets"');
    expect(mail.html).not.toContain('checkin-qr@schlosstreffen');
    // The QR code follows the text.
    expect(mail.html.indexOf('cid:visitor-ticket@schlosstreffen')).toBeGreaterThan(
      mail.html.indexOf('Ticket zurückgeben'),
    );
    expect(await decode(qr!.content)).toBe(SECRET);

    expect(pdf).toMatchObject({ filename: 'Besucherticket.pdf', contentType: 'application/pdf' });
    expect(pdf!.cid).toBeUndefined();
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const read = await readPdf(pdf!.content);
    expect(read.pages).toBe(1);
    // A6 portrait.
    expect(read.width).toBeCloseTo(pt(TICKET_PAGE_MM.width), 1);
    expect(read.height).toBeCloseTo(pt(TICKET_PAGE_MM.height), 1);
    for (const part of [
      'Besucherticket',
      'Schlosstreffen 2026',
      'Samstag, 20. Juni 2026',
      '10:00 – 20:00 Uhr',
      'Łucja',
      TICKET_RULE,
    ])
      expect(read.text).toContain(part);
    // The address in small print, broken over lines.
    expect(read.text.replace(/\s/g, '')).toContain(ticket.ticketUrl);
    expect(read.code).toBe(SECRET);
  });

  it('after moving up from the waiting list, its first sentence says so', async () => {
    const mail = await renderEmail('visitor-ticket', { ...ticket, movedUp: true }, PREVIEW_EVENT);
    expect(mail.subject).toBe('Ein Platz ist frei: Dein Besucherticket – Schlosstreffen 2026');
    const afterGreeting = mail.text.slice(mail.text.indexOf('Hallo Łucja,') + 'Hallo Łucja,'.length).trim();
    expect(afterGreeting.startsWith(`${MOVED_UP} Hier ist dein Besucherticket zum Schlosstreffen 2026`)).toBe(
      true,
    );
    expect(mail.text).toContain(`Ticket zurückgeben <${ticket.returnUrl}>`);
    expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual([
      'besucherticket-qr-code.png',
      'Besucherticket.pdf',
    ]);
    expect(mail.headers).toEqual(ONE_CLICK);
  });

  it('cannot go out without the sealed values (secret and links)', async () => {
    await expect(
      renderEmail('visitor-ticket', { firstName: 'Łucja', movedUp: false }, PREVIEW_EVENT),
    ).rejects.toThrow();
    await expect(
      renderEmail('visitor-ticket', { ...ticket, ticketSecret: SECRET.slice(0, 19) }, PREVIEW_EVENT),
    ).rejects.toThrow();
  });
});

describe('the waiting list and the returned ticket', () => {
  it('the waiting list mail explains the order and the ticket to come, without attachment', async () => {
    const mail = await renderEmail('visitor-ticket-waiting', { firstName: 'Vera', ...links }, PREVIEW_EVENT);
    expect(mail.subject).toBe('Du stehst auf der Warteliste für ein Besucherticket – Schlosstreffen');
    expect(mail.text).toContain('Hallo Vera,');
    expect(mail.text).toContain(
      'Alle Besucherplätze beim Schlosstreffen 2026 am Samstag, 20. Juni 2026 sind im Moment vergeben, deshalb stehst du auf der Warteliste.',
    );
    expect(mail.text).toContain('wann die Vormerkungen bestätigt wurden');
    expect(mail.text).toContain(
      'Sobald ein Platz frei wird, bekommst du dein kostenloses Ticket per E-Mail.',
    );
    expect(mail.text).toContain(`Hier abmelden <${links.unsubscribeUrl}>`);
    expect(mail.attachments).toBeUndefined();
    expect(mail.html).not.toContain('cid:');
    expect(mail.headers).toEqual(ONE_CLICK);
  });

  it('the return confirms the ticket was given back and the place goes on, without attachment', async () => {
    const mail = await renderEmail('visitor-ticket-returned', { firstName: 'Vera', ...links }, PREVIEW_EVENT);
    expect(mail.subject).toBe('Dein Besucherticket ist zurückgegeben – Schlosstreffen');
    expect(mail.text).toContain('Hallo Vera,');
    expect(mail.text).toContain(
      'du hast dein Besucherticket zum Schlosstreffen 2026 zurückgegeben. Das Ticket gilt nicht mehr, und dein Platz geht an die nächste Person auf der Warteliste.',
    );
    expect(mail.text).toContain(`Hier abmelden <${links.unsubscribeUrl}>`);
    expect(mail.attachments).toBeUndefined();
    expect(mail.html).not.toContain('cid:');
    expect(mail.headers).toEqual(ONE_CLICK);
  });
});
