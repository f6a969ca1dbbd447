/**
 * A backup directory: `database.dump` (pg_dump, custom format), `objects/<key>` (every object the
 * database named at the snapshot) and `manifest.json`, which lists every other file with its size
 * and SHA-256. `verifyBackup` recomputes them all.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
export const DUMP_FILE = 'database.dump';
export const OBJECTS_DIR = 'objects';
export const MANIFEST_FORMAT = 1;

export interface ManifestFile {
  /** Relative to the backup directory, with '/' separators. */
  path: string;
  size: number;
  sha256: string;
}

export interface ManifestObject extends ManifestFile {
  key: string;
  contentType?: string;
  cacheControl?: string;
  metadata?: Record<string, string>;
}

export interface Manifest {
  format: number;
  app: { name: string; version: string };
  /** The snapshot's moment (the database's clock): what the backup holds is the state at it. */
  createdAt: string;
  database: {
    serverVersion: string;
    /** The database's name at the source. */
    name: string;
    dump: ManifestFile;
  };
  /** Applied migrations at the snapshot, in order. */
  migrations: string[];
  /** Rows per table of the public schema at the snapshot. */
  tables: Record<string, number>;
  objects: ManifestObject[];
  /** Keys the database named that the bucket did not hold (renditions not yet rendered, uploads already cleaned). */
  absent: string[];
}

/** SHA-256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The file of an object key under the backup directory; undefined for a key that would leave it. */
export function objectFile(dir: string, key: string): string | undefined {
  if (!key || key.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return path.join(dir, OBJECTS_DIR, ...key.split('/'));
}

export async function readManifest(dir: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new Error(
      `${dir}: manifest format ${manifest.format}, this version reads format ${MANIFEST_FORMAT}`,
    );
  }
  return manifest;
}

/** Every file below `dir`, relative with '/' separators. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

export interface VerifyReport {
  files: number;
  bytes: number;
  /** One line per difference: a changed, missing or extra file, or an unreadable manifest. */
  problems: string[];
}

/**
 * Recomputes every file's size and checksum against the manifest; a file missing or one the
 * manifest does not list is a problem too. `progress` is called as files are read.
 */
export async function verifyBackup(
  dir: string,
  progress?: (done: number, total: number, bytes: number) => void,
): Promise<VerifyReport> {
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch (error) {
    return { files: 0, bytes: 0, problems: [`manifest.json: ${(error as Error).message}`] };
  }
  const listed: ManifestFile[] = [manifest.database.dump, ...manifest.objects];
  const problems: string[] = [];
  const present = new Set(await filesBelow(dir).catch(() => [] as string[]));
  const expected = new Set(listed.map((file) => file.path));
  for (const file of present) {
    if (file !== MANIFEST_FILE && !expected.has(file)) problems.push(`${file}: not in the manifest`);
  }
  let bytes = 0;
  let done = 0;
  for (const file of listed) {
    done += 1;
    if (!present.has(file.path)) {
      problems.push(`${file.path}: missing`);
      continue;
    }
    const actual = await hashFile(path.join(dir, ...file.path.split('/')));
    bytes += actual.size;
    if (actual.size !== file.size)
      problems.push(`${file.path}: ${actual.size} bytes, manifest says ${file.size}`);
    else if (actual.sha256 !== file.sha256) problems.push(`${file.path}: checksum differs from the manifest`);
    progress?.(done, listed.length, bytes);
  }
  return { files: listed.length, bytes, problems };
}

export const formatBytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Calls `report` at most every `everyMs` and for the last item: progress lines for long steps. */
export function throttled(everyMs: number, report: (line: string) => void) {
  let last = 0;
  return (line: string, final = false) => {
    const now = Date.now();
    if (final || now - last >= everyMs) {
      last = now;
      report(line);
    }
  };
}
