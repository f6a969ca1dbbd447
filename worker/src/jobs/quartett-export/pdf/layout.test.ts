import { describe, expect, it } from 'vitest';
import {
  BLEED_MM,
  CARD_MM,
  cardBox,
  CARDS_PER_PAGE,
  cropMarks,
  MARGIN_MM,
  PAGE_MM,
  pageCount,
  TRIM_MM,
  trimBox,
  type Line,
  type Rect,
  type Side,
} from './layout.js';

const slots = Array.from({ length: CARDS_PER_PAGE }, (_, slot) => slot);

/** Whether a line touches the rectangle (lines here are horizontal or vertical). */
function touches([x1, y1, x2, y2]: Line, box: Rect): boolean {
  const [left, right] = [Math.min(x1, x2), Math.max(x1, x2)];
  const [top, bottom] = [Math.min(y1, y2), Math.max(y1, y2)];
  return right >= box.x && left <= box.x + box.width && bottom >= box.y && top <= box.y + box.height;
}

describe('quartett sheet layout', () => {
  it('puts 4 × 2 cards of 59 × 91 mm plus 3 mm bleed on A4 landscape, centred', () => {
    expect(TRIM_MM).toEqual({ width: 59, height: 91 });
    expect(CARD_MM).toEqual({ width: 65, height: 97 });
    expect(CARDS_PER_PAGE).toBe(8);
    expect(MARGIN_MM.x).toBeGreaterThan(8);
    expect(MARGIN_MM.y).toBeGreaterThanOrEqual(5);
    const last = cardBox(CARDS_PER_PAGE - 1, 'front');
    expect(last.x + last.width + MARGIN_MM.x).toBeCloseTo(PAGE_MM.width, 6);
    expect(last.y + last.height + MARGIN_MM.y).toBeCloseTo(PAGE_MM.height, 6);
    expect(trimBox(cardBox(0, 'front'))).toEqual({
      x: MARGIN_MM.x + BLEED_MM,
      y: MARGIN_MM.y + BLEED_MM,
      width: 59,
      height: 91,
    });
  });

  it('mirrors the back left to right, so fronts and backs meet when flipped on the short edge', () => {
    for (const slot of slots) {
      const front = cardBox(slot, 'front');
      const back = cardBox(slot, 'back');
      expect(back.y).toBe(front.y);
      expect(back.x + back.width / 2).toBeCloseTo(PAGE_MM.width - (front.x + front.width / 2), 6);
    }
  });

  it.each(['front', 'back'] as Side[])('keeps the crop marks (%s) off every card and on the page', (side) => {
    const boxes = slots.map((slot) => cardBox(slot, side));
    for (const box of boxes) {
      const marks = cropMarks(box);
      expect(marks).toHaveLength(8);
      for (const mark of marks) {
        for (const other of boxes) expect(touches(mark, other)).toBe(false);
        expect(Math.min(mark[0], mark[2])).toBeGreaterThan(0);
        expect(Math.max(mark[0], mark[2])).toBeLessThan(PAGE_MM.width);
        expect(Math.min(mark[1], mark[3])).toBeGreaterThan(0);
        expect(Math.max(mark[1], mark[3])).toBeLessThan(PAGE_MM.height);
      }
      // Each mark continues a trim edge.
      const trim = trimBox(box);
      const edges = new Set([trim.x, trim.x + trim.width, trim.y, trim.y + trim.height]);
      for (const [x1, y1, x2, y2] of marks) {
        expect(x1 === x2 || y1 === y2).toBe(true);
        expect(edges.has(x1 === x2 ? x1 : y1)).toBe(true);
      }
    }
  });

  it('counts a front and a back page per sheet', () => {
    expect([1, 8, 9, 16, 17, 1000].map(pageCount)).toEqual([2, 2, 4, 4, 6, 250]);
  });
});
