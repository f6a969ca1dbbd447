import { crc32 } from 'node:zlib';
import { expect } from 'vitest';

export interface ZipEntry {
  name: string;
  method: number;
  data: Buffer;
}

/** Reads a ZIP through its central directory and checks each entry's size and CRC. */
export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd, 'end of central directory').toBeGreaterThanOrEqual(0);
  expect(eocd + 22 + zip.readUInt16LE(eocd + 20), 'nothing after the archive').toBe(zip.length);
  const count = zip.readUInt16LE(eocd + 10);
  const size = zip.readUInt32LE(eocd + 12);
  let at = zip.readUInt32LE(eocd + 16);
  expect(at + size).toBe(eocd);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    expect(zip.readUInt32LE(at), `central header ${i}`).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const uncompressed = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(local), `local header of ${name}`).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    expect(compressed, name).toBe(uncompressed);
    expect(crc32(data) >>> 0, `crc of ${name}`).toBe(crc);
    entries.push({ name, method, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
