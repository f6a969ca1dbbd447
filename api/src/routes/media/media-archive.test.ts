import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { RequestContext } from '@mikro-orm/core';
import { mediaFileName, type Role } from '@schlosstreffen/shared';
import Koa from 'koa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EditionEvents } from '../../core/editions/edition-events.js';
import { errorHandler } from '../../http/error-handler.js';
import type { AppState } from '../../http/context.js';
import { createS3Client, ensureBucket } from '../../core/storage/s3.js';
import {
  type TestClient,
  type TestContext,
  createTestContext,
  createVehicle,
  readZip,
} from '../../testing/index.js';
import { User } from '../../core/model/user.entity.js';
import { uniqueEntryName } from '@schlosstreffen/shared';
import { archiveFileName, MISSING_FILES_ENTRY, mediaArchiveRoutes } from './media-archive.js';

/**
 * GET /api/admin/media.zip streams every image of the media library as one ZIP. The objects are read
 * from S3 one after another and piped into the archive, so the server's memory does not grow with the
 * number or size of the images: measured here with 30 stored images (53 MiB, the largest 24 MiB)
 * against a bound far below (about 5 MiB are used).
 */

let t: TestContext;
let s3: S3Client;
let anon: TestClient;
let user: TestClient;
let reviewer: TestClient;
let admin: TestClient;
let owner: TestClient;
let ownerId: string;

const MiB = 1024 * 1024;

async function signedIn(role: Role, firstName: string) {
  return t.signIn(role, { firstName, lastName: 'Test' });
}

interface Stored {
  url: string;
  createdAt: Date;
  vehicle: { name: string | null; brand: string; model: string };
  sha: string | undefined;
}

/** A media row for the vehicle; with `bytes` its object is written to the bucket, else it is missing. */
async function addMedia(
  vehicle: Stored['vehicle'] & { id: string },
  createdAt: Date,
  { bytes, ext = 'jpg', isHero = false }: { bytes?: Buffer; ext?: string; isHero?: boolean },
): Promise<Stored> {
  const key = `uploads/${ownerId}/${randomUUID()}.${ext}`;
  const url = `/objects/${key}`;
  if (bytes) {
    await s3.send(
      new PutObjectCommand({ Bucket: t.config.s3.bucket, Key: key, Body: bytes, ContentType: 'image/jpeg' }),
    );
  }
  await t.orm.em.getConnection().execute(
    `insert into media (id, vehicle_id, type, url, is_hero, priority, crop_x, crop_y, scale, approval_status, created_at)
       values (?, ?, 'image', ?, ?, 0, 50, 50, 100, 'auto', ?)`,
    [randomUUID(), vehicle.id, url, isHero, createdAt],
    'run',
  );
  return {
    url,
    createdAt,
    vehicle: { name: vehicle.name, brand: vehicle.brand, model: vehicle.model },
    sha: bytes ? sha256(bytes) : undefined,
  };
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/**
 * Live memory (JS heap and buffers) after full collections. Buffers' memory is released by a
 * background sweeper after a collection, so the count is read once that has had a moment.
 */
async function liveBytes(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 5));
  gc();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Downloads to a file while sampling live memory every `sampleEvery` bytes; returns the peak growth.
 * Plain `node:http` with `pipeline`, so the client itself holds back too (fetch would queue ahead).
 */
async function download(client: TestClient, file: string, sampleEvery = 2 * MiB) {
  const baseline = await liveBytes();
  let peak = 0;
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    httpGet(
      new URL('/api/admin/media.zip', t.baseUrl),
      { headers: { cookie: client.cookieHeader } },
      resolve,
    ).on('error', reject),
  );
  expect(res.statusCode).toBe(200);
  let received = 0;
  let nextSample = sampleEvery;
  const sample = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received < nextSample) return done(null, chunk);
      nextSample += sampleEvery;
      void liveBytes().then((live) => {
        peak = Math.max(peak, live - baseline);
        done(null, chunk);
      });
    },
  });
  await pipeline(res, sample, createWriteStream(file));
  return { headers: res.headers, received, peak };
}

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  s3 = createS3Client(t.config.s3);
  await ensureBucket(s3, t.config.s3.bucket);
  anon = t.client();
  user = (await signedIn('user', 'Olaf')).client;
  ({ client: owner, id: ownerId } = await signedIn('user', 'Otto'));
  reviewer = (await signedIn('reviewer', 'Rita')).client;
  admin = (await signedIn('admin', 'Anna')).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

describe('uniqueEntryName', () => {
  it('numbers repeated names from _2 on, ignoring case', () => {
    const taken = new Set<string>();
    const names = ['a.jpg', 'a.jpg', 'A.JPG', 'a_2.jpg', 'noext', 'noext'].map((name) =>
      uniqueEntryName(name, taken),
    );
    expect(names).toEqual(['a.jpg', 'a_2.jpg', 'A_3.JPG', 'a_2_2.jpg', 'noext', 'noext_2']);
  });

  it('dates the archive in Berlin', () => {
    expect(archiveFileName(new Date('2026-11-22T23:30:00Z'))).toBe('schlosstreffen-medien-2026-11-23.zip');
  });
});

