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
import { isSrgbProfile } from './srgb-profile.js';

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

export interface RenderOptions {
  /**
   * Called with the full-size copy as soon as it is ready, while the sizes are still being made
   * (e.g. to start storing it); not called when the image is refused before.
   */
  onFull?: (full: RenderedImage['full']) => void;
}

/**
 * The full-size copy's encoder and content type per format. A JPEG keeps libjpeg's standard Huffman
 * tables: optimised ones make a camera photo about 2 % smaller for about twice the encoding time.
 */
const FULL_ENCODERS: Record<FullFormat, { contentType: string; encode: (image: Sharp) => Sharp }> = {
  jpg: {
    contentType: 'image/jpeg',
    encode: (image) => image.jpeg({ quality: 90, optimiseCoding: false }),
  },
  png: { contentType: 'image/png', encode: (image) => image.png() },
  webp: { contentType: 'image/webp', encode: (image) => image.webp({ quality: 90 }) },
  avif: { contentType: 'image/avif', encode: (image) => image.avif({ quality: 70 }) },
};

/**
 * The full-size copy without re-encoding: an upright sRGB JPEG without colour profile or with an
 * sRGB one, kept as JPEG, loses only its metadata (cleanJpeg), so its pixels stay as they were
 * uploaded. It is written over the original's buffer. Undefined when the image needs re-encoding
 * (another format, rotation, another profile to apply, CMYK or grey).
 */
function losslessFull(original: Buffer, meta: Metadata, format: FullFormat): Buffer | undefined {
  const upright = (meta.orientation ?? 1) === 1;
  if (format !== 'jpg' || meta.format !== 'jpeg' || !upright) return undefined;
  if (meta.icc && !isSrgbProfile(meta.icc)) return undefined;
  if (meta.channels !== 3 || meta.space !== 'srgb') return undefined;
  return cleanJpeg(original, { inPlace: true });
}

const rawOf = ({ width, height, channels }: { width: number; height: number; channels: number }) => ({
  width,
  height,
  channels: channels as 1 | 2 | 3 | 4,
});

const decode = (image: Buffer) => sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });

/**
 * Decodes one image and renders its clean full-size copy (in `format`) and its WebP sizes; anything
 * sharp refuses becomes ImageRejected. Nothing of the upload's metadata is kept (EXIF with GPS, XMP,
 * IPTC, ICC, comments): sharp writes none unless asked to, and an upright JPEG's copy keeps only its
 * coding segments (then the sizes are made from that copy, which proves it decodes); orientation is
 * applied to the pixels. The sizes are decoded at a fraction of the size where the format allows it
 * (JPEG shrink-on-load). Pure (no queue, database or storage), so the benchmark's raw reference runs
 * this very pipeline. `original` is handed over: an upright JPEG's clean copy is written over it.
 */
export async function renderRenditions(
  original: Buffer,
  format: FullFormat,
  options: RenderOptions = {},
): Promise<RenderedImage> {
  const input = decode(original);
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
    let full: Buffer;
    let largest: { data: Buffer; info: { width: number; height: number; channels: number } };
    const toLargest = (image: Sharp) =>
      image
        .resize({ width: Math.max(...THUMBNAIL_WIDTHS), withoutEnlargement: true })
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    const ready = (data: Buffer) => {
      options.onFull?.({ data, contentType: encoder.contentType });
      return data;
    };
    if (kept) {
      // The sizes from the clean copy (which proves it decodes), at a fraction of its size.
      full = ready(kept);
      largest = await toLargest(decode(kept));
    } else if (format === 'jpg' && meta.format === 'jpeg' && meta.channels === 3) {
      // A JPEG to re-encode (turned, another profile): one decode, oriented and in sRGB, for the
      // full-size copy and the sizes.
      const pixels = await input
        .clone()
        .rotate()
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
      const fromPixels = () => sharp(pixels.data, { raw: rawOf(pixels.info) });
      [full, largest] = await Promise.all([
        encoder.encode(fromPixels()).toBuffer().then(ready),
        toLargest(fromPixels()),
      ]);
    } else {
      full = ready(await encoder.encode(input.clone().rotate()).toBuffer());
      // One decode for all sizes (a JPEG's at a fraction of its size).
      largest = await toLargest(input.clone().rotate());
    }
    // Each size from the largest size's pixels, one at a time.
    const renditions: RenderedImage['renditions'] = [];
    for (const size of THUMBNAIL_WIDTHS) {
      const data = await sharp(largest.data, { raw: rawOf(largest.info) })
        .resize({ width: size, withoutEnlargement: true })
        .webp(WEBP)
        .toBuffer();
      renditions.push({ width: size, data });
    }
    return {
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      full: { data: full, contentType: encoder.contentType },
      renditions,
    };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ImageRejected(
      /pixel limit/i.test(message) ? IMAGE_REJECTION_REASONS.tooManyPixels : IMAGE_REJECTION_REASONS.invalid,
    );
  }
}
