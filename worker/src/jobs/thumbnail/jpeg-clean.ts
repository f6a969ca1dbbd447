/**
 * A JPEG's own coding without anything else, losslessly: the segments a decoder reads (quantisation
 * and Huffman tables, frame, scans with their entropy-coded data, restart interval, arithmetic
 * conditioning, and Adobe's colour transform flag) are copied byte for byte; every other segment
 * (JFIF with its thumbnail, EXIF with GPS, XMP, ICC, IPTC, MPF, maker notes, comments, unknown ones)
 * and anything after the end of the image (appended videos, second images) is left out. Kept are
 * only listed segments, so a block nobody knows of cannot slip through. Returns undefined for
 * anything that is not a well-formed baseline or progressive JPEG; the caller then re-encodes.
 *
 * With `inPlace`, the kept bytes are moved to the start of `jpeg` itself and the result is a view
 * of it (the input is then no longer the original): no second buffer of the photo's size, which for
 * a camera photo is 8 MB to allocate, fill and collect per image. Nothing is moved when the JPEG is
 * refused.
 */
export function cleanJpeg(jpeg: Buffer, options: { inPlace?: boolean } = {}): Buffer | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  let at = 2;
  let frames = 0;
  let scans = 0;
  for (;;) {
    if (at + 2 > jpeg.length || jpeg[at] !== 0xff) return undefined;
    // Fill bytes may precede a marker.
    while (jpeg[at + 1] === 0xff && at + 2 < jpeg.length) at += 1;
    const marker = jpeg[at + 1]!;
    if (marker === 0xd9) {
      if (frames !== 1 || scans === 0) return undefined;
      parts.push(jpeg.subarray(at, at + 2));
      return options.inPlace ? compact(jpeg, parts) : Buffer.concat(parts);
    }
    if (at + 4 > jpeg.length) return undefined;
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (end > jpeg.length || end < at + 4) return undefined;
    const segment = jpeg.subarray(at, end);
    if (isFrame(marker)) frames += 1;
    if (keeps(marker, segment)) parts.push(segment);
    at = end;
    if (marker === 0xda) {
      scans += 1;
      // The scan's entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor
      // a restart marker; it is copied with the scan.
      const dataEnd = entropyEnd(jpeg, at);
      if (dataEnd === undefined) return undefined;
      parts.push(jpeg.subarray(at, dataEnd));
      at = dataEnd;
    }
  }
}

/**
 * The parts (views of `jpeg`, in order) moved to its start: each lands at or before where it was,
 * and Buffer#copy handles the overlap.
 */
function compact(jpeg: Buffer, parts: Buffer[]): Buffer {
  let length = 0;
  for (const part of parts) {
    const from = part.byteOffset - jpeg.byteOffset;
    if (from !== length) jpeg.copy(jpeg, length, from, from + part.length);
    length += part.length;
  }
  return jpeg.subarray(0, length);
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
const isFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function keeps(marker: number, segment: Buffer): boolean {
  if (isFrame(marker)) return true;
  switch (marker) {
    case 0xc4: // DHT
    case 0xcc: // DAC
    case 0xdb: // DQT
    case 0xdd: // DRI
    case 0xda: // SOS
      return true;
    case 0xee: // APP14: only Adobe's, which says how the colour channels are coded.
      return segment.length === 16 && segment.toString('latin1', 4, 9) === 'Adobe';
    default:
      return false;
  }
}

function entropyEnd(jpeg: Buffer, from: number): number | undefined {
  let at = from;
  for (;;) {
    at = jpeg.indexOf(0xff, at);
    if (at === -1 || at + 1 >= jpeg.length) return undefined;
    const next = jpeg[at + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      at += 2;
      continue;
    }
    if (next === 0xff) {
      at += 1;
      continue;
    }
    return at;
  }
}
