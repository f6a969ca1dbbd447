import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { UploadRequest } from '@schlosstreffen/shared';
import { assertUploadRoom } from '../accounts/account-limits.js';
import { Upload } from '../model/upload.entity.js';
import type { User } from '../model/user.entity.js';
import { newUploadKey, objectPathOf } from '../storage/objects.js';

export interface UploadServiceDeps {
  em: EntityManager;
  /** Client for server-side calls. */
  s3: S3Client;
  /** Client whose endpoint browsers reach: presigned URLs are made with it. */
  presigner: S3Client;
  bucket: string;
}

/** Signed upload URLs live minutes, not days: long enough for a slow phone upload of 10 MB. */
export const UPLOAD_URL_SECONDS = 10 * 60;

/**
 * Signs browser uploads straight to the bucket, for one key the server chooses under the caller's
 * own prefix, with the extension of the signed content type. The PUT is signed with its
 * Content-Type and Content-Length, so the storage refuses any other type or size. Each signed key is
 * recorded (an account signs at most ACCOUNT_LIMITS.uploadBytesPerDay a day): never attached,
 * retention removes it. Images are at most 10 MB, far below the uploader's
 * multipart threshold, so no multipart calls exist.
 */
export class UploadService {
  constructor(private readonly deps: UploadServiceDeps) {}

  async presignPut(user: User, request: UploadRequest) {
    const key = newUploadKey(user.id, request.type);
    await this.deps.em.fork().transactional(async (em) => {
      const now = new Date();
      await assertUploadRoom(em, user.id, request.size, now);
      await em.insert(Upload, {
        key,
        user: user.id,
        contentType: request.type,
        size: request.size,
        createdAt: now,
      });
    });
    const uploadURL = await getSignedUrl(
      this.deps.presigner,
      new PutObjectCommand({
        Bucket: this.deps.bucket,
        Key: key,
        ContentType: request.type,
        ContentLength: request.size,
      }),
      { expiresIn: UPLOAD_URL_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) },
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
      expires: UPLOAD_URL_SECONDS,
    };
  }
}
