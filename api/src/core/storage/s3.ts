import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';

export function createS3Client(config: S3Config, endpoint = config.endpoint): S3Client {
  return new S3Client({
    endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Presigned URLs must not carry a checksum computed over an empty body at signing time: S3,
    // MinIO and R2 would reject the browser's real upload against it.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A storage that does not answer fails the call instead of holding it (the SDK retries twice).
    requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
  });
}

/** Creates the bucket when it does not exist yet (embedded server, fresh test runs). */
export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

/** An object as a listing names it. */
export interface ListedObject {
  key: string;
  lastModified?: Date;
}

/** Every object under the prefix with its modification time, read page by page. */
export async function listObjects(
  s3: S3Client,
  bucket: string,
  prefix: string,
  pageSize?: number,
): Promise<ListedObject[]> {
  const objects: ListedObject[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        ContinuationToken: token,
        MaxKeys: pageSize,
      }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key) objects.push({ key: object.Key, lastModified: object.LastModified });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/** Every key under the prefix, read page by page. */
export async function listKeys(
  s3: S3Client,
  bucket: string,
  prefix: string,
  pageSize?: number,
): Promise<string[]> {
  return (await listObjects(s3, bucket, prefix, pageSize)).map((object) => object.key);
}

const DELETE_BATCH = 1000;

/**
 * Deletes in batches of 1000 (the S3 limit); keys that do not exist count as deleted. A single key
 * goes as a plain DELETE, which needs no request body with its checksum (a job's upload).
 */
export async function deleteKeys(s3: S3Client, bucket: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 1) {
    try {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: keys[0] }));
    } catch (error) {
      if ((error as Error).name !== 'NoSuchKey' && (error as Error).name !== 'NotFound') throw error;
    }
    return;
  }
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    const result = await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failed = (result.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
    if (failed.length) {
      const first = failed[0];
      throw new Error(
        `could not delete ${failed.length} objects (${first?.Key}: ${first?.Code} ${first?.Message})`,
      );
    }
  }
}
