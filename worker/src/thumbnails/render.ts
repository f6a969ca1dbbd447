import {
  IMAGE_REJECTION_REASONS,
  MAX_IMAGE_PIXELS,
  THUMBNAIL_WIDTHS,
  type ThumbnailWidth,
} from '@schlosstreffen/shared';
import sharp from '../adapters/sharp.js';

/** Decoders we accept (AVIF reports as heif); SVG, TIFF and the like are refused. */
const ACCEPTED_FORMATS = new Set<string>(['jpeg', 'png', 'webp', 'gif', 'heif']);

export class ImageRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface RenderedThumbnails {
  /** The original's size after orientation. */
  width: number;
  height: number;
  renditions: { width: ThumbnailWidth; data: Buffer }[];
}

/**
 * Decodes one image and renders its WebP sizes; anything sharp refuses becomes ImageRejected. Pure
 * (no queue, database or storage), so the benchmark's raw reference runs this very pipeline.
 */
export async function renderThumbnails(original: Buffer): Promise<RenderedThumbnails> {
  const input = sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
  try {
    const meta = await input.metadata();
    if (!ACCEPTED_FORMATS.has(meta.format)) throw new ImageRejected(IMAGE_REJECTION_REASONS.unsupported);
    // The prebuilt libvips decodes AVIF but not HEVC (most HEIC photos).
    if (meta.format === 'heif' && meta.compression !== 'av1') {
      throw new ImageRejected(IMAGE_REJECTION_REASONS.unsupported);
    }
    if (meta.width * meta.height > MAX_IMAGE_PIXELS)
      throw new ImageRejected(IMAGE_REJECTION_REASONS.tooManyPixels);
    const renditions: RenderedThumbnails['renditions'] = [];
    // One size at a time; metadata is not kept, so EXIF (GPS included), XMP and IPTC are dropped.
    for (const width of THUMBNAIL_WIDTHS) {
      const data = await input
        .clone()
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      renditions.push({ width, data });
    }
    return { width: meta.autoOrient.width, height: meta.autoOrient.height, renditions };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ImageRejected(
      /pixel limit/i.test(message) ? IMAGE_REJECTION_REASONS.tooManyPixels : IMAGE_REJECTION_REASONS.invalid,
    );
  }
}
