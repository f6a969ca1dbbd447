/**
 * Where a backup to verify or restore comes from: a plain directory as backup:create writes it, a
 * directory of encrypted files (an offsite copy downloaded), or a copy in the second bucket read
 * straight from there. An encrypted one is decrypted file by file into a private scratch directory
 * (every tag checked), which the caller removes when done.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { privateDirectory, type OffsiteConfig } from '../../core/storage/backup-storage.js';
import { listKeys } from '../../core/storage/s3.js';
import { decryptToFile, isEncrypted } from './encryption.js';
import { MANIFEST_FILE, formatBytes, objectFile, readManifest, throttled } from './manifest.js';
import { backupMoment } from './rotation.js';

export type BackupSource =
  | { dir: string }
  /** A copy in the second bucket by its name (`2026-11-27T02-30-00Z`), or the newest one (`latest`). */
  | { offsite: OffsiteConfig; name: string };

export interface OpenedBackup {
  /** A plain backup directory. */
  dir: string;
  /** Where it came from, for the person at the terminal. */
  description: string;
  /** Removes the scratch directory of a decrypted copy (nothing for a plain one). */
  close(): Promise<void>;
}

/** Whether the manifest of a directory is an encrypted copy's. */
async function encryptedDirectory(dir: string): Promise<boolean> {
  const handle = await open(path.join(dir, MANIFEST_FILE), 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return isEncrypted(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** A private scratch directory for a decrypted copy: in BACKUP_DIR when set (room for backups), else the system's. */
async function scratchDirectory(): Promise<string> {
  const backups = process.env.BACKUP_DIR ? path.resolve(process.env.BACKUP_DIR) : undefined;
  // The backup directory is the backups' own (0700); the system's temporary directory stays as it is.
  if (backups) await privateDirectory(backups);
  const dir = await mkdtemp(path.join(backups ?? os.tmpdir(), 'decrypted-'));
  await privateDirectory(dir);
  return dir;
}

/** The names of the backups copied to the second bucket (`<prefix><name>/`). */
export async function offsiteBackupNames(offsite: OffsiteConfig): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await offsite.s3.send(
      new ListObjectsV2Command({
        Bucket: offsite.bucket,
        Prefix: offsite.prefix,
        Delimiter: '/',
        ContinuationToken: token,
      }),
    );
    for (const entry of page.CommonPrefixes ?? []) {
      const name = entry.Prefix?.slice(offsite.prefix.length).replace(/\/$/, '');
      if (name && backupMoment(name)) names.push(name);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names;
}

/** The newest backup name in the second bucket. */
async function latestOffsite(offsite: OffsiteConfig): Promise<string> {
  const names = await offsiteBackupNames(offsite);
  const newest = names.sort().at(-1);
  if (!newest) throw new Error(`no backup in ${offsite.description} under ${offsite.prefix}`);
  return newest;
}

/**
 * Decrypts the files of a copy into `into`: the manifest first (a wrong key stops there), then every
 * file it lists. `read` opens one file of the copy by its path in the backup.
 */
async function decryptCopy(
  key: Buffer,
  read: (file: string) => Promise<Readable>,
  into: string,
  log: (line: string) => void,
): Promise<void> {
  await decryptToFile(key, MANIFEST_FILE, await read(MANIFEST_FILE), path.join(into, MANIFEST_FILE));
  const manifest = await readManifest(into);
  const files = [manifest.database.dump, ...manifest.objects];
  const progress = throttled(2000, log);
  let bytes = 0;
  for (const [index, file] of files.entries()) {
    const target =
      file.path === manifest.database.dump.path
        ? path.join(into, file.path)
        : objectFile(into, file.path.slice('objects/'.length));
    if (!target) throw new Error(`refusing the path ${file.path}`);
    await privateDirectory(path.dirname(target));
    await decryptToFile(key, file.path, await read(file.path), target);
    bytes += file.size;
    progress(
      `decrypted ${index + 1}/${files.length} files (${formatBytes(bytes)})`,
      index + 1 === files.length,
    );
  }
}

/** Opens a backup for verify or restore; an encrypted one needs BACKUP_ENCRYPTION_KEY. */
export async function openBackup(
  source: BackupSource,
  key: Buffer | undefined,
  log: (line: string) => void,
): Promise<OpenedBackup> {
  const needKey = (what: string) => {
    if (!key) throw new Error(`${what} is encrypted: set BACKUP_ENCRYPTION_KEY to the key of the copies`);
    return key;
  };
  if ('dir' in source) {
    const dir = path.resolve(source.dir);
    if (!(await encryptedDirectory(dir))) return { dir, description: dir, close: async () => undefined };
    const secret = needKey(dir);
    const scratch = await scratchDirectory();
    try {
      log(`${dir} is an encrypted copy: decrypting into ${scratch}`);
      await decryptCopy(
        secret,
        async (file) => createReadStream(path.join(dir, ...file.split('/'))),
        scratch,
        log,
      );
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    return { dir: scratch, description: dir, close: () => rm(scratch, { recursive: true, force: true }) };
  }
  const { offsite } = source;
  const name = source.name === 'latest' ? await latestOffsite(offsite) : source.name;
  const base = `${offsite.prefix}${name}/`;
  const description = `${offsite.description}, ${base}`;
  if (!(await listKeys(offsite.s3, offsite.bucket, `${base}${MANIFEST_FILE}`)).length)
    throw new Error(`no backup ${name} in ${offsite.description} under ${offsite.prefix}`);
  const secret = needKey(description);
  const scratch = await scratchDirectory();
  try {
    log(`reading ${description}, decrypting into ${scratch}`);
    await decryptCopy(
      secret,
      async (file) => {
        const answer = await offsite.s3.send(
          new GetObjectCommand({ Bucket: offsite.bucket, Key: `${base}${file}` }),
        );
        return answer.Body as Readable;
      },
      scratch,
      log,
    );
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return { dir: scratch, description, close: () => rm(scratch, { recursive: true, force: true }) };
}
