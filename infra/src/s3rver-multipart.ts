/**
 * What the embedded s3rver lacks for browser uploads (Uppy's S3 multipart, signed by our API):
 * ListParts and AbortMultipartUpload, and the refusal of unsigned requests that a private bucket on
 * S3 or MinIO answers with AccessDenied.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type S3rver from '@20minutes/s3rver';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import authentication from '@20minutes/s3rver/lib/middleware/authentication.js';
import cors from '@20minutes/s3rver/lib/middleware/cors.js';
import S3Error from '@20minutes/s3rver/lib/models/error.js';

/** `/{bucket}/{key}` with path-style addressing (vhost buckets are off). */
const OBJECT_PATH = /^\/([^/]+)\/(.+)$/;
/** Upload ids are s3rver's random hex; anything else could escape the uploads directory. */
const UPLOAD_ID = /^[\w-]+$/;
const PART_NUMBER = /^[1-9]\d*$/;
const MAX_PARTS = 1000;

/**
 * s3rver treats a request without any signature as anonymous and serves it, as if the bucket were
 * public. Then a client could drop a presigned URL's query and PUT any size and type, which the
 * signed Content-Length and Content-Type are meant to prevent, so refuse such requests like S3.
 * CORS preflights carry no signature and still pass.
 */
export function refuseUnsigned(): S3rverMiddleware {
  return (ctx, next) => {
    const signed =
      'authorization' in ctx.headers || 'X-Amz-Algorithm' in ctx.query || 'Signature' in ctx.query;
    if (signed || ctx.method === 'OPTIONS') return next();
    throw new S3Error('AccessDenied', 'Access Denied');
  };
}

/**
 * Handles `GET` (ListParts) and `DELETE` (AbortMultipartUpload) on `/{bucket}/{key}?uploadId=…`,
 * which s3rver's router refuses. UploadPart and CompleteMultipartUpload for an unknown upload get
 * NoSuchUpload here too (s3rver would recreate the aborted upload's directory or fail with a 500);
 * otherwise they pass on to the router. s3rver's own CORS and signature checks run first, since
 * they live in its router, which handled requests never reach.
 */
export function s3rverMultipart(server: S3rver): S3rverMiddleware {
  const applyCors = cors();
  const authenticate = authentication();
  const done = () => Promise.resolve();

  return async (ctx, next) => {
    const uploadId = single(ctx.query.uploadId);
    const match = OBJECT_PATH.exec(ctx.path);
    const bucket = decode(match?.[1]);
    const key = decode(match?.[2]);
    if (uploadId === undefined || bucket === undefined || key === undefined || ctx.method === 'OPTIONS') {
      return next();
    }
    ctx.params = { ...ctx.params, bucket, key };
    await applyCors(ctx, done);
    await authenticate(ctx, done); // throws SignatureDoesNotMatch, InvalidAccessKeyId, …

    const uploadDir = await findUpload(server, bucket, key, uploadId);
    switch (ctx.method) {
      case 'GET':
        ctx.body = { ListPartsResult: await listParts(ctx, uploadDir, bucket, key, uploadId) };
        return;
      case 'DELETE':
        await rm(uploadDir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      case 'PUT': {
        // s3rver uses the part number as a file name as it is
        const partNumber = single(ctx.query.partNumber) ?? '';
        if (!PART_NUMBER.test(partNumber) || Number(partNumber) > 10_000) {
          throw new S3Error(
            'InvalidArgument',
            'Part number must be an integer between 1 and 10000, inclusive',
            {
              ArgumentName: 'partNumber',
              ArgumentValue: partNumber,
            },
          );
        }
        return next();
      }
      default:
        return next();
    }
  };
}

/** The upload's directory (`<bucket>/._S3rver_uploads/<uploadId>`, with `key`, `metadata`, `1`, `1.md5`, …). */
async function findUpload(server: S3rver, bucket: string, key: string, uploadId: string): Promise<string> {
  if (!(await server.store.getBucket(bucket))) {
    throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
  }
  const uploadDir = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  // Initiation writes `key`; a part uploaded after an abort recreates the directory without it.
  const storedKey = UPLOAD_ID.test(uploadId)
    ? await readFile(path.join(uploadDir, 'key'), 'utf8').catch(() => undefined)
    : undefined;
  if (storedKey !== key) {
    throw new S3Error(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      { UploadId: uploadId },
    );
  }
  return uploadDir;
}

/** The ListPartsResult body, honouring `max-parts` and `part-number-marker`. */
async function listParts(
  ctx: S3rverContext,
  uploadDir: string,
  bucket: string,
  key: string,
  uploadId: string,
) {
  const maxParts = Math.min(intParam(ctx, 'max-parts', MAX_PARTS), MAX_PARTS);
  const marker = intParam(ctx, 'part-number-marker', 0);
  const numbers = (await readdir(uploadDir))
    .filter((name) => PART_NUMBER.test(name))
    .map(Number)
    .filter((number) => number > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, maxParts);
  const parts = await Promise.all(
    page.map(async (number) => {
      const file = path.join(uploadDir, String(number));
      // s3rver writes `<n>.md5` once the part is stored; a part still uploading has none yet
      const [info, md5] = await Promise.all([
        stat(file),
        readFile(`${file}.md5`, 'utf8').catch(() => undefined),
      ]);
      return (
        md5 && {
          PartNumber: number,
          LastModified: info.mtime.toISOString(),
          ETag: JSON.stringify(md5), // as UploadPart answered it: the quoted MD5
          Size: info.size,
        }
      );
    }),
  );
  return {
    '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
    Bucket: bucket,
    Key: key,
    UploadId: uploadId,
    StorageClass: 'STANDARD',
    PartNumberMarker: marker,
    NextPartNumberMarker: page.at(-1) ?? marker,
    MaxParts: maxParts,
    IsTruncated: numbers.length > page.length,
    Part: parts.filter(Boolean),
  };
}

/** A non-negative integer query parameter, InvalidArgument when it is something else. */
function intParam(ctx: S3rverContext, name: string, fallback: number): number {
  const value = single(ctx.query[name]);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) {
    throw new S3Error('InvalidArgument', `Provided ${name} not an integer or within integer range`, {
      ArgumentName: name,
      ArgumentValue: value,
    });
  }
  return Number(value);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Path segments are percent-encoded; undefined for a missing or malformed one. */
function decode(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
