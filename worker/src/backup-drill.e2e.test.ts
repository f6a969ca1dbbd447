/**
 * The restore drill, on the real services: an installation with accounts, applications with photos
 * and renditions, cars on the public list with their link previews, a review, an invitation and a
 * quartett set is backed up while it takes requests (a photo replaced and one deleted meanwhile).
 * After the backup, this api process withdraws a media consent and deletes a photo, and a second api
 * process (its own temporary and backup directories) deletes an account; the workers journal the
 * three erasures in the backup bucket. The backup is restored into a new database and a new bucket
 * and started: none of the three is back, and every link preview of the restored site answers. Then
 * a backup with one changed byte is refused by verify (exit 1) and by restore.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateBucketCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createBackup,
  objectFile,
  restoreBackup,
  verifyBackup,
  type Manifest,
} from '@schlosstreffen/api/backup';
import {
  connectRedis,
  createS3Client,
  deleteKeys,
  journalStoreOf,
  listKeys,
  renditionKey,
  type ErasureJournalStore,
} from '@schlosstreffen/api/core';
import {
  APPLYING_NOON,
  createTestContext,
  PASSWORD,
  SUBMISSION_CONSENTS,
  TEST_ORIGIN,
  TestClient,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import type { ReviewSettings, Vehicle } from '@schlosstreffen/shared/api';
import type { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from './adapters/mailer.js';
import { createTestMailer, startTestWorkers } from './testing.js';
import type { RunningWorkers } from './worker.js';

const WAIT = { timeout: 30_000, interval: 150 };
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let t: TestContext;
let s3: S3Client;
let redis: Redis;
let mailer: Mailer;
let running: RunningWorkers;
let backupRoot: string;
const drillId = randomBytes(4).toString('hex');
const drillBucket = `drill-${drillId}`;
/** The second bucket of the backups, where the workers journal erasures. */
const backupBucket = `drill-backups-${drillId}`;
let journal: ErasureJournalStore;
let restoredUrl: string;
let restored: TestContext | undefined;

beforeAll(async () => {
  backupRoot = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-backups-'));
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  await s3.send(new CreateBucketCommand({ Bucket: backupBucket }));
  journal = journalStoreOf({
    offsite: { s3, bucket: backupBucket, prefix: 'backups/', description: backupBucket },
  })!;
  redis = connectRedis(t.services.redisUrl, 'producer');
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3, journal });
  const url = new URL(t.config.databaseUrl);
  // Named like the test databases, so the run's teardown drops it if this file fails.
  url.pathname = `${url.pathname}_restored`;
  restoredUrl = url.toString();
});
afterAll(async () => {
  await restored?.close();
  await running?.close();
  mailer?.close();
  redis?.disconnect();
  if (s3) {
    for (const bucket of [drillBucket, backupBucket])
      await deleteKeys(s3, bucket, await listKeys(s3, bucket, '').catch(() => [])).catch(() => undefined);
    s3.destroy();
  }
  await t?.orm.em
    .getConnection()
    .execute(`drop database if exists "${new URL(restoredUrl).pathname.slice(1)}" with (force)`)
    .catch(() => undefined);
  await t?.close();
  await rm(backupRoot, { recursive: true, force: true });
});

const photo = (hue: number) =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: { r: hue, g: 90, b: 200 - hue } } })
    .jpeg()
    .toBuffer();

async function upload(client: TestClient, body: Buffer): Promise<string> {
  const signed = await client.post('/api/objects/upload', {
    filename: 'IMG.jpg',
    type: 'image/jpeg',
    size: body.length,
  });
  expect(signed.status, signed.text).toBe(200);
  const put = await fetch(signed.data.uploadURL as string, {
    method: 'PUT',
    headers: signed.data.headers as Record<string, string>,
    body: new Uint8Array(body),
  });
  expect(put.status).toBe(200);
  return signed.data.objectPath as string;
}

