/**
 * Personal data end to end, black-box through the API with the worker and the real services: clean
 * photos everywhere, the self-service data export, and self-service deletion leaving no trace.
 */
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import {
  createEdition,
  createS3Client,
  currentEdition,
  EmailLog,
  makeCurrent,
  openApplications,
  printPhotoKey,
  QuartettSet,
  rebuildProjections,
  VisitorRegistration,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  mailedLinkToken,
  PASSWORD,
  readZip,
  registerUser,
  uniqueEmail,
  type SignedIn,
  type TestClient,
  type TestContext,
  APPLYING_NOON,
  SUBMISSION_CONSENTS,
} from '@schlosstreffen/api/testing';
import { waitForMail } from '@schlosstreffen/infra/dev-services';
import type { Media, MediaLibraryPage, PublicVehicle, Vehicle } from '@schlosstreffen/shared/api';
import { JOBS } from '@schlosstreffen/shared';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from './adapters/mailer.js';
import { hasGpsIfd, phoneJpeg } from './test-photos.js';
import { createTestMailer, startTestWorkers } from './testing.js';
import type { RunningWorkers } from './worker.js';

/** The next edition is opened and made current just before the app's clock (the harness's APPLYING_NOON). */
const BEFORE_APPLYING = new Date(APPLYING_NOON.getTime() - 60_000);

const WAIT = { timeout: 20_000, interval: 150 };

let t: TestContext;
let s3: S3Client;
let mailer: Mailer;
let running: RunningWorkers;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});

/** A phone photo without rotation, GPS included. */
async function gpsJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 120, b: 60 } } })
    .withExif({
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 2/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '13/1 44/1 0/1',
      },
    })
    .jpeg()
    .toBuffer();
}

/** What the wizard does: the vehicle as submitted, then each photo signed, PUT and attached. */
async function apply(
  client: TestClient,
  fields: Record<string, unknown>,
  photos: Buffer[],
): Promise<Vehicle> {
  const created = await client.post('/api/vehicles', {
    brand: 'Porsche',
    model: '964 Carrera',
    year: 1991,
    ps: 250,
    weightKg: 1350,
    topSpeedKmh: 260,
    zeroToHundredS: 5.7,
    status: 'submitted',
    ...SUBMISSION_CONSENTS,
    ...fields,
  });
  expect(created.status, created.text).toBe(201);
  const vehicle = created.data as Vehicle;
  for (const [index, photo] of photos.entries()) {
    const signed = await client.post('/api/objects/upload', {
      filename: `IMG_${index}.jpg`,
      type: 'image/jpeg',
      size: photo.length,
    });
    expect(signed.status, signed.text).toBe(200);
    const put = await fetch(signed.data.uploadURL as string, {
      method: 'PUT',
      headers: signed.data.headers as Record<string, string>,
      body: new Uint8Array(photo),
    });
    expect(put.status).toBe(200);
    const attached = await client.post(`/api/vehicles/${vehicle.id}/media`, {
      type: 'image',
      url: signed.data.objectPath,
      isHero: index === 0,
      cropX: 50,
      cropY: 50,
      scale: 100,
    });
    expect(attached.status, attached.text).toBe(201);
  }
  await expect
    .poll(async () => {
      const media = ((await client.get(`/api/vehicles/${vehicle.id}`)).data as Vehicle).media;
      return media.length === photos.length && media.every((item) => item.thumbnailUrl);
    }, WAIT)
    .toBe(true);
  return (await client.get(`/api/vehicles/${vehicle.id}`)).data as Vehicle;
}

async function setStatus(vehicleId: string, from: string, to: string, comment?: string) {
  const res = await admin.client.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    status: to,
    oldStatus: from,
    comment,
  });
  expect(res.status, res.text).toBe(200);
}

