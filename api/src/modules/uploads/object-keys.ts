import { randomUUID } from 'node:crypto';
import path from 'node:path';

/** Where objects live in the bucket and how they are addressed as `/objects/{key}`. */

export const OBJECTS_PREFIX = '/objects/';

/** Every upload of a user lies under this prefix. */
export const uploadPrefix = (userId: string) => `uploads/${userId}/`;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** A fresh, unguessable key for an upload; the extension follows the file name, else the type. */
export function newUploadKey(userId: string, filename: string, type: string): string {
  const fromName = path
    .extname(filename)
    .slice(1)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const ext = (fromName && fromName.length <= 5 ? fromName : undefined) ?? EXTENSIONS[type] ?? 'bin';
  return `${uploadPrefix(userId)}${randomUUID()}.${ext}`;
}

export const objectPathOf = (key: string) => `${OBJECTS_PREFIX}${key}`;

/** The bucket key of an `/objects/{key}` path, or undefined for anything else. */
export function keyOf(objectPath: string): string | undefined {
  if (!objectPath.startsWith(OBJECTS_PREFIX)) return undefined;
  const key = objectPath.slice(OBJECTS_PREFIX.length);
  if (!key || key.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return key;
}

/** The user id encoded in an upload key, if it is one. */
export function uploaderOf(key: string): string | undefined {
  return /^uploads\/([0-9a-f-]{36})\//.exec(key)?.[1];
}