describe('GET /api/admin/media.zip', () => {
  it('answers 401 signed out and 403 for users', async () => {
    const signedOut = await anon.get('/api/admin/media.zip');
    expect(signedOut.status).toBe(401);
    expect(signedOut.data.message).toBeTruthy();
    const forbidden = await user.get('/api/admin/media.zip');
    expect(forbidden.status).toBe(403);
    expect(forbidden.data.message).toBeTruthy();
  });

  it('sends an empty archive while there are no images', async () => {
    const res = await fetch(new URL('/api/admin/media.zip', t.baseUrl), {
      headers: { cookie: reviewer.cookieHeader },
    });
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip).toHaveLength(22);
    expect(readZip(zip)).toEqual([]);
  });

  it('streams 30 stored images into one valid ZIP with unique names, listing a missing one', async () => {
    const pearl = await createVehicle(owner, { name: 'Black Pearl' });
    const audi = await createVehicle(owner, { brand: 'Audi', model: 'RS2 Avant' });
    const zora = await createVehicle(owner, {
      name: 'Zora / Rot: "Die Zweite"',
      brand: 'Opel',
      model: 'Manta',
    });

    const sameSecond = new Date('2026-11-22T09:30:00.000Z');
    const stored: Stored[] = [];
    // Ten images of one vehicle uploaded in the same second: one name, numbered _2 … _10.
    for (let i = 0; i < 10; i += 1) {
      stored.push(await addMedia(pearl, sameSecond, { bytes: randomBytes(MiB), isHero: i === 0 }));
    }
    // Ten without a name (brand_model), one a PNG, one large (24 MiB).
    for (let i = 0; i < 10; i += 1) {
      stored.push(
        await addMedia(audi, new Date(Date.UTC(2026, 10, 20, 8, i)), {
          bytes: randomBytes(i === 0 ? 24 * MiB : MiB),
          ext: i === 1 ? 'png' : 'jpg',
        }),
      );
    }
    for (let i = 0; i < 10; i += 1) {
      stored.push(
        await addMedia(zora, new Date(Date.UTC(2026, 5, 1, 12, 0, i)), { bytes: randomBytes(MiB) }),
      );
    }
    // In the library, its object gone.
    const missing = await addMedia(zora, new Date(Date.UTC(2026, 5, 2, 12)), {});
    const totalBytes = 53 * MiB;

    const dir = await mkdtemp(path.join(tmpdir(), 'media-archive-'));
    try {
      const file = path.join(dir, 'all.zip');
      const { headers, received, peak } = await download(admin, file);
      expect(headers['content-type']).toBe('application/zip');
      expect(headers['content-disposition']).toBe(`attachment; filename="${archiveFileName()}"`);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-length']).toBeUndefined();
      expect(headers['transfer-encoding']).toBe('chunked');
      expect(received).toBeGreaterThan(totalBytes);
      console.log(
        `media.zip: ${(received / MiB).toFixed(1)} MiB streamed, peak live memory growth ${(peak / MiB).toFixed(1)} MiB`,
      );
      // Holding the images (all 53 MiB, or even the largest one, 24 MiB) would exceed this by far.
      expect(peak).toBeLessThan(16 * MiB);

      const entries = readZip(await readFile(file));
      const names = entries.map((entry) => entry.name);
      expect(names).toHaveLength(31);
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(31);
      expect(entries.every((entry) => entry.method === 0)).toBe(true);

      const pearlNames = ['Black_Pearl_2026-11-22T10-30-00.jpg'];
      for (let n = 2; n <= 10; n += 1) pearlNames.push(`Black_Pearl_2026-11-22T10-30-00_${n}.jpg`);
      const audiNames = Array.from(
        { length: 10 },
        (_, i) => `Audi_RS2_Avant_2026-11-20T09-${String(i).padStart(2, '0')}-00.${i === 1 ? 'png' : 'jpg'}`,
      );
      const zoraNames = Array.from(
        { length: 10 },
        (_, i) => `Zora_Rot_Die_Zweite_2026-06-01T14-00-${String(i).padStart(2, '0')}.jpg`,
      );
      expect([...names].sort()).toEqual(
        [...pearlNames, ...audiNames, ...zoraNames, MISSING_FILES_ENTRY].sort(),
      );
      // Newest first, like the library.
      expect(names.slice(0, 10).sort()).toEqual([...pearlNames].sort());
      expect(names.at(-1)).toBe(MISSING_FILES_ENTRY);

      // Every stored image exactly once, with its bytes; single names map to their own image.
      const shas = entries.filter((entry) => entry.name !== MISSING_FILES_ENTRY).map((e) => sha256(e.data));
      expect([...shas].sort()).toEqual(stored.map((item) => item.sha).sort());
      for (const item of stored.slice(10)) {
        const entry = entries.find((candidate) => candidate.name === mediaFileName(item));
        expect(entry && sha256(entry.data), mediaFileName(item)).toBe(item.sha);
      }
      expect(entries.find((entry) => entry.name === audiNames[0])!.data.length).toBe(24 * MiB);

      const list = entries.find((entry) => entry.name === MISSING_FILES_ENTRY)!.data.toString('utf8');
      expect(list).toContain('Diese Bilder fehlen im Speicher');
      expect(list).toContain(`Zora_Rot_Die_Zweite_2026-06-02T14-00-00.jpg  (${missing.url})`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The route on a bucket that is simulated: counts open objects and can fail in the middle of one. */
describe('streaming against a simulated bucket', () => {
  const CHUNK = 64 * 1024;

  function fakeBucket(options: { failKeyIndex?: number } = {}) {
    const state = { requested: [] as string[], open: 0, maxOpen: 0, destroyed: 0 };
    const s3 = {
      async send(command: { input: { Key: string } }) {
        const index = state.requested.length;
        state.requested.push(command.input.Key);
        state.open += 1;
        state.maxOpen = Math.max(state.maxOpen, state.open);
        let sent = 0;
        const body = new Readable({
          read() {
            if (options.failKeyIndex === index && sent === 4) {
              this.destroy(new Error('connection to the bucket lost'));
              return;
            }
            if (sent === 8) return void this.push(null);
            sent += 1;
            this.push(Buffer.alloc(CHUNK, index));
          },
        });
        body.once('close', () => {
          state.open -= 1;
          if (!body.readableEnded) state.destroyed += 1;
        });
        return { Body: body };
      },
    };
    return { s3: s3 as unknown as S3Client, state };
  }

  async function serve(s3: S3Client, pageSize?: number) {
    const app = new Koa<AppState>();
    app.silent = true;
    app.use(errorHandler(() => undefined));
    const adminUser = (await t.orm.em.fork().findOneOrFail(User, { role: 'admin' })) as User;
    app.use((ctx, next) =>
      RequestContext.create(t.orm.em, () => {
        ctx.state.user = adminUser;
        // As the app's loadUser says with STAFF_SECOND_FACTOR off (the test harness's setting).
        ctx.state.secondFactorRequired = false;
        return next();
      }),
    );
    app.use(
      mediaArchiveRoutes({
        em: t.orm.em,
        s3,
        bucket: 'simulated',
        pageSize,
        events: new EditionEvents(t.orm.em, 0),
      }).routes(),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/media.zip`;
    return {
      url,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('opens one object at a time', async () => {
    const { s3, state } = fakeBucket();
    const { url, close } = await serve(s3);
    try {
      const res = await fetch(url);
      const entries = readZip(Buffer.from(await res.arrayBuffer()));
      expect(entries).toHaveLength(31);
      expect(state.requested).toHaveLength(31);
      expect(state.maxOpen).toBe(1);
    } finally {
      await close();
    }
  });

  it('reads the library a page at a time: every image once, in the same order', async () => {
    const requested = async (pageSize?: number) => {
      const { s3, state } = fakeBucket();
      const { url, close } = await serve(s3, pageSize);
      try {
        const entries = readZip(Buffer.from(await (await fetch(url)).arrayBuffer()));
        return { keys: state.requested, names: entries.map((entry) => entry.name) };
      } finally {
        await close();
      }
    };
    const whole = await requested();
    // Pages of 4 split the ten images of one second (equal created_at) across pages.
    const paged = await requested(4);
    expect(whole.keys).toHaveLength(31);
    expect(paged.keys).toEqual(whole.keys);
    expect(paged.names).toEqual(whole.names);
    expect(new Set(paged.keys).size).toBe(31);
  });

  it('breaks the download when an object fails mid-stream, instead of ending a valid-looking ZIP', async () => {
    const { s3, state } = fakeBucket({ failKeyIndex: 2 });
    const { url, close } = await serve(s3);
    try {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const received: Buffer[] = [];
      const read = (async () => {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          received.push(Buffer.from(chunk));
        }
      })();
      await expect(read).rejects.toThrow();
      const partial = Buffer.concat(received);
      expect(partial.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(false);
      expect(state.requested).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it('stops reading the bucket when the client goes away', async () => {
    const { s3, state } = fakeBucket();
    const { url, close } = await serve(s3);
    try {
      const controller = new AbortController();
      const res = await fetch(url, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(state.requested.length).toBeLessThan(31);
      expect(state.open).toBe(0);
      const requested = state.requested.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(state.requested).toHaveLength(requested);
    } finally {
      await close();
    }
  });
});
