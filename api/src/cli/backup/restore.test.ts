/**
 * Backups as files and copies, on the real services: every directory 0700 and every file 0600
 * whatever the umask; an encrypted offsite copy restored straight from the second bucket, and refused
 * with a wrong key; a restore refused, without --force, into a database the app is connected to or
 * one holding rows beyond what migrating an empty database writes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  createVehicle,
  insertListedVehicle,
  type TestContext,
} from '../../testing/index.js';
import {
  awardCertificateKey,
  juryCertificatesKey,
  shareImageKey,
  signExportKey,
  webAssetKey,
} from '../../core/storage/objects.js';
import { adminQuery, cloneDatabase, databaseUrlFor } from '../../testing/database.js';
import { createS3Client, deleteKeys, ensureBucket, listKeys } from '../../core/storage/s3.js';
import { createBackup } from './create.js';
import { DecryptionError } from './encryption.js';
import { restoreBackup } from './restore.js';
import { runScheduledBackup, type BackupSchedule } from './schedule.js';
import { openBackup } from './source.js';
import { backupName } from './rotation.js';

let t: TestContext;
let s3: S3Client;
let root: string;
const id = randomBytes(4).toString('hex');
const offsiteBucket = `offsite-${id}`;
const buckets = [offsiteBucket, ...[1, 2, 3].map((n) => `restored${n}-${id}`)];
const databases: string[] = [];
const key = randomBytes(32);

beforeAll(async () => {
  t = await createTestContext();
  s3 = createS3Client(t.config.s3);
  await s3.send(new CreateBucketCommand({ Bucket: offsiteBucket }));
  root = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-restore-'));
  // Something to back up: an account with an application.
  const owner = await t.signIn('user', { firstName: 'Lena', lastName: 'Weber' });
  await createVehicle(owner.client, { brand: 'Audi', model: 'Quattro' });
});

afterAll(async () => {
  for (const bucket of buckets) {
    await deleteKeys(s3, bucket, await listKeys(s3, bucket, '').catch(() => [])).catch(() => undefined);
  }
  s3?.destroy();
  for (const name of databases)
    await adminQuery(t.services.databaseUrl, `drop database if exists "${name}" with (force)`);
  await t?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A database of this run's (dropped with it), as its URL. */
function newDatabase(label: string): string {
  const name = `${new URL(t.config.databaseUrl).pathname.slice(1)}_${label}`;
  databases.push(name);
  return databaseUrlFor(t.services.databaseUrl, name);
}

const source = () => ({
  databaseUrl: t.config.databaseUrl,
  redis: t.redis,
  redisPrefix: t.prefix,
  s3,
  bucket: t.config.s3.bucket,
});

const restoreInto = (databaseUrl: string, dir: string, bucket: string, force = false) =>
  restoreBackup({
    ...source(),
    databaseUrl,
    bucket,
    dir,
    force,
    redisPrefix: `${t.prefix}r`,
    retention: t.config.retention,
    log: () => undefined,
  });

