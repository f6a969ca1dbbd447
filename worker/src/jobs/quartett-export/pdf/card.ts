import type { CardValue } from '@schlosstreffen/shared';
import { textRuns, type Weight } from './fonts.js';
import {
  BLEED_MM,
  PHOTO_BOTTOM_MM,
  PHOTO_FRAME_MM,
  pt,
  SAFE_MM,
  TRIM_MM,
  trimBox,
  type Rect,
} from './layout.js';
import { drawCropMarks as drawSheetCropMarks } from '../../../pdf/print-marks.js';

/** Drawing of card fronts, card backs and the crop marks. Positions in millimetres, like layout.ts. */

type Doc = PDFKit.PDFDocument;

const COLORS = {
  night: '#0b0a08',
  nightSoft: '#2a251d',
  gold: '#d4a848',
  goldLight: '#f1d58a',
  parchment: '#efe7d6',
  paper: '#fbf8f2',
  row: '#f1eadc',
  muted: '#6b6355',
  placeholder: '#ddd5c6',
  mark: '#000000',
} as const;

/** Everything a card front shows, prepared from the vehicle. */
export interface CardFace {
  code: string;
  name: string;
  /** Model · year · colour. */
  subline: string;
  values: CardValue[];
  owner: string;
}

export interface TextStyle {
  size: number;
  weight: Weight;
  color: string;
  align?: 'left' | 'right' | 'center';
  /** Widest the text may be, in mm: it shrinks down to `minSize`, then is cut with an ellipsis. */
  maxWidth?: number;
  minSize?: number;
}

function widthOf(doc: Doc, text: string, weight: Weight, size: number): number {
  let width = 0;
  for (const run of textRuns(text, weight)) width += doc.font(run.font, size).widthOfString(run.text);
  return width;
}

/** The text and size that fit the style's width. */
export function fitText(
  doc: Doc,
  text: string,
  style: TextStyle,
): { text: string; size: number; width: number } {
  let size = style.size;
  let width = widthOf(doc, text, style.weight, size);
  if (style.maxWidth === undefined) return { text, size, width };
  const max = pt(style.maxWidth);
  if (width > max && style.minSize) {
    size = Math.max(style.minSize, Math.floor(((size * max) / width) * 4) / 4);
    width = widthOf(doc, text, style.weight, size);
  }
  let fitted = text;
  while (width > max && fitted.length > 1) {
    fitted = fitted.slice(0, -1).trimEnd();
    width = widthOf(doc, `${fitted}…`, style.weight, size);
  }
  return { text: fitted === text ? text : `${fitted}…`, size, width };
}

/** One line of text with its baseline at y; x is the left, right or centre point per `align`. */
export function drawText(doc: Doc, text: string, x: number, y: number, style: TextStyle): void {
  if (!text) return;
  const fitted = fitText(doc, text, style);
  let left = pt(x);
  if (style.align === 'right') left -= fitted.width;
  else if (style.align === 'center') left -= fitted.width / 2;
  doc.fillColor(style.color);
  for (const run of textRuns(fitted.text, style.weight)) {
    doc.font(run.font, fitted.size).text(run.text, left, pt(y), { lineBreak: false, baseline: 'alphabetic' });
    left += doc.widthOfString(run.text);
  }
}

const rect = (doc: Doc, r: Rect) => doc.rect(pt(r.x), pt(r.y), pt(r.width), pt(r.height));

/** The crop marks of a card's bleed box. */
export const drawCropMarks = (doc: Doc, box: Rect): void => drawSheetCropMarks(doc, trimBox(box), BLEED_MM);

/** The photo frame of a card: the bleed box's top part, down to PHOTO_BOTTOM_MM below the trim. */
export const photoFrame = (box: Rect): Rect => ({
  x: box.x,
  y: box.y,
  width: PHOTO_FRAME_MM.width,
  height: PHOTO_FRAME_MM.height,
});

