import type { SignFormat } from '@schlosstreffen/shared';
import type { Rect } from '../../pdf/print-marks.js';

/**
 * Imposition of the windshield signs, in millimetres on A4 landscape sheets (297 × 210 mm).
 *
 * 'a4': one landscape sign per sheet, 267 × 180 mm trimmed. 'a5': two portrait signs side by side,
 * 128 × 184 mm trimmed (A5 less what the marks need), with a 10 mm gutter between them. Every sign
 * has 3 mm bleed (its top band runs into it); the crop marks stay in the margins and the gutter.
 */

export const PAGE_MM = { width: 297, height: 210 } as const;
export const PAGE_SIZE = 'A4';
export const PAGE_LAYOUT = 'landscape';
export const SIGN_BLEED_MM = 3;

const SIGN_TRIM_MM: Record<SignFormat, { width: number; height: number }> = {
  a4: { width: 267, height: 180 },
  a5: { width: 128, height: 184 },
};
export const SIGNS_PER_PAGE: Record<SignFormat, number> = { a4: 1, a5: 2 };
const GUTTER_MM = 10;

export const signPageCount = (format: SignFormat, signs: number) => Math.ceil(signs / SIGNS_PER_PAGE[format]);

/** The trim box of a slot (0, or 0 and 1 for 'a5') on its sheet, centred on the page. */
export function signTrimBox(format: SignFormat, slot: number): Rect {
  const size = SIGN_TRIM_MM[format];
  const count = SIGNS_PER_PAGE[format];
  const rowWidth = count * size.width + (count - 1) * (GUTTER_MM + 2 * SIGN_BLEED_MM);
  const left = (PAGE_MM.width - rowWidth) / 2;
  return {
    x: left + slot * (size.width + GUTTER_MM + 2 * SIGN_BLEED_MM),
    y: (PAGE_MM.height - size.height) / 2,
    width: size.width,
    height: size.height,
  };
}

/** Where a sign's QR code goes inside its trim box (a square, its quiet zone included). */
export function qrBox(trim: Rect): Rect {
  if (trim.width > trim.height) {
    const size = 78;
    return { x: trim.x + trim.width - 12 - size, y: trim.y + 34, width: size, height: size };
  }
  const size = 54;
  return {
    x: trim.x + (trim.width - size) / 2,
    y: trim.y + trim.height - 26 - size,
    width: size,
    height: size,
  };
}
