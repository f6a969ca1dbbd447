import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  carPagePath,
  SIGN_FORMAT_LABELS,
  SIGN_MESSAGES,
  signZoneLine,
  type SignFormat,
} from '@schlosstreffen/shared';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { drawCropMarks, pt, type Rect } from '../../pdf/print-marks.js';
import { drawText } from '../quartett-export/pdf/card.js';
import { registerFonts } from '../quartett-export/pdf/fonts.js';
import {
  PAGE_LAYOUT,
  PAGE_MM,
  PAGE_SIZE,
  qrBox,
  SIGN_BLEED_MM,
  signPageCount,
  SIGNS_PER_PAGE,
  signTrimBox,
} from './layout.js';

/**
 * The windshield sign PDF: per sign the start number as large as the sign allows, the car's name,
 * its parking zone and a QR code to the car's public page with the address printed below it, under
 * a band with the edition's name. The fonts are the quartett's (Inter, embedded).
 */

type Doc = PDFKit.PDFDocument;

const COLORS = {
  night: '#0b0a08',
  gold: '#d4a848',
  goldDark: '#7a5c14',
  parchment: '#efe7d6',
  paper: '#ffffff',
  muted: '#5b5446',
} as const;

export interface SignFace {
  startNumber: number;
  name: string;
  parkingZone: string;
}

export interface SignRenderOptions {
  format: SignFormat;
  year: number;
  editionName: string;
  /** The site's address (PUBLIC_URL): the QR codes lead to its car pages. */
  publicUrl: string;
  signs: readonly SignFace[];
  /** Called after every sign; the renderer yields to the event loop right after. */
  onProgress?: (done: number, total: number) => void | Promise<void>;
}

/** The absolute address of a car's page, as its QR code holds it. */
export const carPageUrl = (publicUrl: string, year: number, startNumber: number) =>
  `${publicUrl.replace(/\/+$/, '')}${carPagePath(year, startNumber)}`;

