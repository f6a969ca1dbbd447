import { CROP_DEFAULTS, CROP_LIMITS } from '@schlosstreffen/shared';
import type { CSSProperties } from 'react';

/**
 * Hero choice (one main image per vehicle) and image framing (x and y 0–100 %, zoom 100–200 %).
 * Crop values travel as text with two decimals ("50.00"); every helper here accepts numbers or such
 * text.
 */

export type CropField = 'cropX' | 'cropY' | 'scale';
type CropInput = number | string | null | undefined;

/** The framing of one image as the API stores it: percent values as text, e.g. "50.00". */
export interface CropValues {
  cropX: string;
  cropY: string;
  scale: string;
}

/** Crop position 0–100 % (x, y) and zoom 100–200 %, as numbers. */
interface CropNumbers {
  cropX: number;
  cropY: number;
  scale: number;
}

/** The image's framing as text, the way it is sent and stored ("50.00"). */
export function formatCropValue(value: number): string {
  return value.toFixed(2);
}

/**
 * A crop value as a number within its limits: x and y 0–100, zoom 100–200; missing or unreadable
 * values fall back to the default (50, 50, 100). Zoom is rounded to whole percent (step 1).
 */
export function clampCrop(field: CropField, value: CropInput): number {
  const { min, max } = CROP_LIMITS[field];
  const text = typeof value === 'string' ? value.trim().replace(',', '.') : undefined;
  const parsed = typeof value === 'number' ? value : text ? Number(text) : Number.NaN;
  if (!Number.isFinite(parsed)) return CROP_DEFAULTS[field];
  // Zoom moves in whole steps; positions keep the two stored decimals.
  const rounded =
    field === 'scale'
      ? Math.round(parsed / CROP_LIMITS.scale.step) * CROP_LIMITS.scale.step
      : Math.round(parsed * 100) / 100;
  return Math.min(max, Math.max(min, rounded));
}

/** All three values clamped (numbers). */
function readCrop(crop: Partial<Record<CropField, CropInput>>): CropNumbers {
  return {
    cropX: clampCrop('cropX', crop.cropX),
    cropY: clampCrop('cropY', crop.cropY),
    scale: clampCrop('scale', crop.scale),
  };
}

/** All three values clamped, as text for the API ("50.00"). */
export function normalizeCrop(crop: Partial<Record<CropField, CropInput>>): CropValues {
  const { cropX, cropY, scale } = readCrop(crop);
  return { cropX: formatCropValue(cropX), cropY: formatCropValue(cropY), scale: formatCropValue(scale) };
}

/** The reset target: 50 / 50 / 100. */
export const DEFAULT_CROP: CropValues = normalizeCrop(CROP_DEFAULTS);

/**
 * CSS framing an image inside a fixed box (use with `object-fit: cover` on an `<img>` filling its
 * box with `overflow: hidden` on the box): object-position from x/y and a transform scaling around
 * the same point, so zooming keeps the chosen spot in view.
 */
export function cropStyle(cropX: CropInput, cropY: CropInput, scale: CropInput): CSSProperties {
  const { cropX: x, cropY: y, scale: zoom } = readCrop({ cropX, cropY, scale });
  return {
    objectFit: 'cover',
    objectPosition: `${x}% ${y}%`,
    transform: `scale(${zoom / 100})`,
    transformOrigin: `${x}% ${y}%`,
  };
}

/** The hero image: the one marked isHero, else the first; undefined for an empty list. */
export function heroOf<T extends { isHero?: boolean | null }>(
  media: readonly T[] | null | undefined,
): T | undefined {
  if (!media || media.length === 0) return undefined;
  return media.find((item) => item.isHero) ?? media[0];
}

/** Makes `id` the only hero (choosing a main image unsets the others). */
export function withHero<T extends { id: string; isHero: boolean }>(items: readonly T[], id: string): T[] {
  return items.map((item) => (item.isHero === (item.id === id) ? item : { ...item, isHero: item.id === id }));
}

/**
 * Keeps exactly one hero when the list is not empty: if none is marked (first upload, or the hero
 * was removed) the first image becomes the hero.
 */
export function ensureHero<T extends { id: string; isHero: boolean }>(items: readonly T[]): T[] {
  if (items.length === 0 || items.some((item) => item.isHero)) return [...items];
  return withHero(items, items[0]!.id);
}
