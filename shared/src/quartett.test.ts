import { describe, expect, it } from 'vitest';
import { cardCode, cropRegion, QUARTETT_CARD_MM } from './quartett.js';

const centre = { cropX: 50, cropY: 50, scale: 100 };

describe('cardCode', () => {
  it('counts in groups of four: A1–A4, B1, …', () => {
    expect([0, 1, 2, 3, 4, 5, 7, 8].map(cardCode)).toEqual(['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B4', 'C1']);
  });

  it('goes on past Z with two letters, like spreadsheet columns', () => {
    expect(cardCode(100)).toBe('Z1');
    expect(cardCode(103)).toBe('Z4');
    expect(cardCode(104)).toBe('AA1');
    expect(cardCode(108)).toBe('AB1');
    expect(cardCode(26 * 4 + 26 * 4 - 1)).toBe('AZ4');
    expect(cardCode(26 * 4 + 26 * 4)).toBe('BA1');
  });

  it('gives every card of a large set its own code', () => {
    const codes = Array.from({ length: 5000 }, (_, position) => cardCode(position));
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((code) => code.length <= 8)).toBe(true);
  });

  it('refuses positions that are no card', () => {
    expect(() => cardCode(-1)).toThrow(RangeError);
    expect(() => cardCode(1.5)).toThrow(RangeError);
  });
});

describe('cropRegion', () => {
  it('cover-fits a wide image into a narrower frame, centred', () => {
    expect(cropRegion(4000, 2000, 1, centre)).toEqual({ left: 1000, top: 0, width: 2000, height: 2000 });
  });

  it('cover-fits a tall image into a wide frame, centred', () => {
    expect(cropRegion(1000, 2000, 2, centre)).toEqual({ left: 0, top: 750, width: 1000, height: 500 });
  });

  it('keeps the frame aspect of the card photo', () => {
    const aspect = (QUARTETT_CARD_MM.width + 2 * QUARTETT_CARD_MM.bleed) / 43;
    const region = cropRegion(1280, 853, aspect, centre);
    expect(region.width / region.height).toBeCloseTo(aspect, 2);
    expect(region.left + region.width).toBeLessThanOrEqual(1280);
    expect(region.top + region.height).toBeLessThanOrEqual(853);
  });

  it('places the region by the crop position like object-position (0 and 100 %)', () => {
    expect(cropRegion(4000, 2000, 1, { ...centre, cropX: 0 })).toMatchObject({ left: 0, top: 0 });
    expect(cropRegion(4000, 2000, 1, { ...centre, cropX: 100 })).toMatchObject({ left: 2000, top: 0 });
    expect(cropRegion(1000, 2000, 2, { ...centre, cropY: 0 })).toMatchObject({ left: 0, top: 0 });
    expect(cropRegion(1000, 2000, 2, { ...centre, cropY: 100 })).toMatchObject({ left: 0, top: 1500 });
  });

  it('zooms in around the crop position (scale 200 halves the region)', () => {
    expect(cropRegion(4000, 2000, 1, { ...centre, scale: 200 })).toEqual({
      left: 1500,
      top: 500,
      width: 1000,
      height: 1000,
    });
    expect(cropRegion(4000, 2000, 1, { cropX: 0, cropY: 100, scale: 200 })).toEqual({
      left: 0,
      top: 1000,
      width: 1000,
      height: 1000,
    });
  });

  it('clamps zoom and crop values to their ranges', () => {
    expect(cropRegion(4000, 2000, 1, { ...centre, scale: 400 })).toEqual(
      cropRegion(4000, 2000, 1, { ...centre, scale: 200 }),
    );
    expect(cropRegion(4000, 2000, 1, { ...centre, scale: 0 })).toEqual(cropRegion(4000, 2000, 1, centre));
    expect(cropRegion(4000, 2000, 1, { ...centre, cropX: -20 })).toMatchObject({ left: 0 });
    expect(cropRegion(4000, 2000, 1, { ...centre, cropX: 150 })).toMatchObject({ left: 2000 });
  });

  it('never leaves the image, even for a tiny one', () => {
    const region = cropRegion(3, 2, 65 / 43, { cropX: 100, cropY: 100, scale: 200 });
    expect(region.width).toBeGreaterThanOrEqual(1);
    expect(region.height).toBeGreaterThanOrEqual(1);
    expect(region.left + region.width).toBeLessThanOrEqual(3);
    expect(region.top + region.height).toBeLessThanOrEqual(2);
  });
});
