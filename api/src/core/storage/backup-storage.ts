/**
 * Where backups and the erasure journal live beyond one host, from the environment: the second
 * bucket (BACKUP_S3_*) that takes the encrypted offsite copies and the journal, the local backup
 * directory (BACKUP_DIR, the backup service's own volume), and the key of the offsite copies
 * (BACKUP_ENCRYPTION_KEY). Read by the backup commands and by the worker, which writes the journal.
 */
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import * as v from 'valibot';
import { ConfigError } from '../config.js';
import { createS3Client } from './s3.js';

/** The second bucket, elsewhere: offsite copies under `<prefix><moment>/`, the journal under `<prefix>erasures/`. */
export interface OffsiteConfig {
  s3: S3Client;
  bucket: string;
  prefix: string;
  description: string;
}

const BackupStorageSchema = v.object({
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  BACKUP_S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url('BACKUP_S3_ENDPOINT: a URL'))),
  BACKUP_S3_REGION: v.optional(v.string(), 'us-east-1'),
  BACKUP_S3_BUCKET: v.optional(v.string()),
  BACKUP_S3_ACCESS_KEY_ID: v.optional(v.string()),
  BACKUP_S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  BACKUP_S3_FORCE_PATH_STYLE: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
  /** Key prefix of the backups (and the journal) in the second bucket. */
  BACKUP_S3_PREFIX: v.optional(v.string(), 'schlosstreffen-backups/'),
  BACKUP_ENCRYPTION_KEY: v.optional(v.string()),
});

export interface BackupStorage {
  /** BACKUP_DIR, resolved. */
  dir?: string;
  offsite?: OffsiteConfig;
  /** AES-256-GCM key of the offsite copies (32 bytes). */
  encryptionKey?: Buffer;
}

/** The size of BACKUP_ENCRYPTION_KEY: AES-256. */
export const ENCRYPTION_KEY_BYTES = 32;

/** Parses BACKUP_ENCRYPTION_KEY: 32 random bytes, base64 (`openssl rand -base64 32`). */
export function parseEncryptionKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== ENCRYPTION_KEY_BYTES || !/^[A-Za-z0-9+/]+={0,2}$/.test(value.trim())) {
    throw new ConfigError(
      `BACKUP_ENCRYPTION_KEY must be ${ENCRYPTION_KEY_BYTES} random bytes in base64 (openssl rand -base64 32)`,
    );
  }
  return key;
}

/** The backup storage the environment names; throws a ConfigError for a half-set second bucket. */
export function loadBackupStorage(env: NodeJS.ProcessEnv = process.env): BackupStorage {
  // Compose passes unset options as empty strings.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(BackupStorageSchema, set);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.output;
  let offsite: OffsiteConfig | undefined;
  if (e.BACKUP_S3_ENDPOINT || e.BACKUP_S3_BUCKET) {
    const missing = (
      [
        'BACKUP_S3_ENDPOINT',
        'BACKUP_S3_BUCKET',
        'BACKUP_S3_ACCESS_KEY_ID',
        'BACKUP_S3_SECRET_ACCESS_KEY',
      ] as const
    ).filter((name) => !e[name]);
    if (missing.length)
      throw new ConfigError(`Missing configuration for the second bucket: ${missing.join(', ')}`);
    offsite = {
      s3: createS3Client({
        endpoint: e.BACKUP_S3_ENDPOINT!,
        publicEndpoint: e.BACKUP_S3_ENDPOINT!,
        region: e.BACKUP_S3_REGION,
        bucket: e.BACKUP_S3_BUCKET!,
        forcePathStyle: e.BACKUP_S3_FORCE_PATH_STYLE === 'true' || e.BACKUP_S3_FORCE_PATH_STYLE === '1',
        accessKeyId: e.BACKUP_S3_ACCESS_KEY_ID!,
        secretAccessKey: e.BACKUP_S3_SECRET_ACCESS_KEY!,
      }),
      bucket: e.BACKUP_S3_BUCKET!,
      prefix: e.BACKUP_S3_PREFIX,
      description: `${e.BACKUP_S3_ENDPOINT} bucket ${e.BACKUP_S3_BUCKET}`,
    };
  }
  return {
    ...(e.BACKUP_DIR ? { dir: path.resolve(e.BACKUP_DIR) } : {}),
    ...(offsite ? { offsite } : {}),
    ...(e.BACKUP_ENCRYPTION_KEY ? { encryptionKey: parseEncryptionKey(e.BACKUP_ENCRYPTION_KEY) } : {}),
  };
}

/** Backups hold every person's data: their directories are the owner's alone, whatever the umask. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a directory (and its parents) readable by its owner only; an existing one is narrowed too. */
export async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}