describe('backups', () => {
  it('are readable by their owner only, whatever the umask: directories 0700, files 0600', async () => {
    const umask = process.umask(0);
    let dir: string;
    try {
      dir = (
        await createBackup({ ...source(), dir: path.join(root, 'nested', 'manual'), log: () => undefined })
      ).dir;
    } finally {
      process.umask(umask);
    }
    const modes = new Map<string, number>([[dir, (await stat(dir)).mode & 0o777]]);
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      modes.set(file, (await stat(file)).mode & 0o777);
      expect((await stat(file)).mode & 0o777, file).toBe(entry.isDirectory() ? 0o700 : 0o600);
    }
    expect(modes.get(dir)).toBe(0o700);
    expect(modes.get(path.join(dir, 'database.dump'))).toBe(0o600);
    expect(modes.get(path.join(dir, 'manifest.json'))).toBe(0o600);
    expect([...modes.keys()].some((file) => file.includes(`${path.sep}objects${path.sep}`))).toBe(false);
    // The directories created on the way too.
    expect((await stat(path.join(root, 'nested'))).mode & 0o777).toBe(0o700);
  });

  it('hold every object the site links: link previews, award and jury certificates and windshield sign PDFs', async () => {
    const execute = (sql: string, params: unknown[]) => t.orm.em.getConnection().execute(sql, params, 'run');
    const vehicleId = await insertListedVehicle(t, 'Porsche');
    const editionId = t.event.edition.id;
    const share = shareImageKey(vehicleId, 'a'.repeat(32));
    const certificate = awardCertificateKey(editionId, vehicleId);
    const jury = juryCertificatesKey(editionId, 2);
    const signId = randomUUID();
    const sign = signExportKey(signId);
    await execute('update public_vehicle set share_image = ? where vehicle_id = ?', [share, vehicleId]);
    await execute(
      `insert into award (edition_id, certificates, created_at) values (?, ?, now())
       on conflict (edition_id) do update set certificates = excluded.certificates`,
      [editionId, JSON.stringify({ [vehicleId]: certificate })],
    );
    await execute(
      `insert into jury (edition_id, published_at, certificates_key, version, updated_at) values (?, now(), ?, 2, now())`,
      [editionId, jury],
    );
    await execute(
      `insert into sign_export (id, edition_id, format, status, file_key, requested_at, created_at)
       values (?, ?, 'a4', 'ready', ?, now(), now())`,
      [signId, editionId, sign],
    );
    for (const key of [share, certificate, jury, sign])
      await s3.send(new PutObjectCommand({ Bucket: t.config.s3.bucket, Key: key, Body: `bytes of ${key}` }));

    const { manifest, dir } = await createBackup({
      ...source(),
      dir: path.join(root, 'linked'),
      log: () => undefined,
    });
    expect(manifest.objects.map((object) => object.key)).toEqual(
      expect.arrayContaining([share, certificate, jury, sign]),
    );
    await restoreInto(newDatabase('linked'), dir, buckets[3]!);
    expect(await listKeys(s3, buckets[3]!, '')).toEqual(
      expect.arrayContaining([share, certificate, jury, sign]),
    );
  });

  it('restores an encrypted offsite copy straight from the second bucket, and refuses a wrong key', async () => {
    const schedule: BackupSchedule = {
      dir: path.join(root, 'nightly'),
      at: { hour: 3, minute: 30 },
      rotation: { daily: 7, weekly: 4 },
      offsite: { s3, bucket: offsiteBucket, prefix: 'copies/', description: offsiteBucket, key },
    };
    const at = new Date('2026-11-27T02:30:00Z');
    expect(await runScheduledBackup({ schedule, source: source(), log: () => undefined }, at)).toBe(true);
    const offsite = { s3, bucket: offsiteBucket, prefix: 'copies/', description: offsiteBucket };
    // The scratch directory of a decrypted copy lies in the system's, which stays as it is.
    const systemTmp = (await stat(os.tmpdir())).mode & 0o7777;

    // A wrong key: refused at the manifest, nothing is left decrypted.
    const lines: string[] = [];
    await expect(
      openBackup({ offsite, name: 'latest' }, randomBytes(32), (line) => lines.push(line)),
    ).rejects.toThrow(DecryptionError);
    await expect(openBackup({ offsite, name: 'latest' }, undefined, () => undefined)).rejects.toThrow(
      /BACKUP_ENCRYPTION_KEY/,
    );
    const scratch = lines.join('\n').match(/decrypting into (\S+)/)![1]!;
    await expect(stat(scratch)).rejects.toThrow(/ENOENT/);

    // The right key: every tag checked, then restored as any backup.
    const opened = await openBackup({ offsite, name: 'latest' }, key, () => undefined);
    try {
      expect(opened.description).toContain(backupName(at));
      const target = newDatabase('offsite');
      const report = await restoreInto(target, opened.dir, buckets[1]!);
      expect(report.createdDatabase).toBe(true);
      expect(report.tables.users).toBeGreaterThanOrEqual(1);
      expect(report.tables.vehicle).toBeGreaterThanOrEqual(1);
    } finally {
      await opened.close();
    }
    await expect(stat(opened.dir)).rejects.toThrow(/ENOENT/);
    expect((await stat(os.tmpdir())).mode & 0o7777).toBe(systemTmp);
  });

  it('refuses, without --force, a database the app is connected to or one holding more than migrations write', async () => {
    const dir = (await createBackup({ ...source(), dir: path.join(root, 'refusals'), log: () => undefined }))
      .dir;

    // The app's own database: connected (and holding data).
    await expect(restoreInto(t.config.databaseUrl, dir, buckets[2]!)).rejects.toThrow(
      /open connections?: stop everything that uses it/,
    );

    // A migrated, empty one nobody uses: restored without --force, also after an api stored its
    // web assets in the bucket.
    await ensureBucket(s3, buckets[2]!);
    await s3.send(
      new PutObjectCommand({ Bucket: buckets[2]!, Key: webAssetKey('index-Ab12.js'), Body: 'export {}' }),
    );
    const migrated = newDatabase('migrated');
    await cloneDatabase(t.services.databaseUrl, t.services.templateDb, new URL(migrated).pathname.slice(1));
    expect((await restoreInto(migrated, dir, buckets[2]!)).createdDatabase).toBe(false);

    // The same, now holding the restored accounts (beyond what migrations write), nobody connected:
    // refused, and replaced with --force.
    await expect(restoreInto(migrated, dir, buckets[2]!, false)).rejects.toThrow(
      /holds rows beyond what migrating an empty database writes \(.*users: \d+/,
    );
    // A new database, but the bucket holds the first restore's objects: refused as well.
    await expect(restoreInto(newDatabase('fresh'), dir, buckets[2]!)).rejects.toThrow(
      /the bucket .* is not empty/,
    );
    expect((await restoreInto(migrated, dir, buckets[2]!, true)).createdDatabase).toBe(false);
  });
});
