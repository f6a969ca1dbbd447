import sharp from 'sharp';

/** Photos as phones take them, for tests of what leaves the server. */

export const RED = { r: 220, g: 20, b: 20 };

/** EXIF as a phone writes it: camera and the GPS position where the photo was taken. */
const CAMERA_EXIF = {
  IFD0: { Make: 'Testkamera', Model: 'T1' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 8/1 0/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '11/1 34/1 0/1',
  },
};

/**
 * A photo-like JPEG of the given size: a colour gradient (so it is no trivially small file), with
 * the camera's EXIF and GPS tags when `gps` is set.
 */
export async function gradientJpeg(
  width: number,
  height: number,
  { gps = false, blue = 128 }: { gps?: boolean; blue?: number } = {},
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      raw[at] = (x * 255) / width;
      raw[at + 1] = (y * 255) / height;
      raw[at + 2] = blue;
    }
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return (gps ? image.withExif(CAMERA_EXIF) : image).jpeg({ quality: 85 }).toBuffer();
}
export const BLUE = { r: 20, g: 20, b: 220 };

/**
 * A 2000×1000 JPEG, left half red and right half blue, with EXIF orientation 6 (display rotated 90°
 * clockwise: the stored left edge becomes the top) and GPS tags.
 */
export async function phoneJpeg(): Promise<Buffer> {
  const red = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: RED } })
    .png()
    .toBuffer();
  const canvas = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: BLUE } })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return sharp(canvas)
    .withExif(CAMERA_EXIF)
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Whether IFD0 of an EXIF block points to a GPS IFD (tag 0x8825). */
export function hasGpsIfd(exif: Buffer): boolean {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  for (let i = 0; i < u16(ifd0); i += 1) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}
