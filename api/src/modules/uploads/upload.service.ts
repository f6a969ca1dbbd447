import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  MAX_IMAGE_BYTES,
  UPLOADER,
  VEHICLE_MESSAGES,
  type MultipartComplete,
  type MultipartCreate,
  type UploadRequest,
} from '@schlosstreffen/shared';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { User } from '../users/user.entity.js';
import { newUploadKey, objectPathOf, uploadPrefix } from './object-keys.js';

export interface UploadServiceDeps {
  /** Client for server-side calls. */
  s3: S3Client;
  /** Client whose endpoint browsers reach: presigned URLs are made with it. */
  presigner: S3Client;
  bucket: string;
}

/** A multipart image of at most 10 MB has at most this many parts of the 5 MB minimum. */
const MAX_IMAGE_PARTS = Math.ceil(MAX_IMAGE_BYTES / UPLOADER.minPartBytes);
const EXPIRES_IN = UPLOADER.presignedUrlExpirySeconds;

/**
 * Signs browser uploads straight to the bucket under the caller's own prefix. A single PUT is signed
 * with its Content-Type and Content-Length, so the storage refuses any other type or size; multipart
 * uploads are bounded by their part count and checked once complete.
 */
export class UploadService {
  constructor(private readonly deps: UploadServiceDeps) {}

  async presignPut(user: User, request: UploadRequest) {
    const key = newUploadKey(user.id, request.filename, request.type);
    const uploadURL = await getSignedUrl(
      this.deps.presigner,
      new PutObjectCommand({
        Bucket: this.deps.bucket,
        Key: key,
        ContentType: request.type,
        ContentLength: request.size,
      }),
      { expiresIn: EXPIRES_IN, signableHeaders: new Set(['content-type', 'content-length']) },
    );
    return {
      uploadURL,
      /** The same, as Uppy's getUploadParameters expects it. */
      method: 'PUT' as const,
      url: uploadURL,
      fields: {},
      headers: { 'content-type': request.type },
      key,
      objectPath: objectPathOf(key),
      expires: EXPIRES_IN,
    };
  }

  async createMultipart(user: User, request: MultipartCreate) {
    const key = newUploadKey(user.id, request.filename, request.type);
    const result = await this.deps.s3.send(
      new CreateMultipartUploadCommand({ Bucket: this.deps.bucket, Key: key, ContentType: request.type }),
    );
    if (!result.UploadId) throw new Error('storage returned no upload id');
    return { uploadId: result.UploadId, key, objectPath: objectPathOf(key) };
  }

  async listParts(user: User, uploadId: string, key: string) {
    this.checkKey(user, key);
    try {
      const parts = [];
      let marker: string | undefined;
      do {
        const page = await this.deps.s3.send(
          new ListPartsCommand({
            Bucket: this.deps.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
        parts.push(...(page.Parts ?? []).map(({ PartNumber, Size, ETag }) => ({ PartNumber, Size, ETag })));
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
      return parts;
    } catch (error) {
      throw this.storageError(error);
    }
  }

  async signPart(user: User, uploadId: string, key: string, partNumber: number) {
    this.checkKey(user, key);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_IMAGE_PARTS) {
      throw badRequest(VEHICLE_MESSAGES.uploadTooManyParts);
    }
    const url = await getSignedUrl(
      this.deps.presigner,
      new UploadPartCommand({
        Bucket: this.deps.bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
      }),
      { expiresIn: EXPIRES_IN },
    );
    return { url, expires: EXPIRES_IN };
  }

  /** Completes the upload; an object over 10 MB is deleted again and refused. */
  async completeMultipart(user: User, uploadId: string, key: string, body: MultipartComplete) {
    this.checkKey(user, key);
    if (body.parts.some((part) => part.PartNumber > MAX_IMAGE_PARTS)) {
      throw badRequest(VEHICLE_MESSAGES.uploadTooManyParts);
    }
    try {
      await this.deps.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.deps.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: [...body.parts].sort((a, b) => a.PartNumber - b.PartNumber),
          },
        }),
      );
    } catch (error) {
      throw this.storageError(error);
    }
    const head = await this.deps.s3.send(new HeadObjectCommand({ Bucket: this.deps.bucket, Key: key }));
    if ((head.ContentLength ?? 0) > MAX_IMAGE_BYTES) {
      await this.deps.s3.send(new DeleteObjectCommand({ Bucket: this.deps.bucket, Key: key }));
      throw badRequest(VEHICLE_MESSAGES.objectTooLarge);
    }
    return { location: objectPathOf(key), key, objectPath: objectPathOf(key) };
  }

  async abortMultipart(user: User, uploadId: string, key: string) {
    this.checkKey(user, key);
    try {
      await this.deps.s3.send(
        new AbortMultipartUploadCommand({ Bucket: this.deps.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      throw this.storageError(error);
    }
    return {};
  }

  /** Multipart calls name their object by key: it must be one of the caller's own uploads. */
  private checkKey(user: User, key: string | undefined): asserts key is string {
    if (!key) throw badRequest(VEHICLE_MESSAGES.uploadKeyRequired);
    if (!key.startsWith(uploadPrefix(user.id)) || key.includes('..')) {
      throw forbidden(VEHICLE_MESSAGES.uploadKeyForeign);
    }
  }

  /** Storage refusals become German 4xx answers; anything else stays an error (500). */
  private storageError(error: unknown): unknown {
    const name = (error as { name?: string }).name;
    if (name === 'NoSuchUpload' || name === 'NotFound') return notFound(VEHICLE_MESSAGES.uploadNotFound);
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    // InvalidPart, InvalidPartOrder, EntityTooSmall and the like: the parts sent do not fit.
    if (status && status >= 400 && status < 500) return badRequest(VEHICLE_MESSAGES.uploadIncomplete);
    return error;
  }
}