async function fetchBytes(path: string, client?: TestClient) {
  const res = await fetch(new URL(path, t.baseUrl), {
    headers: client ? { cookie: client.cookieHeader } : {},
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** The image carries no metadata a phone writes, and is upright. */
async function expectClean(label: string, image: Buffer, portrait: boolean) {
  const meta = await sharp(image).metadata();
  for (const block of ['exif', 'xmp', 'iptc', 'orientation', 'comments'] as const) {
    expect(meta[block], `${label}: ${block}`).toBeUndefined();
  }
  expect(image.includes(Buffer.from('GPS')), `${label}: GPS text`).toBe(false);
  expect(meta.height! > meta.width!, `${label}: upright`).toBe(portrait);
}

describe('only clean images leave the server', () => {
  it('every image URL of the public list, the owner, the library, downloads and the ZIP is clean', async () => {
    const owner = await t.signIn('user', { firstName: 'Paula', lastName: 'Pixel' });
    const rotated = await phoneJpeg();
    expect(hasGpsIfd((await sharp(rotated).metadata()).exif!)).toBe(true);
    const vehicle = await apply(owner.client, { name: 'Pixelporsche' }, [rotated, await gpsJpeg()]);
    await setStatus(vehicle.id, 'submitted', 'confirmed');
    // The first photo is stored 2000×1000 with orientation 6: upright it is portrait.
    const portrait = new Map(vehicle.media.map((item, index) => [item.id, index === 0]));

    const urls: Array<{ label: string; path: string; portrait: boolean }> = [];
    const add = (
      label: string,
      media: Pick<Media, 'url' | 'thumbnailUrl' | 'thumbnails'> & { id?: string },
      id: string,
    ) => {
      for (const path of [media.url, media.thumbnailUrl, ...Object.values(media.thumbnails ?? {})]) {
        if (path) urls.push({ label, path, portrait: portrait.get(id)! });
      }
    };
    const listed = ((await t.client().get('/api/vehicles/public')).data as PublicVehicle[]).find(
      (entry) => entry.id === vehicle.id,
    )!;
    expect(listed.media).toHaveLength(2);
    listed.media.forEach((item, index) => {
      const id = vehicle.media[index]!.id;
      for (const path of [item.url, item.thumbnailUrl])
        if (path) urls.push({ label: 'public', path, portrait: portrait.get(id)! });
    });
    for (const item of ((await owner.client.get(`/api/vehicles/${vehicle.id}`)).data as Vehicle).media)
      add('owner', item, item.id);
    const library = ((await admin.client.get('/api/admin/media?limit=100')).data as MediaLibraryPage).items;
    for (const item of library.filter((entry) => entry.vehicleId === vehicle.id))
      add('library', item, item.id);

    for (const { label, path, portrait: upright } of urls) {
      expect(path, label).not.toContain(owner.id);
      const res = await fetchBytes(path);
      expect(res.status, `${label} ${path}`).toBe(200);
      await expectClean(`${label} ${path}`, res.body, upright);
    }
    for (const item of vehicle.media) {
      const download = await fetchBytes(`${item.url}?download=1`, admin.client);
      expect(download.headers.get('content-disposition')).toMatch(
        /^attachment; filename="Pixelporsche_.*\.jpg"/,
      );
      await expectClean('download', download.body, portrait.get(item.id)!);
    }

    const zip = await fetchBytes('/api/admin/media.zip', admin.client);
    expect(zip.status).toBe(200);
    const names = vehicle.media.map((item) => item.url);
    const entries = readZip(zip.body).filter((entry) => entry.name.startsWith('Pixelporsche_'));
    expect(entries).toHaveLength(names.length);
    for (const entry of entries) {
      const meta = await sharp(entry.data).metadata();
      await expectClean(`zip ${entry.name}`, entry.data, meta.height! > meta.width!);
    }
    expect(entries.some((entry) => entry.data.length > 0)).toBe(true);
  });
});

describe('self-service data export', () => {
  it('holds every item of the account and nothing of another user, for its owner only', async () => {
    const email = uniqueEmail('export');
    const owner = await t.signIn('user', { firstName: 'Emil', lastName: 'Export', email });
    const stranger = await t.signIn('user', { firstName: 'Fremdina', lastName: 'Fremdling' });
    await apply(stranger.client, { name: 'Fremdwagen' }, [await gpsJpeg()]);

    const first = await apply(owner.client, { name: 'Exportrakete' }, [await gpsJpeg(), await gpsJpeg()]);
    await apply(owner.client, { name: 'Zweitwagen', brand: 'Opel', model: 'Manta' }, []);
    await setStatus(first.id, 'submitted', 'invited', 'INTERNE-NOTIZ-NICHT-EXPORTIEREN');
    await expect
      .poll(
        async () => ((await owner.client.get(`/api/vehicles/${first.id}`)).data as Vehicle).invitation,
        WAIT,
      )
      .toBeTruthy();
    const visitor = await t.client().post('/api/visitor-registrations', {
      firstName: 'Emil',
      lastName: 'Export',
      email,
      phone: '0351 777',
    });
    expect(visitor.status).toBe(201);

    const started = await owner.client.post('/api/account/export', {});
    expect(started.status, started.text).toBe(201);
    expect((await owner.client.post('/api/account/export', {})).status).toBe(409);
    await expect
      .poll(async () => (await owner.client.get('/api/account/export')).data?.status, WAIT)
      .toBe('ready');
    const ready = (await owner.client.get('/api/account/export')).data as {
      downloadUrl: string;
      expiresAt: string;
    };
    expect(new Date(ready.expiresAt).getTime()).toBeGreaterThan(Date.now());

    // Nobody but the owner can fetch it.
    expect((await fetchBytes(ready.downloadUrl)).status).toBe(404);
    expect((await fetchBytes(ready.downloadUrl, stranger.client)).status).toBe(404);
    expect((await fetchBytes(ready.downloadUrl, admin.client)).status).toBe(404);
    const download = await fetchBytes(ready.downloadUrl, owner.client);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="schlosstreffen-meine-daten-/,
    );

    const entries = readZip(download.body);
    const json = (name: string) =>
      JSON.parse(entries.find((entry) => entry.name === name)!.data.toString('utf8'));
    expect(json('konto.json')).toMatchObject({ email, firstName: 'Emil', lastName: 'Export' });
    const consents = json('einwilligungen.json') as Array<{
      kind: string;
      vehicleId: string;
      wording: string;
    }>;
    expect(consents).toHaveLength(6);
    expect(new Set(consents.map((consent) => consent.kind))).toEqual(
      new Set(['media', 'quartett', 'contact']),
    );
    expect(consents.every((consent) => consent.wording.startsWith('Ich willige ein'))).toBe(true);
    expect((json('fahrzeuge.json') as Array<{ name: string }>).map((vehicle) => vehicle.name).sort()).toEqual(
      ['Exportrakete', 'Zweitwagen'],
    );
    const history = json('statusverlauf.json') as Array<{ vehicleId: string; newStatus: string; by: string }>;
    expect(history).toContainEqual(
      expect.objectContaining({ vehicleId: first.id, newStatus: 'invited', by: 'admin' }),
    );
    expect(json('einladungen.json')).toEqual([
      expect.objectContaining({
        vehicleId: first.id,
        startNumber: expect.any(Number),
        checkInCode: expect.any(String),
        checkedInGate: null,
      }),
    ]);
    // Not staff: no scans of theirs at a gate.
    expect(json('einlass-scans.json')).toEqual([]);
    expect(json('besucher-voranmeldungen.json')).toEqual([
      expect.objectContaining({ email, phone: '0351 777' }),
    ]);
    const photos = entries.filter((entry) => entry.name.startsWith('fotos/'));
    expect(photos).toHaveLength(2);
    for (const photo of photos) await expectClean(photo.name, photo.data, false);

    const everything = Buffer.concat(entries.map((entry) => entry.data)).toString('latin1');
    for (const foreign of [
      'Fremdina',
      'Fremdling',
      'Fremdwagen',
      stranger.email,
      'INTERNE-NOTIZ',
      'Anna Admin',
    ]) {
      expect(everything, foreign).not.toContain(foreign);
    }
  });
});

describe('self-service deletion', () => {
  it('leaves no table holding the person, no object of theirs, and a log that still replays', async () => {
    const email = uniqueEmail('loeschen');
    const person = { firstName: 'Quirinius', lastName: 'Zwetschgenbaum', phone: '+49 151 98765432' };
    const owner = await t.signIn('user', { firstName: person.firstName, lastName: person.lastName, email });
    await t.orm.em
      .getConnection()
      .execute('update users set phone = ? where id = ?', [person.phone, owner.id]);

    const vehicle = await apply(owner.client, { name: 'Löschkandidat' }, [await gpsJpeg()]);
    await setStatus(vehicle.id, 'submitted', 'invited', 'Herr Zwetschgenbaum rief an');
    await expect
      .poll(
        async () => ((await owner.client.get(`/api/vehicles/${vehicle.id}`)).data as Vehicle).invitation,
        WAIT,
      )
      .toBeTruthy();
    await waitForMail(
      t.services.mailWebUrl,
      (mail) => mail.to.some((to) => to.address === email) && mail.subject.includes('Einladung'),
      20_000,
    );
    await setStatus(vehicle.id, 'invited', 'confirmed');
    expect((await t.client().post('/api/visitor-registrations', { ...person, email })).status).toBe(201);
    await waitForMail(
      t.services.mailWebUrl,
      (mail) => mail.to.some((to) => to.address === email) && mail.subject.includes('Vormerkung'),
      20_000,
    );
    // A quartett print with the vehicle on it, and a data export of the person.
    const set = await admin.client.post('/api/admin/quartett-sets', { title: 'Druck mit Löschkandidat' });
    expect(set.status).toBe(201);
    await expect
      .poll(async () => (await admin.client.get(`/api/admin/quartett-sets/${set.data.id}`)).data.status, WAIT)
      .toBe('ready');
    await owner.client.post('/api/account/export', {});
    await expect
      .poll(async () => (await owner.client.get('/api/account/export')).data?.status, WAIT)
      .toBe('ready');
    const exportKey = new URL(
      (await owner.client.get('/api/account/export')).data.downloadUrl,
      t.baseUrl,
    ).pathname.slice('/objects/'.length);
    const mediaKeys = vehicle.media.flatMap((item) =>
      [item.url, ...Object.values(item.thumbnails ?? {})].map((path) => path.slice('/objects/'.length)),
    );
    // The quartett card's print photo, made from the hero, goes with the rest.
    const printKey = printPhotoKey(vehicle.media[0]!.id);
    await expect
      .poll(
        () =>
          s3.send(new HeadObjectCommand({ Bucket: t.config.s3.bucket, Key: printKey })).then(
            () => true,
            () => false,
          ),
        WAIT,
      )
      .toBe(true);
    mediaKeys.push(printKey);

    // The person takes part again the next year: an application and a visitor sign-up of that edition too.
    const em = t.orm.em.fork();
    const first = await currentEdition(em, APPLYING_NOON);
    await createEdition(em, { year: first.year + 1 });
    await openApplications(em, first.year + 1, BEFORE_APPLYING);
    await makeCurrent(em, first.year + 1, BEFORE_APPLYING);
    await apply(owner.client, { name: 'Wieder dabei' }, [await gpsJpeg()]);
    expect((await t.client().post('/api/visitor-registrations', { ...person, email })).status).toBe(201);
    const [editions] = await t.orm.em.getConnection().execute<Array<{ vehicles: number; visitors: number }>>(
      `select (select count(distinct edition_id)::int from vehicle where user_id = ?) as vehicles,
              (select count(distinct edition_id)::int from visitor_registration where email = ?) as visitors`,
      [owner.id, email],
    );
    expect(editions).toEqual({ vehicles: 2, visitors: 2 });

    const wrong = await owner.client.post('/api/account/delete', { password: 'falsch-falsch' });
    expect(wrong.status).toBe(400);
    const deleted = await owner.client.post('/api/account/delete', { password: 'sicheres-passwort-1' });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await owner.client.get('/api/auth/user')).status).toBe(401);

    // Every text and JSON column of every table.
    const needles = [email, person.firstName, person.lastName, person.phone];
    const columns = await t.orm.em.getConnection().execute<{ table_name: string; column_name: string }[]>(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb')`,
    );
    expect(columns.length).toBeGreaterThan(30);
    const scan = async () => {
      const found: string[] = [];
      for (const { table_name: table, column_name: column } of columns) {
        for (const needle of needles) {
          const [row] = await t.orm.em
            .getConnection()
            .execute<{ n: string }[]>(
              `select count(*) as n from "${table}" where "${column}"::text ilike ?`,
              [`%${needle}%`],
            );
          if (Number(row?.n)) found.push(`${table}.${column} holds ${needle}`);
        }
      }
      return found;
    };
    // Outbox rows of the deletion's own jobs hold ids only; wait until they and the mails are through.
    await expect.poll(scan, WAIT).toEqual([]);

    // Their objects are gone from S3.
    const exists = async (key: string) =>
      s3.send(new HeadObjectCommand({ Bucket: t.config.s3.bucket, Key: key })).then(
        () => true,
        () => false,
      );
    await expect
      .poll(
        async () => (await Promise.all([...mediaKeys, exportKey].map(exists))).filter(Boolean).length,
        WAIT,
      )
      .toBe(0);
    const uploads = await s3.send(
      new ListObjectsV2Command({ Bucket: t.config.s3.bucket, Prefix: `uploads/${owner.id}/` }),
    );
    expect(uploads.Contents ?? []).toEqual([]);

    // No job in the queues carries their data any more.
    const redis = new Redis(t.services.redisUrl, { maxRetriesPerRequest: null });
    try {
      await expect
        .poll(async () => {
          let carrying = 0;
          for (const name of new Set(Object.values(JOBS).map((job) => job.queue))) {
            const queue = new Queue(name, { connection: redis, prefix: t.prefix });
            const jobs = await queue.getJobs(['waiting', 'delayed', 'completed', 'failed', 'active']);
            carrying += jobs.filter((job) =>
              needles.some((needle) => JSON.stringify(job.data).includes(needle)),
            ).length;
            await queue.close();
          }
          return carrying;
        }, WAIT)
        .toBe(0);
    } finally {
      redis.disconnect();
    }

    // The status log keeps the history, by id, and still replays to the stored states.
    const report = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(report.mismatches).toEqual([]);
    expect(report.publicListDrift).toBe(0);
    const rows = await t.orm.em
      .getConnection()
      .execute<{ n: string }[]>(`select count(*) as n from review where vehicle_id = ?`, [vehicle.id]);
    expect(Number(rows[0]?.n)).toBe(3);
    // The print that shows the vehicle is marked for the admin.
    const marked = await t.orm.em.fork().findOneOrFail(QuartettSet, set.data.id as string);
    expect(marked.containsDeletedAccount).toBe(true);
    expect((await admin.client.get(`/api/admin/quartett-sets?edition=${first.year}`)).data[0]).toMatchObject({
      containsDeletedAccount: true,
    });
  });
});

