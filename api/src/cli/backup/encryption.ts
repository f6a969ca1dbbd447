/**
 * Offsite copies are encrypted file by file with AES-256-GCM under BACKUP_ENCRYPTION_KEY: a header
 * (`STBACKUP` and a format byte), a random 96-bit nonce per file, the ciphertext and the 128-bit
 * tag. The file's path inside its backup is the associated data, so no file can pass for another.
 * Decrypting checks the tag before a file is kept: a wrong key or a changed byte leaves nothing.
 */
import { createCipheriv, createDecipheriv, randomBytes, type DecipherGCM } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE_MODE } from '../../core/storage/backup-storage.js';

const MAGIC = Buffer.from('STBACKUP\x01', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + NONCE_BYTES;

/** The size of a file's encrypted copy. */
export const encryptedSize = (plainBytes: number) => HEADER_BYTES + plainBytes + TAG_BYTES;

/** Whether bytes begin as an encrypted copy does. */
export const isEncrypted = (head: Buffer) =>
  head.length >= MAGIC.length && head.subarray(0, MAGIC.length).equals(MAGIC);

/** A copy that does not decrypt: the wrong key, or a file changed or cut short. */
export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** The encrypted copy of a file's bytes, as a stream of `encryptedSize(size)` bytes. */
export function encrypting(key: Buffer, path: string, plain: AsyncIterable<Buffer>): Readable {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(path, 'utf8'));
  return Readable.from(
    (async function* () {
      yield Buffer.concat([MAGIC, nonce]);
      for await (const chunk of plain) {
        const out = cipher.update(chunk);
        if (out.length) yield out;
      }
      const last = cipher.final();
      if (last.length) yield last;
      yield cipher.getAuthTag();
    })(),
  );
}

/**
 * Decrypts a stream of an encrypted copy: holds back the last 16 bytes (the tag) and checks them at
 * the end, failing with a DecryptionError when they do not match.
 */
class Decrypting extends Transform {
  private header = Buffer.alloc(0);
  private held = Buffer.alloc(0);
  private decipher: DecipherGCM | undefined;

  constructor(
    private readonly key: Buffer,
    private readonly path: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      let data = chunk;
      if (!this.decipher) {
        this.header = Buffer.concat([this.header, data]);
        if (this.header.length < HEADER_BYTES) return done();
        if (!isEncrypted(this.header))
          throw new DecryptionError(`${this.path}: not an encrypted backup file`);
        this.decipher = createDecipheriv(
          'aes-256-gcm',
          this.key,
          this.header.subarray(MAGIC.length, HEADER_BYTES),
        );
        this.decipher.setAAD(Buffer.from(this.path, 'utf8'));
        data = this.header.subarray(HEADER_BYTES);
      }
      const all = Buffer.concat([this.held, data]);
      const cut = Math.max(0, all.length - TAG_BYTES);
      this.held = all.subarray(cut);
      if (cut > 0) this.push(this.decipher.update(all.subarray(0, cut)));
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (!this.decipher || this.held.length < TAG_BYTES) {
      return done(new DecryptionError(`${this.path}: cut short, not a whole encrypted file`));
    }
    try {
      this.decipher.setAuthTag(this.held);
      this.push(this.decipher.final());
      done();
    } catch {
      done(
        new DecryptionError(
          `${this.path}: the tag does not match (a BACKUP_ENCRYPTION_KEY other than the copy's, or a changed file)`,
        ),
      );
    }
  }
}

/**
 * Decrypts an encrypted copy into `file` (0600), written under a temporary name and renamed once its
 * tag is checked: a copy that does not decrypt leaves no file.
 */
export async function decryptToFile(
  key: Buffer,
  path: string,
  encrypted: NodeJS.ReadableStream | Readable,
  file: string,
): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await pipeline(
      encrypted,
      new Decrypting(key, path),
      createWriteStream(partial, { mode: PRIVATE_FILE_MODE }),
    );
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
