import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { deleteKeys, listKeys } from '@schlosstreffen/api/core';

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
  /** User metadata stored with the object (x-amz-meta-*; lower-case names). */
  metadata?: Record<string, string>;
}

export interface StoredObjectData {
  data: Buffer;
  metadata: Record<string, string>;
}

/** The worker's view of the bucket. S3 errors other than a missing key are thrown as they are (retry). */
export interface Storage {
  /** The object's bytes, or undefined when it does not exist; throws ObjectTooLargeError above maxBytes. */
  get(key: string, maxBytes: number): Promise<Buffer | undefined>;
  /** As `get`, with the object's user metadata. */
  getWithMetadata(key: string, maxBytes: number): Promise<StoredObjectData | undefined>;
  put(key: string, body: Buffer, options: PutOptions): Promise<void>;
  /** Uploads a stream of known length (e.g. a file), without holding it in memory. */
  putStream(key: string, body: Readable, options: PutOptions & { contentLength: number }): Promise<void>;
  /** Deletes in batches of 1000; keys that do not exist count as deleted. */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Every key under the prefix, read page by page. */
  list(prefix: string): Promise<string[]>;
}

export function createStorage(
  s3: S3Client,
  bucket: string,
  options: { listPageSize?: number } = {},
): Storage {
  const storage: Storage = {
    async get(key, maxBytes) {
      return (await storage.getWithMetadata(key, maxBytes))?.data;
    },

    async getWithMetadata(key, maxBytes) {
      let response;
      try {
        response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return undefined;
        throw error;
      }
      const metadata = response.Metadata ?? {};
      const body = response.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
      if (!body) return { data: Buffer.alloc(0), metadata };
      if ((response.ContentLength ?? 0) > maxBytes) {
        body.destroy();
        throw new ObjectTooLargeError(key, maxBytes);
      }
      // Read into one buffer of the announced size (no second copy); grown only if the length was not given.
      let data = Buffer.allocUnsafe(response.ContentLength ?? 0);
      let size = 0;
      for await (const chunk of body) {
        if (size + chunk.byteLength > maxBytes) {
          body.destroy();
          throw new ObjectTooLargeError(key, maxBytes);
        }
        if (size + chunk.byteLength > data.length) {
          const grown = Buffer.allocUnsafe(
            Math.min(maxBytes, Math.max(2 * data.length, size + chunk.byteLength)),
          );
          data.copy(grown, 0, 0, size);
          data = grown;
        }
        data.set(chunk, size);
        size += chunk.byteLength;
      }
      return { data: size === data.length ? data : data.subarray(0, size), metadata };
    },

    async put(key, body, { contentType, cacheControl, metadata }) {
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: cacheControl,
        Metadata: metadata,
      });
      // As with a stream, the body is not hashed into the signature: hashing a photo's megabytes
      // would hold the event loop for each put, and TLS protects the body on its way.
      command.middlewareStack.add(
        (next) => (args) => {
          const request = args.request as { headers?: Record<string, string> };
          if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
          return next(args);
        },
        { step: 'build', name: 'unsignedPayload' },
      );
      await s3.send(command);
    },

    async putStream(key, body, { contentType, cacheControl, contentLength }) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentLength: contentLength,
          ContentType: contentType,
          CacheControl: cacheControl,
        }),
      );
    },

    deleteMany: (keys) => deleteKeys(s3, bucket, keys),
    list: (prefix) => listKeys(s3, bucket, prefix, options.listPageSize),
  };
  return storage;
}
