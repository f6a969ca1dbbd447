import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '@schlosstreffen/api/core';
import { createTestContext, type TestContext } from '@schlosstreffen/api/testing';
import { UnrecoverableError, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type Storage } from '../../adapters/storage.js';
import { dispatch } from '../dispatch.js';
import { createDeleteObjects } from './delete-objects.js';

let t: TestContext;
let s3: S3Client;
let bucket: string;
let storage: Storage;
const userId = randomUUID();

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  s3 = createS3Client(t.config.s3);
  bucket = t.config.s3.bucket;
  storage = createStorage(s3, bucket);
});
afterAll(async () => {
  s3?.destroy();
  await t?.close();
});

async function putObject(key: string, body: Buffer, contentType: string) {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

async function head(key: string) {
  try {
    return await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if ((error as Error).name === 'NotFound') return undefined;
    throw error;
  }
}

describe('storage.delete', () => {
  it('deletes the listed keys and everything under the prefixes', async () => {
    const id = randomUUID();
    const keys = [`uploads/${userId}/${id}-a.jpg`, `uploads/${userId}/${id}-b.jpg`];
    const under = [1, 2, 3, 4, 5].map((n) => `thumbs/${id}/${n}.webp`);
    const sibling = `thumbs/${id}-other/480.webp`;
    for (const key of [...keys, ...under, sibling]) await putObject(key, Buffer.from(key), 'image/webp');

    const process = dispatch({ 'storage.delete': createDeleteObjects({ storage }) });
    const job = {
      id: randomUUID(),
      name: 'storage.delete',
      data: { keys: [...keys, `uploads/${userId}/${id}-missing.jpg`], prefixes: [`thumbs/${id}/`] },
    } as unknown as Job;
    expect(await process(job)).toEqual({ status: 'deleted', deleted: 8 });

    for (const key of [...keys, ...under]) expect(await head(key)).toBeUndefined();
    expect(await head(sibling)).toBeDefined();
    // Idempotent: running again finds nothing left and succeeds.
    expect(await process(job)).toEqual({ status: 'deleted', deleted: 3 });

    const wide = { ...job, data: { keys: [], prefixes: ['thumbs/'] } } as unknown as Job;
    await expect(process(wide)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await head(sibling)).toBeDefined();
    await storage.deleteMany([sibling]);
  });

  it('follows ListObjectsV2 continuation tokens', async () => {
    // The embedded s3rver cannot page (its tokens use DES, which Node's OpenSSL 3 refuses), so the
    // listing is served here, with the page size passed through.
    const all = Array.from({ length: 5 }, (_, n) => `thumbs/x/${n}.webp`);
    const requests: { token?: string; maxKeys?: number }[] = [];
    const paging = {
      async send(command: { input: { ContinuationToken?: string; MaxKeys?: number } }) {
        const { ContinuationToken: token, MaxKeys: maxKeys = 1000 } = command.input;
        requests.push({ token, maxKeys });
        const start = token ? Number(token) : 0;
        const end = start + maxKeys;
        return {
          Contents: all.slice(start, end).map((Key) => ({ Key })),
          IsTruncated: end < all.length,
          NextContinuationToken: end < all.length ? String(end) : undefined,
        };
      },
    } as unknown as S3Client;
    expect(await createStorage(paging, bucket, { listPageSize: 2 }).list('thumbs/x/')).toEqual(all);
    expect(requests).toEqual([
      { token: undefined, maxKeys: 2 },
      { token: '2', maxKeys: 2 },
      { token: '4', maxKeys: 2 },
    ]);
  });

  it('sends DeleteObjects in batches of at most 1000 keys', async () => {
    const batches: number[] = [];
    const counting = {
      send(command: { constructor: { name: string }; input: { Delete?: { Objects?: unknown[] } } }) {
        if (command.constructor.name === 'DeleteObjectsCommand') {
          batches.push(command.input.Delete?.Objects?.length ?? 0);
        }
        return s3.send(command as never);
      },
    } as unknown as S3Client;
    const keys = Array.from({ length: 2001 }, (_, n) => `thumbs/${randomUUID()}/${n}.webp`);
    await createStorage(counting, bucket).deleteMany(keys);
    expect(batches).toEqual([1000, 1000, 1]);
  });
});
