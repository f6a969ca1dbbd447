import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedS3 } from './dev-services.js';
import type { EmbeddedS3 } from './dev-services.js';

let dataDir: string;
let s3: EmbeddedS3;
let client: S3Client;

function clientWith(secretAccessKey: string): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey },
  });
}

const quotedMd5 = (data: Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;

/** The S3 error code and HTTP status an SDK call fails with. */
async function failure(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => expect.fail('the request succeeded'),
    (error: unknown) => error,
  )) as { name: string; $metadata: { httpStatusCode?: number } };
  return { code: error.name, status: error.$metadata.httpStatusCode };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 's3rver-multipart-'));
  s3 = await startEmbeddedS3({ dataDir, port: 0 });
  client = clientWith(s3.secretAccessKey);
});

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('multipart uploads on the embedded S3', () => {
  it('lists uploaded parts with their ETags and sizes, then completes the object', async () => {
    const { bucket: Bucket } = s3;
    const Key = 'uploads/user/photo one.jpg';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const first = randomBytes(5 * 1024 * 1024);
    const second = randomBytes(12_345);
    // Out of order, as parallel uploads finish
    const { ETag: secondETag } = await client.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: second }),
    );
    const { ETag: firstETag } = await client.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: first }),
    );
    expect([firstETag, secondETag]).toEqual([quotedMd5(first), quotedMd5(second)]);

    const listed = await client.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    expect(listed).toMatchObject({ Bucket, Key, UploadId, MaxParts: 1000, IsTruncated: false });
    expect(listed.Parts?.map(({ PartNumber, ETag, Size }) => ({ PartNumber, ETag, Size }))).toEqual([
      { PartNumber: 1, ETag: firstETag, Size: first.length },
      { PartNumber: 2, ETag: secondETag, Size: second.length },
    ]);
    expect(listed.Parts?.[0]?.LastModified).toBeInstanceOf(Date);

    // Paging with max-parts and part-number-marker
    const page1 = await client.send(new ListPartsCommand({ Bucket, Key, UploadId, MaxParts: 1 }));
    expect(page1).toMatchObject({ IsTruncated: true, NextPartNumberMarker: '1' });
    expect(page1.Parts?.map((part) => part.PartNumber)).toEqual([1]);
    const page2 = await client.send(
      new ListPartsCommand({ Bucket, Key, UploadId, MaxParts: 1, PartNumberMarker: '1' }),
    );
    expect(page2.IsTruncated).toBe(false);
    expect(page2.Parts?.map((part) => part.PartNumber)).toEqual([2]);

    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: {
          Parts: listed.Parts?.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })),
        },
      }),
    );
    const object = await client.send(new GetObjectCommand({ Bucket, Key }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    expect(bytes.equals(Buffer.concat([first, second]))).toBe(true);

    // A completed upload is gone
    expect(await failure(client.send(new ListPartsCommand({ Bucket, Key, UploadId })))).toEqual({
      code: 'NoSuchUpload',
      status: 404,
    });
  });

  it('aborts an upload and removes its parts', async () => {
    const { bucket: Bucket } = s3;
    const Key = 'uploads/user/aborted.jpg';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    await client.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: randomBytes(1000) }),
    );
    const uploadDir = path.join(dataDir, Bucket, '._S3rver_uploads', UploadId ?? '');
    expect(existsSync(path.join(uploadDir, '1'))).toBe(true);

    const aborted = await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    expect(existsSync(uploadDir)).toBe(false);

    const notFound = { code: 'NoSuchUpload', status: 404 };
    expect(await failure(client.send(new ListPartsCommand({ Bucket, Key, UploadId })))).toEqual(notFound);
    expect(await failure(client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })))).toEqual(
      notFound,
    );
    // A part arriving after the abort does not bring the upload back
    expect(
      await failure(
        client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: randomBytes(10) })),
      ),
    ).toEqual(notFound);
    expect(existsSync(uploadDir)).toBe(false);
    // Nor does an upload id used with another key or an unknown one
    const other = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    expect(
      await failure(
        client.send(new ListPartsCommand({ Bucket, Key: 'other.jpg', UploadId: other.UploadId })),
      ),
    ).toEqual(notFound);
    expect(await failure(client.send(new ListPartsCommand({ Bucket, Key, UploadId: '../..' })))).toEqual(
      notFound,
    );
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: other.UploadId }));
  });

  it('refuses ListParts and AbortMultipartUpload with a wrong signature or none', async () => {
    const { bucket: Bucket } = s3;
    const Key = 'uploads/user/guarded.jpg';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const intruder = clientWith('not-the-secret');
    try {
      expect(await failure(intruder.send(new ListPartsCommand({ Bucket, Key, UploadId })))).toEqual({
        code: 'SignatureDoesNotMatch',
        status: 403,
      });
      expect(
        await failure(intruder.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))),
      ).toEqual({
        code: 'SignatureDoesNotMatch',
        status: 403,
      });
    } finally {
      intruder.destroy();
    }
    const url = `${s3.endpoint}/${Bucket}/${encodeURIComponent(Key).replaceAll('%2F', '/')}?uploadId=${UploadId}`;
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('<Code>AccessDenied</Code>');
    }
    // The upload is still there
    const listed = await client.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    expect(listed.Parts ?? []).toEqual([]);
  });
});

describe('presigned PUT on the embedded S3', () => {
  const size = 2048;

  async function presignedPut(Key: string): Promise<string> {
    return getSignedUrl(
      client,
      new PutObjectCommand({ Bucket: s3.bucket, Key, ContentType: 'image/jpeg', ContentLength: size }),
      { signableHeaders: new Set(['content-type', 'content-length']) },
    );
  }

  const put = (url: string, body: Buffer, type: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'Content-Type': type } });

  it('signs Content-Length and Content-Type into the URL', async () => {
    const url = new URL(await presignedPut('uploads/user/signed.jpg'));
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
  });

  it('accepts exactly the signed size and type', async () => {
    const Key = 'uploads/user/exact.jpg';
    const body = randomBytes(size);
    const response = await put(await presignedPut(Key), body, 'image/jpeg');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(quotedMd5(body));

    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }));
    expect(object.ContentType).toBe('image/jpeg');
    expect(Buffer.from((await object.Body?.transformToByteArray()) ?? []).equals(body)).toBe(true);
  });

  it('refuses another size or type, and a PUT without the signature', async () => {
    const Key = 'uploads/user/tampered.jpg';
    const url = await presignedPut(Key);
    for (const [body, type] of [
      [randomBytes(size + 1), 'image/jpeg'],
      [randomBytes(size - 1), 'image/jpeg'],
      [randomBytes(size), 'image/png'],
      [randomBytes(size), 'text/html'],
    ] as const) {
      const response = await put(url, body, type);
      expect(response.status, `${body.length} bytes of ${type}`).toBe(403);
      expect(await response.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    // s3rver alone would store an unsigned PUT as an anonymous request
    const unsigned = await put(url.split('?')[0] ?? '', randomBytes(size + 1), 'text/html');
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>AccessDenied</Code>');

    const missing = await failure(client.send(new GetObjectCommand({ Bucket: s3.bucket, Key })));
    expect(missing).toEqual({ code: 'NoSuchKey', status: 404 });
  });

  it('still answers CORS preflights, which carry no signature', async () => {
    const response = await fetch(`${s3.endpoint}/${s3.bucket}/uploads/user/x.jpg`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