/** The address as printed: without the scheme. */
export const shortUrl = (url: string) => url.replace(/^https?:\/\//, '');

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function renderSignPdf(
  output: Writable,
  options: SignRenderOptions,
): Promise<{ pages: number; signs: number }> {
  const { format, signs } = options;
  const pages = signPageCount(format, signs.length);
  const heading = options.editionName.includes(String(options.year))
    ? options.editionName
    : `${options.editionName} ${options.year}`;
  const doc = new PDFDocument({
    autoFirstPage: false,
    size: PAGE_SIZE,
    layout: PAGE_LAYOUT,
    margin: 0,
    lang: 'de-DE',
    info: {
      Title: `${heading}: Windschilder`,
      Author: options.editionName,
      Subject: `${SIGN_FORMAT_LABELS[format]}, ${signs.length} ${signs.length === 1 ? 'Schild' : 'Schilder'}`,
      Creator: 'Schlosstreffen',
    },
  });
  registerFonts(doc);
  const done = finished(output);
  // Awaited below; until then a failing output must not count as an unhandled rejection.
  done.catch(() => undefined);
  doc.pipe(output);

  try {
    const perPage = SIGNS_PER_PAGE[format];
    for (let index = 0; index < signs.length; index += 1) {
      const slot = index % perPage;
      if (slot === 0) {
        doc.addPage({ size: PAGE_SIZE, layout: PAGE_LAYOUT, margin: 0 });
        drawSlug(doc, `${heading} · Windschilder · Seite ${index / perPage + 1} von ${pages}`);
      }
      const trim = signTrimBox(format, slot);
      const url = carPageUrl(options.publicUrl, options.year, signs[index]!.startNumber);
      drawSign(doc, trim, { ...signs[index]!, heading, url });
      drawCropMarks(doc, trim, SIGN_BLEED_MM);
      await options.onProgress?.(index + 1, signs.length);
      await yieldToEventLoop();
      if (output.writableNeedDrain) await once(output, 'drain');
    }
  } catch (error) {
    doc.unpipe(output);
    output.destroy();
    throw error;
  }
  doc.end();
  await done;
  return { pages, signs: signs.length };
}

/** Print instructions along the bottom margin, outside the crop marks. */
function drawSlug(doc: Doc, left: string) {
  drawText(
    doc,
    `${left} · In tatsächlicher Größe (100 %) drucken, an den Schnittmarken schneiden`,
    PAGE_MM.width / 2,
    PAGE_MM.height - 4,
    { size: 6, weight: 400, color: COLORS.muted, align: 'center', maxWidth: PAGE_MM.width - 20 },
  );
}

const rect = (doc: Doc, r: Rect) => doc.rect(pt(r.x), pt(r.y), pt(r.width), pt(r.height));

/** Inter's figures stand about this share of the font size tall. */
const FIGURE_HEIGHT = 0.727;
/** The font size whose figures stand `mm` tall. */
const figureSize = (mm: number) => pt(mm) / FIGURE_HEIGHT;

/** One sign in its trim box; its background and band run into the bleed. */
function drawSign(doc: Doc, trim: Rect, sign: SignFace & { heading: string; url: string }) {
  const landscape = trim.width > trim.height;
  const bleed: Rect = {
    x: trim.x - SIGN_BLEED_MM,
    y: trim.y - SIGN_BLEED_MM,
    width: trim.width + 2 * SIGN_BLEED_MM,
    height: trim.height + 2 * SIGN_BLEED_MM,
  };
  const band = landscape ? 24 : 16;
  const inset = landscape ? 12 : 8;
  const qr = qrBox(trim);

  doc.save();
  rect(doc, bleed).fill(COLORS.paper);
  rect(doc, { ...bleed, height: SIGN_BLEED_MM + band }).fill(COLORS.night);
  rect(doc, { x: bleed.x, y: trim.y + band, width: bleed.width, height: 1.2 }).fill(COLORS.gold);
  rect(doc, { x: bleed.x, y: trim.y + trim.height - 3, width: bleed.width, height: 3 + SIGN_BLEED_MM }).fill(
    COLORS.gold,
  );

  if (landscape) {
    drawText(doc, sign.heading, trim.x + inset, trim.y + 15.5, {
      size: 22,
      weight: 700,
      color: COLORS.gold,
      maxWidth: trim.width - 2 * inset - 60,
      minSize: 12,
    });
    drawText(doc, 'Teilnehmerfahrzeug', trim.x + trim.width - inset, trim.y + 15, {
      size: 14,
      weight: 400,
      color: COLORS.parchment,
      align: 'right',
    });
    const left = trim.x + inset;
    const width = qr.x - 10 - left;
    const centre = left + width / 2;
    drawText(doc, 'Startnummer', centre, trim.y + 38, {
      size: 14,
      weight: 400,
      color: COLORS.muted,
      align: 'center',
    });
    drawText(doc, String(sign.startNumber), centre, trim.y + 124, {
      size: figureSize(78),
      weight: 700,
      color: COLORS.night,
      align: 'center',
      maxWidth: width,
      minSize: 60,
    });
    drawText(doc, sign.name, centre, trim.y + 143, {
      size: 30,
      weight: 700,
      color: COLORS.night,
      align: 'center',
      maxWidth: width,
      minSize: 16,
    });
    drawText(doc, signZoneLine(sign.parkingZone), centre, trim.y + 160, {
      size: 24,
      weight: 700,
      color: COLORS.goldDark,
      align: 'center',
      maxWidth: width,
      minSize: 12,
    });
  } else {
    const centre = trim.x + trim.width / 2;
    const width = trim.width - 2 * inset;
    drawText(doc, sign.heading, centre, trim.y + 10.5, {
      size: 14,
      weight: 700,
      color: COLORS.gold,
      align: 'center',
      maxWidth: width,
      minSize: 9,
    });
    drawText(doc, 'Startnummer', centre, trim.y + 25, {
      size: 10,
      weight: 400,
      color: COLORS.muted,
      align: 'center',
    });
    drawText(doc, String(sign.startNumber), centre, trim.y + 79, {
      size: figureSize(50),
      weight: 700,
      color: COLORS.night,
      align: 'center',
      maxWidth: width,
      minSize: 40,
    });
    drawText(doc, sign.name, centre, trim.y + 91, {
      size: 18,
      weight: 700,
      color: COLORS.night,
      align: 'center',
      maxWidth: width,
      minSize: 10,
    });
    drawText(doc, signZoneLine(sign.parkingZone), centre, trim.y + 100, {
      size: 14,
      weight: 700,
      color: COLORS.goldDark,
      align: 'center',
      maxWidth: width,
      minSize: 9,
    });
  }

  drawQrCode(doc, sign.url, qr);
  const qrCentre = qr.x + qr.width / 2;
  const textWidth = landscape ? qr.width + 8 : trim.width - 2 * inset;
  drawText(doc, shortUrl(sign.url), qrCentre, qr.y + qr.height + (landscape ? 5 : 4), {
    size: landscape ? 11 : 9,
    weight: 700,
    color: COLORS.night,
    align: 'center',
    maxWidth: textWidth,
    minSize: 6,
  });
  drawText(doc, SIGN_MESSAGES.scanHint, qrCentre, qr.y + qr.height + (landscape ? 11 : 9), {
    size: landscape ? 10 : 8,
    weight: 400,
    color: COLORS.muted,
    align: 'center',
    maxWidth: textWidth,
    minSize: 6,
  });
  doc.restore();
}

/** Modules of quiet zone around the code, as the standard asks. */
const QUIET_ZONE = 4;

/** A QR code as vector squares (sharp at any print size), one run of dark modules per rectangle. */
function drawQrCode(doc: Doc, text: string, box: Rect) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const module = box.width / (modules.size + 2 * QUIET_ZONE);
  const originX = box.x + QUIET_ZONE * module;
  const originY = box.y + QUIET_ZONE * module;
  rect(doc, box).fill(COLORS.paper);
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