/** A card front in its bleed box; `photo` is a JPEG cut to the frame's aspect, else a placeholder. */
export function drawCardFront(doc: Doc, box: Rect, face: CardFace, photo: Buffer | undefined): void {
  const left = box.x + BLEED_MM + SAFE_MM;
  const right = box.x + BLEED_MM + TRIM_MM.width - SAFE_MM;
  const top = box.y + BLEED_MM;
  const width = right - left;

  doc.save();
  rect(doc, box).fill(COLORS.paper);
  const frame = photoFrame(box);
  if (photo) {
    doc.image(photo, pt(frame.x), pt(frame.y), { width: pt(frame.width), height: pt(frame.height) });
  } else {
    rect(doc, frame).fill(COLORS.placeholder);
    drawText(doc, 'Kein Foto', frame.x + frame.width / 2, frame.y + frame.height / 2 + 1.5, {
      size: 9,
      weight: 400,
      color: COLORS.muted,
      align: 'center',
    });
  }
  rect(doc, { x: box.x, y: top + PHOTO_BOTTOM_MM, width: box.width, height: 0.8 }).fill(COLORS.gold);

  // Code badge over the photo's top left corner.
  doc.roundedRect(pt(left), pt(top + SAFE_MM), pt(11), pt(6.5), pt(1.2)).fill(COLORS.night);
  drawText(doc, face.code, left + 5.5, top + SAFE_MM + 4.6, {
    size: 9.5,
    weight: 700,
    color: COLORS.goldLight,
    align: 'center',
    maxWidth: 10,
    minSize: 6,
  });

  let y = top + PHOTO_BOTTOM_MM + 5.6;
  drawText(doc, face.name, left, y, {
    size: 11,
    minSize: 7.5,
    weight: 700,
    color: COLORS.night,
    maxWidth: width,
  });
  y += 4;
  drawText(doc, face.subline, left, y, { size: 6.5, weight: 400, color: COLORS.muted, maxWidth: width });

  const rowHeight = 5;
  y += 2.6;
  face.values.forEach((entry, index) => {
    const rowTop = y + index * rowHeight;
    if (index % 2 === 0) {
      doc.roundedRect(pt(left - 1), pt(rowTop), pt(width + 2), pt(rowHeight), pt(0.8)).fill(COLORS.row);
    }
    const baseline = rowTop + rowHeight / 2 + 1.05;
    drawText(doc, entry.label, left + 0.6, baseline, {
      size: 6.8,
      weight: 400,
      color: COLORS.nightSoft,
      maxWidth: width / 2,
    });
    drawText(doc, entry.value, right - 0.6, baseline, {
      size: 7.4,
      weight: 700,
      color: COLORS.night,
      align: 'right',
      maxWidth: width / 2,
    });
  });

  const footer = top + TRIM_MM.height - SAFE_MM - 0.6;
  drawText(doc, face.owner ? `Besitzer: ${face.owner}` : '', left, footer, {
    size: 6,
    weight: 400,
    color: COLORS.muted,
    maxWidth: width - 16,
  });
  drawText(doc, 'Schlosstreffen', right, footer, {
    size: 5.5,
    weight: 700,
    color: COLORS.gold,
    align: 'right',
  });
  doc.restore();
}

/** The uniform back of every card. */
export function drawCardBack(doc: Doc, box: Rect, text: { eventName: string; setTitle: string }): void {
  const trimLeft = box.x + BLEED_MM;
  const trimTop = box.y + BLEED_MM;
  const centre = trimLeft + TRIM_MM.width / 2;
  const middle = trimTop + TRIM_MM.height / 2;
  doc.save();
  rect(doc, box).fill(COLORS.night);
  doc
    .roundedRect(pt(trimLeft + 4), pt(trimTop + 4), pt(TRIM_MM.width - 8), pt(TRIM_MM.height - 8), pt(2.5))
    .lineWidth(0.8)
    .stroke(COLORS.gold);
  doc
    .roundedRect(
      pt(trimLeft + 5.2),
      pt(trimTop + 5.2),
      pt(TRIM_MM.width - 10.4),
      pt(TRIM_MM.height - 10.4),
      pt(1.8),
    )
    .lineWidth(0.3)
    .stroke(COLORS.gold);
  // A diamond above and below the title.
  for (const y of [middle - 17, middle + 17]) {
    doc
      .polygon(
        [pt(centre), pt(y - 2.2)],
        [pt(centre + 2.2), pt(y)],
        [pt(centre), pt(y + 2.2)],
        [pt(centre - 2.2), pt(y)],
      )
      .fill(COLORS.gold);
  }
  drawText(doc, text.eventName, centre, middle - 2, {
    size: 16,
    minSize: 9,
    weight: 700,
    color: COLORS.parchment,
    align: 'center',
    maxWidth: TRIM_MM.width - 14,
  });
  drawText(doc, 'Auto-Quartett', centre, middle + 5.5, {
    size: 10,
    weight: 700,
    color: COLORS.gold,
    align: 'center',
  });
  drawText(doc, text.setTitle, centre, trimTop + TRIM_MM.height - 10, {
    size: 6.5,
    minSize: 5,
    weight: 400,
    color: COLORS.parchment,
    align: 'center',
    maxWidth: TRIM_MM.width - 16,
  });
  doc.restore();
}
