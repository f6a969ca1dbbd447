import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '@schlosstreffen/api/core';
import { createTestContext, type TestContext } from '@schlosstreffen/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type Storage } from './storage.js';

let t: TestContext;
let s3: S3Client;
let bucket: string;
let storage: Storage;
/** The signed headers of every request the client sent, in order. */
const sent: { method: string; path: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  s3 = createS3Client(t.config.s3);
  // The deserialize step sees the request as it goes out, signed.
  s3.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { method: string; path: string; headers: Record<string, string> };
      sent.push({ method: request.method, path: request.path, headers: { ...request.headers } });
      return next(args);
    },
    { step: 'deserialize', name: 'recordSent' },
  );
  bucket = t.config.s3.bucket;
  storage = createStorage(s3, bucket);
});
afterAll(async () => {
  s3?.destroy();
  await t?.close();
});

const exists = (key: string) =>
  s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    (error: Error) => {
      if (error.name === 'NotFound') return false;
      throw error;
    },
  );

describe('the worker storage', () => {
  it('stores a body without hashing it into the signature, and reads it back whole', async () => {
    const key = `thumbs/${randomUUID()}/1280.webp`;
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);
    sent.length = 0;
    await storage.put(key, body, { contentType: 'image/webp', metadata: { source: 'test' } });
    const put = sent.find((request) => request.method === 'PUT');
    expect(put?.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 .*x-amz-content-sha256/);

    const stored = await storage.getWithMetadata(key, 10 * 1024 * 1024);
    expect(stored?.data.equals(body)).toBe(true);
    expect(stored?.metadata).toEqual({ source: 'test' });
  });

  it('uploads a file in parts through one buffer, and a small one in a single put', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'storage-'));
    try {
      // Three parts: 8 MB, 8 MB and the rest; every byte tells its position.
      const large = Buffer.alloc(20 * 1024 * 1024 + 3);
      for (let at = 0; at + 4 <= large.length; at += 4096) large.writeUInt32BE(at, at);
      const small = Buffer.from('%PDF-1.7 klein');
      await writeFile(path.join(dir, 'large.pdf'), large);
      await writeFile(path.join(dir, 'small.pdf'), small);
      const largeKey = `exports/${randomUUID()}.pdf`;
      const smallKey = `exports/${randomUUID()}.pdf`;
      const options = { contentType: 'application/pdf', cacheControl: 'private, no-cache' };

      sent.length = 0;
      await storage.putFile(largeKey, path.join(dir, 'large.pdf'), options);
      const parts = sent.filter((request) => request.method === 'PUT');
      expect(parts).toHaveLength(3);
      expect(parts.map((request) => request.headers['content-length'])).toEqual([
        String(8 * 1024 * 1024),
        String(8 * 1024 * 1024),
        String(4 * 1024 * 1024 + 3),
      ]);
      expect(parts.every((request) => request.headers['x-amz-content-sha256'] === 'UNSIGNED-PAYLOAD')).toBe(
        true,
      );
      expect((await storage.get(largeKey, 30 * 1024 * 1024))?.equals(large)).toBe(true);
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: largeKey }));
      expect(head).toMatchObject({ ContentType: 'application/pdf', CacheControl: 'private, no-cache' });

      sent.length = 0;
      await storage.putFile(smallKey, path.join(dir, 'small.pdf'), options);
      expect(sent.map((request) => request.method)).toEqual(['PUT']);
      expect((await storage.get(smallKey, 1024))?.equals(small)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('deletes one key with a plain DELETE, and a missing one counts as deleted', async () => {
    const key = `uploads/${randomUUID()}/${randomUUID()}.jpg`;
    await storage.put(key, Buffer.from('x'), { contentType: 'image/jpeg' });
    sent.length = 0;
    await storage.deleteMany([key]);
    expect(sent.map((request) => request.method)).toEqual(['DELETE']);
    expect(sent[0]?.path).toContain(key);
    expect(await exists(key)).toBe(false);
    await expect(storage.deleteMany([key])).resolves.toBeUndefined();
  });
});
