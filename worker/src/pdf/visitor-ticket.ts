import type { EventFacts } from '@schlosstreffen/shared';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { drawText, type TextStyle } from '../jobs/quartett-export/pdf/card.js';
import { fontName, registerFonts } from '../jobs/quartett-export/pdf/fonts.js';
import { pt, type Rect } from './print-marks.js';

/**
 * The visitor ticket ('Besucherticket') as an A6 portrait PDF, to print or show on a phone: the
 * edition with its date, time and place, the holder's first name, the QR code of the ticket's
 * secret (vector squares, level M, sharp at any print size), the gate's rule and the ticket page's
 * address in small print. Positions in millimetres; the fonts are the quartett's (Inter, embedded).
 */

type Doc = PDFKit.PDFDocument;

/** A6 portrait. */
export const TICKET_PAGE_MM = { width: 105, height: 148 } as const;
/** Where the QR code (with its quiet zone) stands on the page. */
export const TICKET_QR_MM: Rect = { x: 26.5, y: 72, width: 52, height: 52 };
export const TICKET_RULE = 'Einlass einmal pro Ticket. Bitte am Eingang vorzeigen.';

const COLORS = { paper: '#ffffff', night: '#0b0a08', gold: '#d4a848', goldDark: '#7a5c14', muted: '#5b5446' };
/** Modules of quiet zone around the code, as the standard asks. */
const QUIET_ZONE = 4;

export interface VisitorTicketPdf {
  firstName: string;
  /** What the QR code holds. */
  ticketSecret: string;
  /** The online ticket page, printed in small print. */
  ticketUrl: string;
}

/** The edition's name with its year (once). */
const editionHeading = (event: EventFacts) =>
  event.name.includes(String(event.year)) ? event.name : `${event.name} ${event.year}`;

export async function renderVisitorTicketPdf(event: EventFacts, ticket: VisitorTicketPdf): Promise<Buffer> {
  const heading = editionHeading(event);
  const doc = new PDFDocument({
    size: [pt(TICKET_PAGE_MM.width), pt(TICKET_PAGE_MM.height)],
    margin: 0,
    lang: 'de-DE',
    info: { Title: `Besucherticket – ${heading}`, Author: heading, Creator: 'Schlosstreffen' },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const { width, height } = TICKET_PAGE_MM;
  const centre = width / 2;
  const inner = width - 20;
  const line = (text: string, y: number, style: Omit<TextStyle, 'align'>) =>
    drawText(doc, text, centre, y, { maxWidth: inner, ...style, align: 'center' });

  doc.rect(0, 0, pt(width), pt(height)).fill(COLORS.paper);
  doc.rect(0, 0, pt(width), pt(6)).fill(COLORS.gold);
  line('SCHLOSSTREFFEN', 14, { size: 7, weight: 700, color: COLORS.goldDark });
  line('Besucherticket', 24, { size: 24, weight: 700, color: COLORS.night, minSize: 16 });
  line(heading, 32, { size: 12, weight: 700, color: COLORS.goldDark, minSize: 8 });
  doc
    .lineWidth(0.5)
    .moveTo(pt(15), pt(36))
    .lineTo(pt(width - 15), pt(36))
    .stroke(COLORS.gold);
  line(event.date, 43, { size: 10, weight: 700, color: COLORS.night, minSize: 7 });
  line(event.time, 48.5, { size: 10, weight: 400, color: COLORS.night, minSize: 7 });
  line(event.place, 54, { size: 9, weight: 400, color: COLORS.muted, minSize: 7 });
  const firstName = ticket.firstName.trim();
  if (firstName) {
    line('Ticket für', 62, { size: 8, weight: 400, color: COLORS.muted });
    line(firstName, 68.5, { size: 14, weight: 700, color: COLORS.night, minSize: 9 });
  }
  drawQrCode(doc, ticket.ticketSecret, TICKET_QR_MM);
  line(TICKET_RULE, 130, { size: 8.5, weight: 700, color: COLORS.night, minSize: 6.5 });
  // The address has no spaces: pdfkit breaks it where the line ends (within the page).
  doc
    .font(fontName('latin', 400), 6)
    .fillColor(COLORS.muted)
    .text(ticket.ticketUrl, pt(10), pt(133.5), {
      width: pt(inner),
      height: pt(height - 136),
      align: 'center',
      lineGap: 1,
    });

  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A QR code as vector squares, one run of dark modules per rectangle, on white with its quiet zone. */
function drawQrCode(doc: Doc, text: string, box: Rect) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const module = box.width / (modules.size + 2 * QUIET_ZONE);
  const originX = box.x + QUIET_ZONE * module;
  const originY = box.y + QUIET_ZONE * module;
  doc.rect(pt(box.x), pt(box.y), pt(box.width), pt(box.height)).fill(COLORS.paper);
  for (let row = 0; row < modules.size; row += 1) {
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column += 1;
      // A hair wider and taller, so neighbouring runs leave no seam when rasterized.
      doc.rect(
        pt(originX + start * module),
        pt(originY + row * module),
        pt((column - start) * module) + 0.1,
        pt(module) + 0.1,
      );
    }
  }
  doc.fill(COLORS.night);
}
