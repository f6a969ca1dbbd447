import {
  IMAGE_REJECTION_REASONS,
  MAX_IMAGE_PIXELS,
  THUMBNAIL_WIDTHS,
  type ThumbnailWidth,
} from '@schlosstreffen/shared';
import type { FullFormat } from '@schlosstreffen/api/core';
import type { Metadata, Sharp } from 'sharp';
import sharp from '../../adapters/sharp.js';
import { cleanJpeg } from './jpeg-clean.js';

/** Effort 2 of 6: for photos about the size of the default effort 4 in two thirds of the time. */
const WEBP = { quality: 80, effort: 2 } as const;

/** Decoders we accept (AVIF reports as heif); SVG, TIFF and the like are refused. */
const ACCEPTED_FORMATS = new Set<string>(['jpeg', 'png', 'webp', 'gif', 'heif']);

export class ImageRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface RenderedImage {
  /** The original's size after orientation. */
  width: number;
  height: number;
  /** The clean full-size copy: oriented, every metadata block removed, in the requested format. */
  full: { data: Buffer; contentType: string };
  renditions: { width: ThumbnailWidth; data: Buffer }[];
}

/** The full-size copy's encoder and content type per format. */
const FULL_ENCODERS: Record<FullFormat, { contentType: string; encode: (image: Sharp) => Sharp }> = {
  jpg: { contentType: 'image/jpeg', encode: (image) => image.jpeg({ quality: 90 }) },
  png: { contentType: 'image/png', encode: (image) => image.png() },
  webp: { contentType: 'image/webp', encode: (image) => image.webp({ quality: 90 }) },
  avif: { contentType: 'image/avif', encode: (image) => image.avif({ quality: 70 }) },
};

/**
 * The full-size copy without re-encoding: an upright sRGB JPEG without colour profile, kept as
 * JPEG, loses only its metadata (cleanJpeg), so its pixels stay as they were uploaded. Undefined
 * when the image needs re-encoding (another format, rotation, a profile to apply, CMYK or grey).
 */
function losslessFull(original: Buffer, meta: Metadata, format: FullFormat): Buffer | undefined {
  const upright = (meta.orientation ?? 1) === 1;
  if (format !== 'jpg' || meta.format !== 'jpeg' || !upright || meta.icc) return undefined;
  if (meta.channels !== 3 || meta.space !== 'srgb') return undefined;
  return cleanJpeg(original);
}

const decode = (image: Buffer) => sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });

/**
 * Decodes one image and renders its clean full-size copy (in `format`) and its WebP sizes; anything
 * sharp refuses becomes ImageRejected. Nothing of the upload's metadata is kept (EXIF with GPS, XMP,
 * IPTC, ICC, comments): sharp writes none unless asked to, and an upright JPEG's copy keeps only its
 * coding segments (then the sizes are made from that copy, which proves it decodes); orientation is
 * applied to the pixels. The sizes are decoded at a fraction of the size where the format allows it
 * (JPEG shrink-on-load). Pure (no queue, database or storage), so the benchmark's raw reference runs
 * this very pipeline.
 */
export async function renderRenditions(original: Buffer, format: FullFormat): Promise<RenderedImage> {
  let input = decode(original);
  try {
    const meta = await input.metadata();
    if (!ACCEPTED_FORMATS.has(meta.format)) throw new ImageRejected(IMAGE_REJECTION_REASONS.unsupported);
    // The prebuilt libvips decodes AVIF but not HEVC (most HEIC photos).
    if (meta.format === 'heif' && meta.compression !== 'av1') {
      throw new ImageRejected(IMAGE_REJECTION_REASONS.unsupported);
    }
    if (meta.width * meta.height > MAX_IMAGE_PIXELS)
      throw new ImageRejected(IMAGE_REJECTION_REASONS.tooManyPixels);
    const encoder = FULL_ENCODERS[format];
    const kept = losslessFull(original, meta, format);
    if (kept) input = decode(kept);
    const full = {
      data: kept ?? (await encoder.encode(input.clone().rotate()).toBuffer()),
      contentType: encoder.contentType,
    };
    // One decode for all sizes (a JPEG's at a fraction of its size): the largest size's pixels, from
    // which each size is encoded, one at a time.
    const largest = await input
      .clone()
      .rotate()
      .resize({ width: Math.max(...THUMBNAIL_WIDTHS), withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = largest.info;
    const renditions: RenderedImage['renditions'] = [];
    for (const size of THUMBNAIL_WIDTHS) {
      const data = await sharp(largest.data, { raw: { width, height, channels } })
        .resize({ width: size, withoutEnlargement: true })
        .webp(WEBP)
        .toBuffer();
      renditions.push({ width: size, data });
    }
    return { width: meta.autoOrient.width, height: meta.autoOrient.height, full, renditions };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ImageRejected(
      /pixel limit/i.test(message) ? IMAGE_REJECTION_REASONS.tooManyPixels : IMAGE_REJECTION_REASONS.invalid,
    );
  }
}