describe('an address nobody confirmed', () => {
  it('links nothing stored under it by someone else: not exported, not deleted, until confirmed', async () => {
    const email = uniqueEmail('besucherin');
    const visitor = { firstName: 'Viola', lastName: 'Vorgemerkt', phone: '0351 424242' };
    expect((await t.client().post('/api/visitor-registrations', { ...visitor, email })).status).toBe(201);
    await waitForMail(
      t.services.mailWebUrl,
      (mail) => mail.to.some((to) => to.address === email) && mail.subject.includes('Vormerkung'),
      20_000,
    );
    const registrations = () => t.orm.em.fork().count(VisitorRegistration, { email });
    const mailLog = () =>
      t.orm.em.fork().count(EmailLog, { recipient: email, template: 'visitor-confirmation' });
    expect(await registrations()).toBe(1);
    await expect.poll(mailLog, WAIT).toBe(1);

    // Someone else registers an account with her address and asks for "their" data.
    const intruder = t.client();
    await registerUser(intruder, { firstName: 'Ingo', lastName: 'Eindringling', email });
    expect((await intruder.post('/api/account/export', {})).status).toBe(201);
    await expect
      .poll(async () => (await intruder.get('/api/account/export')).data?.status, WAIT)
      .toBe('ready');
    const download = await fetchBytes((await intruder.get('/api/account/export')).data.downloadUrl, intruder);
    expect(download.status).toBe(200);
    const entries = readZip(download.body);
    const json = (name: string) =>
      JSON.parse(entries.find((entry) => entry.name === name)!.data.toString('utf8'));
    expect(json('besucher-voranmeldungen.json')).toEqual([]);
    const everything = Buffer.concat(entries.map((entry) => entry.data)).toString('utf8');
    for (const hers of [visitor.firstName, visitor.lastName, visitor.phone]) {
      expect(everything, hers).not.toContain(hers);
    }

    // Deleting that account leaves her registration and its mail log in place.
    expect((await intruder.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await registrations()).toBe(1);
    expect(await mailLog()).toBe(1);

    // Once an account confirms the address, the registration is the account holder's.
    const owner = t.client();
    await registerUser(owner, { firstName: 'Viola', lastName: 'Vorgemerkt', email });
    const token = await mailedLinkToken(t, email, 'account-confirm');
    expect((await owner.post('/api/auth/confirm-email', { token })).status).toBe(200);
    expect((await owner.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await registrations()).toBe(0);
    expect(await mailLog()).toBe(0);
  });
});
