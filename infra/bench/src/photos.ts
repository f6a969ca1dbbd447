import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from '@schlosstreffen/shared';
import sharp from 'sharp';

/**
 * Test photos: JPEGs of shapes with sensor-like noise, so they compress like photos rather than like
 * flat graphics: 1600 × 1000 at quality 85 (about 250 KB) by default, or a camera's 4000 × 3000 at
 * quality 97 (about 8 MB, BIG_PHOTO). Every fourth carries EXIF orientation 6 (portrait shot held
 * sideways), which the pipelines must rotate.
 */

export interface PhotoSize {
  width: number;
  height: number;
  quality: number;
}

export const BIG_PHOTO: PhotoSize = { width: 4000, height: 3000, quality: 97 };

export async function makePhoto(
  index: number,
  { width: WIDTH, height: HEIGHT, quality }: PhotoSize = { width: 1600, height: 1000, quality: 85 },
): Promise<Buffer> {
  // The drawing is laid out for 1600 × 1000 and scaled to the size asked for.
  const scale = WIDTH / 1600;
  const hue = (index * 47) % 360;
  const shapes = Array.from({ length: 40 }, (_, k) => {
    const cx = (k * 397 + index * 91) % 1600;
    const cy = (k * 211 + index * 53) % 1000;
    const r = 20 + ((k * 37) % 120);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="hsl(${(hue + k * 13) % 360},60%,${30 + ((k * 7) % 40)}%)" fill-opacity="0.5"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 1600 ${HEIGHT / scale}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},50%,30%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},40%,8%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    <rect x="300" y="560" width="1000" height="220" rx="60" fill="hsl(${(hue + 180) % 360},70%,45%)"/>
    <circle cx="480" cy="790" r="90" fill="#111"/><circle cx="1120" cy="790" r="90" fill="#111"/>
  </svg>`;
  const pixels = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const noise = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .raw()
    .toBuffer();
  // The noise is centred on 128 (a uchar image cannot hold negative values).
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + noise[i]! - 128));
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality })
    .withMetadata({ orientation: index % 4 === 3 ? 6 : 1 })
    .toBuffer();
}

/** The WebP renditions as the thumbnail processor writes them (rotate, width, quality 80). */
export async function makeRenditions(photo: Buffer): Promise<Record<ThumbnailWidth, Buffer>> {
  const entries = await Promise.all(
    THUMBNAIL_WIDTHS.map(
      async (width) =>
        [
          width,
          await sharp(photo)
            .rotate()
            .resize({ width, withoutEnlargement: true })
            .webp({ quality: 80 })
            .toBuffer(),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<ThumbnailWidth, Buffer>;
}

export interface PutItem {
  key: string;
  body: Buffer;
  contentType: string;
}

/** Puts objects with a few requests in flight. */
export async function putObjects(s3: S3Client, bucket: string, items: readonly PutItem[], parallel = 8) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: item.key,
          Body: item.body,
          ContentType: item.contentType,
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}
