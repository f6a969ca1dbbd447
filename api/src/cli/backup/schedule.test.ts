/**
 * A scheduled backup run on the real services: the backup is written, copied to a second bucket
 * (every file encrypted, decrypting to the local bytes, the manifest with it), older copies rotate
 * out there as on disk, and the outcome lands where the metric reads it; a second bucket that
 * refuses the copy makes the run fail visibly (an error line and the failure moment). Without the
 * key, a second bucket refuses the service's start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackupStatus } from '../../core/metrics/backup-status.js';
import { createS3Client, deleteKeys, listKeys } from '../../core/storage/s3.js';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';
import { backupName } from './rotation.js';
import { decryptToFile, encryptedSize } from './encryption.js';
import { loadBackupSchedule, runScheduledBackup, type BackupSchedule } from './schedule.js';

let t: TestContext;
let s3: S3Client;
let root: string;
const offsiteBucket = `offsite-${randomBytes(4).toString('hex')}`;
const lines: Array<{ line: string; level: string }> = [];

beforeAll(async () => {
  t = await createTestContext();
  s3 = createS3Client(t.config.s3);
  await s3.send(new CreateBucketCommand({ Bucket: offsiteBucket }));
  root = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-nightly-'));
});

afterAll(async () => {
  if (s3) {
    await deleteKeys(s3, offsiteBucket, await listKeys(s3, offsiteBucket, '').catch(() => [])).catch(
      () => undefined,
    );
    s3.destroy();
  }
  await t?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const key = randomBytes(32);

/** An offsite object decrypted with the key (its tag checked). */
async function decrypted(objectKey: string, file: string): Promise<Buffer> {
  const out = path.join(root, `decrypted-${randomBytes(4).toString('hex')}`);
  const answer = await s3.send(new GetObjectCommand({ Bucket: offsiteBucket, Key: objectKey }));
  await decryptToFile(key, file, answer.Body as Readable, out);
  const bytes = await readFile(out);
  await rm(out);
  return bytes;
}

async function offsiteBytes(key: string): Promise<Uint8Array> {
  const answer = await s3.send(new GetObjectCommand({ Bucket: offsiteBucket, Key: key }));
  return answer.Body!.transformToByteArray();
}

function deps(bucket: string) {
  const schedule: BackupSchedule = {
    dir: root,
    at: { hour: 3, minute: 30 },
    // Only the newest of the last day stays.
    rotation: { daily: 1, weekly: 0 },
    offsite: { s3, bucket, prefix: 'nightly/', description: `bucket ${bucket}`, key },
  };
  return {
    schedule,
    source: {
      databaseUrl: t.config.databaseUrl,
      redis: t.redis,
      redisPrefix: t.prefix,
      s3,
      bucket: t.config.s3.bucket,
    },
    log: (line: string, level = 'info') => void lines.push({ line, level }),
  };
}

describe('the nightly backup run', () => {
  it('copies each backup to the second bucket encrypted and rotates the copies there too', async () => {
    const first = new Date('2026-11-25T02:30:00Z');
    const second = new Date('2026-11-27T02:30:00Z');

    expect(await runScheduledBackup(deps(offsiteBucket), first)).toBe(true);
    const firstName = backupName(first);
    const manifest = await readManifest(path.join(root, firstName));
    const files = [manifest.database.dump.path, MANIFEST_FILE];
    expect((await listKeys(s3, offsiteBucket, 'nightly/')).sort()).toEqual(
      files.map((file) => `nightly/${firstName}/${file}`).sort(),
    );
    for (const file of files) {
      const local = await readFile(path.join(root, firstName, file));
      const stored = await offsiteBytes(`nightly/${firstName}/${file}`);
      // Encrypted: no plain bytes of the file in it, a header, nonce and tag longer.
      expect(stored.length, file).toBe(encryptedSize(local.length));
      expect(Buffer.from(stored).includes(local.subarray(0, 64)), file).toBe(false);
      expect(sha256(await decrypted(`nightly/${firstName}/${file}`, file)), file).toBe(sha256(local));
    }
    expect(manifest.database.dump.size).toBeGreaterThan(0);
    expect((await readBackupStatus(t.redis, t.prefix)).lastSuccess).toBe(first.getTime() / 1000);

    expect(await runScheduledBackup(deps(offsiteBucket), second)).toBe(true);
    const secondName = backupName(second);
    expect(await readdir(root)).toEqual([secondName]);
    const kept = await listKeys(s3, offsiteBucket, 'nightly/');
    expect(kept.length).toBe(2);
    expect(kept.every((key) => key.startsWith(`nightly/${secondName}/`))).toBe(true);
    expect(lines.some(({ line }) => line.includes(`offsite rotation: removed ${firstName}`))).toBe(true);
    expect(lines.filter(({ level }) => level === 'error')).toEqual([]);
  });

  it('refuses to start with a second bucket and no key, or a key that is not 32 bytes', () => {
    const env = {
      BACKUP_DIR: root,
      BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9',
      BACKUP_S3_BUCKET: 'offsite',
      BACKUP_S3_ACCESS_KEY_ID: 'a',
      BACKUP_S3_SECRET_ACCESS_KEY: 'b',
    };
    expect(() => loadBackupSchedule(env)).toThrow(/BACKUP_ENCRYPTION_KEY is not/);
    expect(() =>
      loadBackupSchedule({ ...env, BACKUP_ENCRYPTION_KEY: randomBytes(16).toString('base64') }),
    ).toThrow(/32 random bytes/);
    expect(
      loadBackupSchedule({ ...env, BACKUP_ENCRYPTION_KEY: key.toString('base64') }).offsite?.key,
    ).toEqual(key);
    // Without a second bucket, no key is needed.
    expect(loadBackupSchedule({ BACKUP_DIR: root }).offsite).toBeUndefined();
  });

  it('fails visibly when the second bucket refuses the copy', async () => {
    const at = new Date('2026-11-28T02:30:00Z');
    lines.length = 0;
    expect(await runScheduledBackup(deps(`${offsiteBucket}-missing`), at)).toBe(false);
    const errors = lines.filter(({ level }) => level === 'error').map(({ line }) => line);
    expect(errors.some((line) => line.startsWith(`backup ${backupName(at)} offsite copy FAILED`))).toBe(true);
    const status = await readBackupStatus(t.redis, t.prefix);
    expect(status.lastFailure).toBe(at.getTime() / 1000);
    expect(status.lastSuccess).toBe(new Date('2026-11-27T02:30:00Z').getTime() / 1000);
  });
});
