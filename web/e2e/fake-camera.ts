import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/**
 * A fake camera for Chromium: a Y4M video showing a QR code, for
 * `--use-fake-device-for-media-stream --use-file-for-fake-video-capture=<file>` (the browser loops it).
 */

export const FAKE_CAMERA = { width: 640, height: 480, frames: 10, fps: 10 } as const;

/** Chromium flags that answer the camera prompt with `file` as the camera. */
export function fakeCameraArgs(file: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${file}`,
  ];
}

/**
 * Writes `file` as a YUV4MPEG2 (I420) video: the QR code image (PNG bytes, e.g. the invitation mail's
 * attachment) centred on a white 640×480 frame, repeated for a second at 10 fps.
 */
export async function writeQrY4m(pngBytes: Buffer, file: string): Promise<void> {
  const { width, height, frames, fps } = FAKE_CAMERA;
  // The code at 3/4 of the frame height, kept sharp (nearest neighbour), on white.
  const size = Math.round(height * 0.75);
  const code = await sharp(pngBytes)
    .flatten({ background: '#ffffff' })
    .resize(size, size, { fit: 'contain', background: '#ffffff', kernel: 'nearest' })
    .png()
    .toBuffer();
  const { data, info } = await sharp({
    create: { width, height, channels: 3, background: '#ffffff' },
  })
    .composite([{ input: code, left: Math.round((width - size) / 2), top: Math.round((height - size) / 2) }])
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });

  // Luma straight from the grey image (full range, as C420jpeg says); chroma neutral.
  const luma = Buffer.alloc(width * height);
  for (let i = 0; i < luma.length; i += 1) luma[i] = data[i * info.channels] ?? 255;
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);

  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  await writeFile(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
