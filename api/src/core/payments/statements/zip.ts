import { fromBufferPromise } from 'yauzl';
import { DomainError } from '../../errors.js';
import { STATEMENT_MESSAGES as M } from './messages.js';

const MIB = 1024 * 1024;

/**
 * What a ZIP of statements may hold. A bank's archive of a year of daily statements has a few
 * hundred small files; anything far beyond is refused before it is inflated.
 */
export const ZIP_LIMITS = {
  maxEntries: 1000,
  /** Uncompressed bytes of one file (a statement of 5,000 entries is about 5–15 MB). */
  maxEntryBytes: 32 * MIB,
  /** Uncompressed bytes of all files together. */
  maxTotalBytes: 64 * MIB,
};
export type ZipLimits = typeof ZIP_LIMITS;

export interface ZipMember {
  name: string;
  bytes: Uint8Array;
}

export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  (bytes[2] === 0x03 || bytes[2] === 0x05) &&
  bytes[3] === bytes[2] + 1;

/** yauzl's refusals in German: names that leave the archive, sizes that lie, a broken archive. */
function germanZipError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const badName = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(
    message,
  );
  if (badName) return new DomainError('invalid', M.zipBadName(badName[1]!));
  if (/bytes in the stream|size mismatch/.test(message)) return new DomainError('invalid', M.zipSizeMismatch);
  return new DomainError('invalid', M.zipBroken);
}

/**
 * The files of a ZIP archive, read in memory within limits: at most `maxEntries` files, each and
 * all together at most their byte limits by the sizes the archive declares, and those sizes are
 * checked while inflating (yauzl's `validateEntrySizes`), so a lying header cannot inflate more.
 * Names with '..', absolute paths or backslashes are refused (yauzl's `strictFileNames`); folders,
 * macOS' '__MACOSX/' copies and hidden files are passed over. Nothing is written to disk.
 */
export async function readZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Promise<ZipMember[]> {
  const members: ZipMember[] = [];
  try {
    const zip = await fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: true,
    });
    if (zip.entryCount > limits.maxEntries)
      throw new DomainError('too_large', M.zipTooManyFiles(limits.maxEntries));
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const base = name.slice(name.lastIndexOf('/') + 1);
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.')) continue;
      if (entry.isEncrypted()) throw new DomainError('invalid', M.zipEncrypted(name));
      if (!entry.canDecodeFileData()) throw new DomainError('unsupported_media_type', M.zipUnsupported(name));
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new DomainError('too_large', M.zipEntryTooLarge(name, limits.maxEntryBytes));
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) {
        throw new DomainError('too_large', M.zipTooLarge(limits.maxTotalBytes));
      }
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      members.push({ name, bytes: Buffer.concat(chunks) });
    }
  } catch (error) {
    throw germanZipError(error);
  }
  if (members.length === 0) throw new DomainError('invalid', M.zipEmpty);
  return members;
}