async function attach(client: TestClient, vehicleId: string, body: Buffer, isHero = false) {
  const attached = await client.post(`/api/vehicles/${vehicleId}/media`, {
    type: 'image',
    url: await upload(client, body),
    isHero,
    cropX: 50,
    cropY: 50,
    scale: 100,
  });
  expect(attached.status, attached.text).toBe(201);
}

const vehicleOf = async (client: TestClient, id: string) =>
  (await client.get(`/api/vehicles/${id}`)).data as Vehicle;

/** An application as the wizard sends it, its photos rendered. */
async function apply(client: TestClient, name: string, photos: number): Promise<Vehicle> {
  const created = await client.post('/api/vehicles', {
    name,
    brand: 'Porsche',
    model: '964 Carrera',
    year: 1991,
    ps: 250,
    weightKg: 1350,
    topSpeedKmh: 260,
    zeroToHundredS: 5.7,
    status: 'submitted',
    ...SUBMISSION_CONSENTS,
  });
  expect(created.status, created.text).toBe(201);
  const vehicle = created.data as Vehicle;
  for (let index = 0; index < photos; index++)
    await attach(client, vehicle.id, await photo(20 * index), index === 0);
  await expect
    .poll(async () => {
      const media = (await vehicleOf(client, vehicle.id)).media;
      return media.length === photos && media.every((item) => item.thumbnailUrl);
    }, WAIT)
    .toBe(true);
  return vehicleOf(client, vehicle.id);
}

async function setStatus(admin: SignedIn, vehicleId: string, from: string, to: string) {
  const res = await admin.client.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    status: to,
    oldStatus: from,
  });
  expect(res.status, res.text).toBe(200);
}

/** The command line as an operator runs it (from source): its exit code and output. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string }> {
  return promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'api/src/cli/cli.ts', ...args],
    { cwd: ROOT, env: { ...process.env, ...env } },
  ).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A free port on loopback. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A second api process on the test's database, Redis prefix and bucket, as an operator starts one
 * on another host: its own port, temporary directory and backup directory.
 */
async function startSecondApi(): Promise<{ url: string; stop(): Promise<void> }> {
  const own = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-api2-'));
  await mkdir(path.join(own, 'tmp'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...t.env,
      PORT: String(port),
      TMPDIR: path.join(own, 'tmp'),
      BACKUP_DIR: path.join(own, 'backups'),
      APP_CLOCK: APPLYING_NOON.toISOString(),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(
      () =>
        fetch(`${url}/healthz`).then(
          (res) => res.status,
          () => 0,
        ),
      { timeout: 60_000, interval: 250 },
    )
    .toBe(200);
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      await rm(own, { recursive: true, force: true });
    },
  };
}

async function objectBytes(bucket: string, key: string): Promise<Buffer> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

async function rowCounts(ctx: TestContext, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await ctx.orm.em
      .getConnection()
      .execute<Array<{ n: string }>>(`select count(*) as n from "${table}"`);
    counts[table] = Number(row!.n);
  }
  return counts;
}

