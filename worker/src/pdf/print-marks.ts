/**
 * What every print sheet shares: millimetres to points, and the crop marks around a trimmed piece
 * (a quartett card, a windshield sign). pdfkit draws in points with the origin at the top left.
 */

export const PT_PER_MM = 72 / 25.4;
/** Millimetres to points. */
export const pt = (mm: number) => mm * PT_PER_MM;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A line from (x1, y1) to (x2, y2). */
export type Line = readonly [x1: number, y1: number, x2: number, y2: number];

/** Crop marks start this far outside the bleed and are this long: they stay in the gutters. */
export const CROP_MARK_MM = { offset: 1, length: 2 } as const;
export const CROP_MARK_LINE_PT = 0.25;

/** Eight marks per piece: each trim edge extended beyond the bleed on both ends. */
export function cropMarkLines(trim: Rect, bleed: number): Line[] {
  const { offset, length } = CROP_MARK_MM;
  const top = trim.y - bleed - offset;
  const bottom = trim.y + trim.height + bleed + offset;
  const left = trim.x - bleed - offset;
  const right = trim.x + trim.width + bleed + offset;
  const lines: Line[] = [];
  for (const x of [trim.x, trim.x + trim.width]) {
    lines.push([x, top, x, top - length], [x, bottom, x, bottom + length]);
  }
  for (const y of [trim.y, trim.y + trim.height]) {
    lines.push([left, y, left - length, y], [right, y, right + length, y]);
  }
  return lines;
}

/** Strokes the crop marks of a trim box (mm) whose print runs `bleed` mm beyond it. */
export function drawCropMarks(doc: PDFKit.PDFDocument, trim: Rect, bleed: number): void {
  doc.save().lineWidth(CROP_MARK_LINE_PT).strokeColor('#000000');
  for (const [x1, y1, x2, y2] of cropMarkLines(trim, bleed))
    doc.moveTo(pt(x1), pt(y1)).lineTo(pt(x2), pt(y2));
  doc.stroke().restore();
}
