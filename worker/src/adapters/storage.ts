import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { deleteKeys, listKeys, listObjects, type ListedObject } from '@schlosstreffen/api/core';

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
  /**
   * Uploads a file (an export) in parts read into one reused buffer: memory stays at one part and
   * the upload leaves no garbage behind, however large the file (a stream of fresh chunks left tens
   * of megabytes for the collector to find).
   */
  putFile(key: string, file: string, options: PutOptions): Promise<void>;
  /** Deletes in batches of 1000; keys that do not exist count as deleted. */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Every key under the prefix, read page by page. */
  list(prefix: string): Promise<string[]>;
  /** As `list`, with each object's modification time. */
  listObjects(prefix: string): Promise<ListedObject[]>;
}

/** A file's part size: S3's parts are at least 5 MB (except the last). */
const FILE_PART_BYTES = 8 * 1024 * 1024;

/**
 * The body is not hashed into the request's signature (the SDK does the same for streams): hashing
 * megabytes would hold the event loop on every put; TLS protects the body on its way.
 */
function unsignedPayload<C extends PutObjectCommand | UploadPartCommand>(command: C): C {
  // The middleware reads only the request's headers: one typing serves both commands.
  (command as PutObjectCommand).middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'unsignedPayload' },
  );
  return command;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The command's steps (serialising, signing, sending) each run in a turn of the event loop of their
 * own. The first request of a process runs the client's code for the first time (endpoint rules,
 * signing, the HTTP handler): in one turn that held the loop for 20–40 ms; so a job drawing a PDF
 * or renewing its lock is never kept waiting that long. A few microseconds per request otherwise.
 */
function inTurns(command: GetObjectCommand): GetObjectCommand {
  // The same middleware serves every step; the stack's typing has an overload per step.
  const stack = command.middlewareStack as unknown as {
    add(
      middleware: (next: (args: unknown) => Promise<unknown>) => (args: unknown) => Promise<unknown>,
      options: { step: string; priority: 'high'; name: string },
    ): void;
  };
  for (const step of ['serialize', 'build', 'finalizeRequest', 'deserialize']) {
    stack.add(
      (next) => async (args) => {
        await nextTurn();
        return next(args);
      },
      { step, priority: 'high', name: `nextTurn-${step}` },
    );
  }
  return command;
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
        response = await s3.send(inTurns(new GetObjectCommand({ Bucket: bucket, Key: key })));
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
      await s3.send(unsignedPayload(command));
    },

    async putFile(key, file, options) {
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        const part = Buffer.allocUnsafe(Math.min(FILE_PART_BYTES, Math.max(1, size)));
        const read = async (position: number) => {
          const { bytesRead } = await handle.read(part, 0, Math.min(part.length, size - position), position);
          return part.subarray(0, bytesRead);
        };
        if (size <= FILE_PART_BYTES) {
          await storage.put(key, await read(0), options);
          return;
        }
        const { UploadId } = await s3.send(
          new CreateMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            ContentType: options.contentType,
            CacheControl: options.cacheControl,
            Metadata: options.metadata,
          }),
        );
        try {
          const parts: { ETag: string; PartNumber: number }[] = [];
          for (let position = 0; position < size; position += part.length) {
            const body = await read(position);
            const PartNumber = parts.length + 1;
            // Answered once the part is sent, so the buffer can take the next one.
            const { ETag } = await s3.send(
              unsignedPayload(
                new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body }),
              ),
            );
            parts.push({ ETag: ETag!, PartNumber });
          }
          await s3.send(
            new CompleteMultipartUploadCommand({
              Bucket: bucket,
              Key: key,
              UploadId,
              MultipartUpload: { Parts: parts },
            }),
          );
        } catch (error) {
          await s3
            .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }))
            .catch(() => undefined);
          throw error;
        }
      } finally {
        await handle.close();
      }
    },

    deleteMany: (keys) => deleteKeys(s3, bucket, keys),
    list: (prefix) => listKeys(s3, bucket, prefix, options.listPageSize),
    listObjects: (prefix) => listObjects(s3, bucket, prefix, options.listPageSize),
  };
  return storage;
}
