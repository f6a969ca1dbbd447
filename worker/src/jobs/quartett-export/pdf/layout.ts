import { QUARTETT_CARD_MM } from '@schlosstreffen/shared';
import { cropMarkLines, type Line, type Rect } from '../../../pdf/print-marks.js';

export {
  CROP_MARK_LINE_PT,
  CROP_MARK_MM,
  pt,
  PT_PER_MM,
  type Line,
  type Rect,
} from '../../../pdf/print-marks.js';

/**
 * Imposition of the quartett print sheets. Lengths are millimetres unless a name says points;
 * pdfkit draws in points with the origin at the top left.
 *
 * A4 landscape with 4 × 2 cards. Each card is 59 × 91 mm trimmed plus 3 mm bleed (65 × 97 mm);
 * 6 mm gutters between the bleed boxes hold the crop marks, so no mark runs over a neighbour. Every
 * front page is followed by its back page with the slots mirrored left to right: print duplex and
 * flip on the short edge.
 */

export const PAGE_MM = { width: 297, height: 210 } as const;
export const PAGE_SIZE = 'A4';
export const PAGE_LAYOUT = 'landscape';

export const TRIM_MM = { width: QUARTETT_CARD_MM.width, height: QUARTETT_CARD_MM.height } as const;
export const BLEED_MM = QUARTETT_CARD_MM.bleed;
/** A card with its bleed: what is printed, 65 × 97 mm. */
export const CARD_MM = {
  width: TRIM_MM.width + 2 * BLEED_MM,
  height: TRIM_MM.height + 2 * BLEED_MM,
} as const;

export const GRID = { columns: 4, rows: 2 } as const;
export const CARDS_PER_PAGE = GRID.columns * GRID.rows;
/** Space between the bleed boxes of neighbouring cards. */
export const GUTTER_MM = 6;

/** Page margin around the grid, the same on both sides so the back pages mirror exactly. */
export const MARGIN_MM = {
  x: (PAGE_MM.width - GRID.columns * CARD_MM.width - (GRID.columns - 1) * GUTTER_MM) / 2,
  y: (PAGE_MM.height - GRID.rows * CARD_MM.height - (GRID.rows - 1) * GUTTER_MM) / 2,
} as const;

/** Card front: the photo runs from the top bleed edge to this distance below the top trim edge. */
export const PHOTO_BOTTOM_MM = 40;
/** The photo frame including bleed on three sides, 65 × 43 mm. */
export const PHOTO_FRAME_MM = { width: CARD_MM.width, height: PHOTO_BOTTOM_MM + BLEED_MM } as const;
/** Resolution photos are rendered at for the frame. */
export const PHOTO_DPI = 300;
/** Text and values keep this distance from the trim edge. */
export const SAFE_MM = 3;

export type Side = 'front' | 'back';

export const sheetCount = (cards: number) => Math.ceil(cards / CARDS_PER_PAGE);
/** Front and back page per sheet. */
export const pageCount = (cards: number) => 2 * sheetCount(cards);

/** The bleed box of a slot (0 … 7, row by row) on a page; the back mirrors the columns. */
export function cardBox(slot: number, side: Side): Rect {
  const row = Math.floor(slot / GRID.columns);
  const column = side === 'front' ? slot % GRID.columns : GRID.columns - 1 - (slot % GRID.columns);
  return {
    x: MARGIN_MM.x + column * (CARD_MM.width + GUTTER_MM),
    y: MARGIN_MM.y + row * (CARD_MM.height + GUTTER_MM),
    width: CARD_MM.width,
    height: CARD_MM.height,
  };
}

/** The trim box inside a bleed box. */
export const trimBox = (box: Rect): Rect => ({
  x: box.x + BLEED_MM,
  y: box.y + BLEED_MM,
  width: TRIM_MM.width,
  height: TRIM_MM.height,
});

/** Eight marks per card: each trim edge extended beyond the bleed on both ends. */
export const cropMarks = (box: Rect): Line[] => cropMarkLines(trimBox(box), BLEED_MM);
