import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/** The object is larger than the caller allows; nothing beyond the cap was read. */
export class ObjectTooLargeError extends Error {
  override name = 'ObjectTooLargeError';
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`object ${key} is larger than ${maxBytes} bytes`);
  }
}

export interface PutOptions {
  contentType: string;
  cacheControl?: string;
}

/** The worker's view of the bucket. S3 errors other than a missing key are thrown as they are (retry). */
export interface Storage {
  /** The object's bytes, or undefined when it does not exist; throws ObjectTooLargeError above maxBytes. */
  get(key: string, maxBytes: number): Promise<Buffer | undefined>;
  put(key: string, body: Buffer, options: PutOptions): Promise<void>;
  /** Deletes in batches of 1000; keys that do not exist count as deleted. */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Every key under the prefix, read page by page. */
  list(prefix: string): Promise<string[]>;
}

const DELETE_BATCH = 1000;

export function createStorage(
  s3: S3Client,
  bucket: string,
  options: { listPageSize?: number } = {},
): Storage {
  return {
    async get(key, maxBytes) {
      let response;
      try {
        response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return undefined;
        throw error;
      }
      const body = response.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
      if (!body) return Buffer.alloc(0);
      if ((response.ContentLength ?? 0) > maxBytes) {
        body.destroy();
        throw new ObjectTooLargeError(key, maxBytes);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          body.destroy();
          throw new ObjectTooLargeError(key, maxBytes);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks, size);
    },

    async put(key, body, { contentType, cacheControl }) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: cacheControl,
        }),
      );
    },

    async deleteMany(keys) {
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
    },

    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ContinuationToken: token,
            MaxKeys: options.listPageSize,
          }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
  };
}
