/** Quartett card geometry and rules shared by the print export and the card previews. */

/** Trim size and bleed of a printed card, in millimetres. */
export const QUARTETT_CARD_MM = { width: 59, height: 91, bleed: 3 } as const;

/** Cards per group: A1–A4, B1–B4, … */
const QUARTETT_GROUP_SIZE = 4;

/** Group letters A … Z, then AA, AB, … (spreadsheet columns), so any number of cards has a code. */
function groupLetters(group: number): string {
  let n = group + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** The card code of the card at a 0-based position: A1, A2, A3, A4, B1, … */
export function cardCode(position: number): string {
  if (!Number.isInteger(position) || position < 0) throw new RangeError(`invalid card position ${position}`);
  return `${groupLetters(Math.floor(position / QUARTETT_GROUP_SIZE))}${(position % QUARTETT_GROUP_SIZE) + 1}`;
}

interface CropSettings {
  /** Focus point in percent of the free space (like CSS object-position), 0–100. */
  cropX: number;
  cropY: number;
  /** Zoom in percent, 100–200. */
  scale: number;
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The part of a `width`×`height` image a frame of `frameAspect` (width / height) shows: cover-fit,
 * zoomed by `scale` percent, placed at the crop position. Matches `object-fit: cover;
 * object-position: x% y%` with `transform: scale(s)` around the same point.
 */
export function cropRegion(width: number, height: number, frameAspect: number, crop: CropSettings): Region {
  const zoom = clamp(crop.scale || 100, 100, 200) / 100;
  const cover =
    width / height > frameAspect
      ? { w: height * frameAspect, h: height }
      : { w: width, h: width / frameAspect };
  const w = Math.max(1, Math.min(width, Math.round(cover.w / zoom)));
  const h = Math.max(1, Math.min(height, Math.round(cover.h / zoom)));
  const left = Math.round(((width - w) * clamp(crop.cropX, 0, 100)) / 100);
  const top = Math.round(((height - h) * clamp(crop.cropY, 0, 100)) / 100);
  return { left, top, width: w, height: h };
}