describe('the restore drill', () => {
  let manifest: Manifest;
  let backupDir: string;

  it('backs up a running installation, restores it into a new database and bucket, and it starts as it was', async () => {
    // The installation.
    const reviewer = await t.signIn('reviewer', { firstName: 'Rita', lastName: 'Prüferin' });
    const admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
    const owner = await t.signIn('user', { firstName: 'Olaf', lastName: 'Halter' });
    const second = await t.signIn('user', { firstName: 'Sina', lastName: 'Zweite' });
    const leaving = await t.signIn('user', { firstName: 'Lea', lastName: 'Geht' });
    const shy = await t.signIn('user', { firstName: 'Mia', lastName: 'Scheu' });
    const confirmed = await apply(owner.client, 'Drillrakete', 2);
    const withdrawing = await apply(shy.client, 'Drillcabrio', 1);
    const invited = await apply(second.client, 'Drillkombi', 2);
    const reviewed = await apply(second.client, 'Drillcoupé', 1);
    // Two cars invited (a start number each), then confirmed: on the public list with their link previews.
    for (const [car, client] of [
      [confirmed, owner.client],
      [withdrawing, shy.client],
    ] as const) {
      await setStatus(admin, car.id, 'submitted', 'invited');
      await expect.poll(async () => (await vehicleOf(client, car.id)).invitation, WAIT).toBeTruthy();
      await setStatus(admin, car.id, 'invited', 'confirmed');
    }
    const renderedPreviews = async () =>
      (
        await t.orm.em
          .getConnection()
          .execute<Array<{ n: string }>>(
            'select count(*) as n from public_vehicle where share_image is not null',
          )
      )[0]!.n;
    await expect.poll(renderedPreviews, WAIT).toBe('2');
    await setStatus(admin, invited.id, 'submitted', 'invited');
    await expect.poll(async () => (await vehicleOf(second.client, invited.id)).invitation, WAIT).toBeTruthy();
    const settings = (await admin.client.get('/api/admin/reviews/settings')).data as ReviewSettings;
    const review = await reviewer.client.post(`/api/admin/vehicles/${reviewed.id}/review`, {
      scores: Object.fromEntries(settings.categories.map((category) => [category.id, 7])),
      comment: 'Sauber aufgebaut',
    });
    expect(review.status, review.text).toBe(200);
    const set = await admin.client.post('/api/admin/quartett-sets', { title: 'Drill-Quartett' });
    expect(set.status, set.text).toBe(201);
    await expect
      .poll(async () => (await admin.client.get(`/api/admin/quartett-sets/${set.data.id}`)).data.status, WAIT)
      .toBe('ready');

    // The backup, while the owner replaces a photo and deletes another and visitors read the list.
    const [replaced, removed] = confirmed.media;
    const newPhoto = await photo(200);
    backupDir = path.join(backupRoot, 'drill');
    const requests = (async () => {
      await attach(owner.client, confirmed.id, newPhoto);
      for (const old of [replaced!, removed!]) {
        const gone = await owner.client.delete(`/api/vehicles/${confirmed.id}/media/${old.id}`);
        expect(gone.status, gone.text).toBeLessThan(300);
        expect((await t.client().get('/api/vehicles/public')).status).toBe(200);
      }
    })();
    const [created] = await Promise.all([
      createBackup({
        databaseUrl: t.config.databaseUrl,
        redis,
        redisPrefix: t.prefix,
        s3,
        bucket: t.config.s3.bucket,
        dir: backupDir,
        log: () => undefined,
      }),
      requests,
    ]);
    manifest = created.manifest;
    expect(manifest.tables.users).toBeGreaterThanOrEqual(5);
    expect(manifest.tables.quartett_set).toBe(1);
    expect(manifest.objects.length).toBeGreaterThanOrEqual(10);
    expect((await verifyBackup(backupDir)).problems).toEqual([]);

    // After the backup, this api: a media consent withdrawn, a photo deleted.
    const consents = (await shy.client.get('/api/account/consents')).data as Array<{
      id: string;
      kind: string;
    }>;
    const mediaConsent = consents.find((consent) => consent.kind === 'media')!;
    const withdrawn = await shy.client.post(`/api/account/consents/${mediaConsent.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    const deletedPhoto = reviewed.media[0]!;
    const photoGone = await second.client.delete(`/api/vehicles/${reviewed.id}/media/${deletedPhoto.id}`);
    expect(photoGone.status, photoGone.text).toBeLessThan(300);
    // … and a second api process, with its own directories, deletes an account.
    const other = await startSecondApi();
    try {
      const there = new TestClient(other.url, { origin: TEST_ORIGIN });
      const login = await there.post('/api/auth/login', { email: leaving.email, password: PASSWORD });
      expect(login.status, login.text).toBe(200);
      const deleted = await there.post('/api/account/delete', { password: PASSWORD });
      expect(deleted.status, deleted.text).toBe(200);
    } finally {
      await other.stop();
    }
    // The workers wrote all three to the journal in the backup bucket (with the photos deleted
    // during the backup), within seconds.
    await expect
      .poll(
        async () =>
          (await journal.list())
            .filter((entry) => entry.kind !== 'photo' || entry.subject === deletedPhoto.id)
            .map((entry) => (entry.kind === 'retention' ? entry.asOf : entry.subject)),
        WAIT,
      )
      .toEqual([mediaConsent.id, deletedPhoto.id, leaving.id]);

    // Restore into a new database and a new bucket.
    const restoreLog: string[] = [];
    const report = await restoreBackup({
      dir: backupDir,
      databaseUrl: restoredUrl,
      redis,
      redisPrefix: `${t.prefix}r`,
      s3,
      bucket: drillBucket,
      journal,
      retention: t.config.retention,
      log: (line) => void restoreLog.push(line),
    });
    expect(report.createdDatabase).toBe(true);
    expect(report.tables).toEqual(manifest.tables);
    expect(report.sessionsEnded).toBeGreaterThanOrEqual(5);
    // The three, in order; before them the photo deletions made during the backup that committed
    // after its snapshot, if any.
    const afterBackup = report.replayed.slice(-3);
    expect(afterBackup).toEqual([
      expect.objectContaining({ kind: 'consent', subject: mediaConsent.id }),
      expect.objectContaining({ kind: 'photo', subject: deletedPhoto.id }),
      expect.objectContaining({ kind: 'account', subject: leaving.id }),
    ]);
    const duringBackup = report.replayed.slice(0, -3);
    expect(duringBackup.every((entry) => entry.kind === 'photo')).toBe(true);
    expect(restoreLog.at(-1)).toMatch(
      new RegExp(
        `${report.replayed.length} erasures after the snapshot replayed \\(.*consent 1.*account 1\\)`,
      ),
    );

    // Every object's bytes as the manifest says, and nothing else in the new bucket.
    const keys = await listKeys(s3, drillBucket, '');
    expect(keys.sort()).toEqual(manifest.objects.map((object) => object.key).sort());
    for (const object of manifest.objects) {
      expect(sha256(await objectBytes(drillBucket, object.key)), object.key).toBe(object.sha256);
    }

    // Started: the app on the restored database and bucket.
    restored = await createTestContext({ env: { DATABASE_URL: restoredUrl, S3_BUCKET: drillBucket } });
    const counts = await rowCounts(restored, Object.keys(manifest.tables));
    // Every table as in the manifest, but for what the restore changes: sessions end, and the
    // replayed erasures take the account, its mails and their outbox rows (and queue their own),
    // the photo, the car whose media consent was withdrawn from the list (a status log row), and
    // are recorded in the journal's rows.
    const changed = [
      'session',
      'users',
      'email_log',
      'outbox',
      'media',
      'public_vehicle',
      'review',
      'erasure_journal',
    ];
    for (const table of Object.keys(manifest.tables).filter((name) => !changed.includes(name))) {
      expect(counts[table], table).toBe(manifest.tables[table]);
    }
    expect(counts.session).toBe(0);
    expect(counts.users).toBe(manifest.tables.users! - 1);
    expect(counts.media).toBe(manifest.tables.media! - 1 - duringBackup.length);
    expect(counts.public_vehicle).toBe(manifest.tables.public_vehicle! - 1);
    expect(counts.erasure_journal).toBe(manifest.tables.erasure_journal! + report.replayed.length);

    // None of the three erasures is back: the consent stays withdrawn and its car off the list, the
    // photo stays deleted.
    const restoredRows = <T>(sql: string, params: unknown[] = []) =>
      restored!.orm.em.getConnection().execute<T[]>(sql, params);
    const [consent] = await restoredRows<{ withdrawn_at: Date | null }>(
      'select withdrawn_at from consent where id = ?',
      [mediaConsent.id],
    );
    expect(consent!.withdrawn_at).not.toBeNull();
    const listed = (await restored.client().get('/api/vehicles/public')).data as Array<{ id: string }>;
    expect(listed.map((car) => car.id)).toEqual([confirmed.id]);
    expect(await restoredRows('select id from media where id = ?', [deletedPhoto.id])).toEqual([]);

    // Every link preview of the restored site answers, to anyone.
    const previews = await restoredRows<{ share_image: string }>(
      'select share_image from public_vehicle where share_image is not null',
    );
    expect(previews).toHaveLength(1);
    for (const { share_image: key } of previews) {
      const image = await fetch(new URL(`/objects/${key}`, restored.baseUrl));
      expect(image.status, key).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
    }

    // The jobs of the day before the snapshot are queued again by the first start's relay.
    expect(report.requeued).toBe(manifest.tables.outbox);
    const unpublished = async () => {
      const [row] = await restored!.orm.em
        .getConnection()
        .execute<Array<{ n: string }>>('select count(*) as n from outbox where published_at is null');
      return Number(row!.n);
    };
    await expect.poll(unpublished, WAIT).toBe(0);
    const waiting = await Promise.all(
      Object.values(restored.queues).map((queue) => queue.getJobCountByTypes('waiting', 'prioritized')),
    );
    expect(waiting.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);

    // The snapshot is consistent with the objects: every rendered image has its files.
    const media = await restored.orm.em
      .getConnection()
      .execute<Array<{ id: string; url: string; thumbnail_url: string | null }>>(
        'select id, url, thumbnail_url from media',
      );
    const stored = new Set(keys);
    for (const item of media.filter((row) => row.thumbnail_url)) {
      expect(stored.has(item.url.slice('/objects/'.length)), item.url).toBe(true);
      for (const width of THUMBNAIL_WIDTHS) expect(stored.has(renditionKey(item.id, width))).toBe(true);
    }

    // The owner signs in with their password and sees their application with its photos.
    const signIn = restored.client();
    const login = await signIn.post('/api/auth/login', { email: owner.email, password: PASSWORD });
    expect(login.status, login.text).toBe(200);
    const mine = await signIn.get(`/api/vehicles/${confirmed.id}`);
    expect(mine.status).toBe(200);
    for (const item of (mine.data as Vehicle).media) {
      const image = await fetch(new URL(item.url, restored.baseUrl), {
        headers: { cookie: signIn.cookieHeader },
      });
      expect(image.status, item.url).toBe(200);
    }
    // The account deleted after the backup stays deleted.
    const gone = await restored
      .client()
      .post('/api/auth/login', { email: leaving.email, password: PASSWORD });
    expect(gone.status).toBe(401);
    // projections:rebuild --verify is clean, run as the operator runs it.
    const rebuild = await cli(['projections:rebuild', '--verify'], { DATABASE_URL: restoredUrl });
    expect(rebuild.code, rebuild.stdout).toBe(0);
    expect(rebuild.stdout).toContain('0 status mismatches, 0 public list rows out of date');
  }, 180_000);

  it('refuses a backup with one changed byte: verify exits 1, restore changes nothing', async () => {
    expect(manifest).toBeDefined();
    const object = manifest.objects.find((item) => item.size > 100)!;
    const file = await open(objectFile(backupDir, object.key)!, 'r+');
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, 50);
    byte[0] = byte[0]! ^ 0x01;
    await file.write(byte, 0, 1, 50);
    await file.close();

    expect((await verifyBackup(backupDir)).problems).toEqual([
      `${object.path}: checksum differs from the manifest`,
    ]);
    const verify = await cli(['backup:verify', backupDir]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('does not verify');

    const target = new URL(restoredUrl);
    target.pathname = `${target.pathname}2`;
    await expect(
      restoreBackup({
        dir: backupDir,
        databaseUrl: target.toString(),
        redis,
        redisPrefix: `${t.prefix}r2`,
        s3,
        bucket: `${drillBucket}-2`,
        retention: t.config.retention,
        log: () => undefined,
      }),
    ).rejects.toThrow(/does not verify/);
    const [exists] = await t.orm.em
      .getConnection()
      .execute<Array<{ n: string }>>('select count(*) as n from pg_database where datname = ?', [
        target.pathname.slice(1),
      ]);
    expect(Number(exists!.n)).toBe(0);
  });
});
