import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gradientJpeg, hasGpsIfd } from '../../test-photos.js';
import { cleanJpeg } from './jpeg-clean.js';

/** A segment with marker 0xFF`marker` and this payload. */
function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** The JPEG with extra segments right after SOI and bytes appended after EOI. */
const withSegments = (jpeg: Buffer, segments: Buffer[], trailer = Buffer.alloc(0)) =>
  Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2), trailer]);

const pixels = (image: Buffer) => sharp(image).raw().toBuffer();

/** A photo as phones and editors leave it: EXIF with GPS, XMP, IPTC, ICC, a comment, a video appended. */
async function loadedJpeg(options: { progressive?: boolean } = {}) {
  const base = await sharp(await gradientJpeg(640, 480, { gps: true }))
    .keepExif()
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description>Standort Museumsinsel</rdf:Description></x:xmpmeta>',
    )
    .jpeg({ quality: 90, progressive: options.progressive ?? false })
    .toBuffer();
  return withSegments(
    base,
    [
      segment(0xed, Buffer.from('Photoshop 3.0\0IPTC Fotograf Lena Weber', 'latin1')),
      segment(0xe2, Buffer.from('ICC_PROFILE\0\x01\x01fake profile', 'latin1')),
      segment(0xfe, Buffer.from('Kommentar: Lena Weber, Tel. 0170 1234567', 'latin1')),
    ],
    Buffer.from('ftypmp42 appended motion video', 'latin1'),
  );
}

describe('cleanJpeg', () => {
  it.each([false, true])(
    'keeps the pixels and nothing else of the file (progressive: %s)',
    async (progressive) => {
      const loaded = await loadedJpeg({ progressive });
      const before = await sharp(loaded).metadata();
      expect(hasGpsIfd(before.exif!)).toBe(true);
      expect(before.xmp).toBeDefined();

      const clean = cleanJpeg(loaded)!;
      expect(clean).toBeDefined();
      const meta = await sharp(clean).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 640, height: 480, isProgressive: progressive });
      for (const block of ['exif', 'xmp', 'iptc', 'icc', 'comments'] as const) {
        expect(meta[block], block).toBeUndefined();
      }
      const text = clean.toString('latin1');
      for (const trace of ['Exif', 'Testkamera', 'Museumsinsel', 'Lena', 'JFIF', 'ftyp', 'ICC_PROFILE']) {
        expect(text, trace).not.toContain(trace);
      }
      expect(clean.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
      expect((await pixels(clean)).equals(await pixels(loaded))).toBe(true);
    },
  );

  it('writes the same clean copy over the input when asked to', async () => {
    const loaded = await loadedJpeg({ progressive: true });
    const clean = cleanJpeg(loaded)!;
    const input = Buffer.from(loaded);
    const inPlace = cleanJpeg(input, { inPlace: true })!;
    expect(inPlace.equals(clean)).toBe(true);
    expect(inPlace.buffer).toBe(input.buffer);
    expect(inPlace.byteOffset).toBe(input.byteOffset);
    // A refused file is left as it was.
    const broken = Buffer.from(loaded.subarray(0, loaded.length - 100));
    const copy = Buffer.from(broken);
    expect(cleanJpeg(broken, { inPlace: true })).toBeUndefined();
    expect(broken.equals(copy)).toBe(true);
  });

  it('keeps Adobe’s colour transform flag, which decoders need', async () => {
    const adobe = segment(0xee, Buffer.from('Adobe\0\x64\0\0\0\0\x01', 'latin1'));
    const jpeg = withSegments(await gradientJpeg(64, 64), [adobe]);
    expect(cleanJpeg(jpeg)!.includes(adobe)).toBe(true);
  });

  it('refuses what is no well-formed JPEG', async () => {
    const jpeg = await gradientJpeg(64, 64);
    expect(cleanJpeg(jpeg.subarray(0, jpeg.length - 100))).toBeUndefined();
    expect(cleanJpeg(jpeg.subarray(0, 200))).toBeUndefined();
    expect(cleanJpeg(await sharp(jpeg).png().toBuffer())).toBeUndefined();
    expect(cleanJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
  });
});
