import { Readable } from 'node:stream';
import { Jury } from '../../core/model/jury.entity.js';
import { juryCertificatesName } from '../../core/jury/jury-admin.js';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import type { AppState } from '../../http/context.js';
import { notFound } from '../../core/errors.js';
import { mediaFileName, signDownloadName } from '@schlosstreffen/shared';
import { DataExport } from '../../core/model/data-export.entity.js';
import { Media } from '../../core/model/media.entity.js';
import { QuartettSet } from '../../core/model/quartett-set.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { SignExport } from '../../core/model/sign-export.entity.js';
import {
  keyOf,
  objectCacheControl,
  objectPathOf,
  parseKey,
  visibilityOf,
} from '../../core/storage/objects.js';
import { dataExportName } from '../account/account.presenter.js';
import { quartettDownloadName } from '../quartett/quartett.presenter.js';
import { strictRouter } from '../../http/router.js';

export interface ObjectRouteDeps {
  em: EntityManager;
  s3: S3Client;
  bucket: string;
}

/**
 * The name a download is saved under, always built by the server (`?download` only asks for an
 * attachment): images by the media library's naming rule, exports by their version or date.
 */
async function downloadName(em: EntityManager, key: string): Promise<string> {
  const object = parseKey(key);
  const fallback = key.split('/').at(-1) ?? 'download';
  if (object?.kind === 'full' || object?.kind === 'rendition') {
    const media = await em.findOne(Media, { id: object.mediaId }, { populate: ['vehicle'] });
    if (!media) return fallback;
    const url = object.kind === 'full' ? media.url : `/objects/${key}`;
    return mediaFileName({ url, createdAt: media.createdAt, vehicle: media.vehicle });
  }
  if (object?.kind === 'export') {
    const set = await em.findOne(QuartettSet, { exportFileUrl: objectPathOf(key) });
    return set ? quartettDownloadName(set.version) : fallback;
  }
  if (object?.kind === 'account-export') {
    const row = await em.findOne(DataExport, { id: object.exportId });
    return row ? dataExportName(row.createdAt) : fallback;
  }
  if (object?.kind === 'jury') {
    const jury = await em.findOne(Jury, { certificatesKey: key }, { populate: ['edition'] });
    return jury ? juryCertificatesName(jury.edition.year) : fallback;
  }
  if (object?.kind === 'sign') {
    const row = await em.findOne(SignExport, { id: object.exportId }, { populate: ['edition'] });
    if (!row) return fallback;
    const invitation = row.vehicle
      ? await em.findOne(Invitation, { vehicle: row.vehicle.id, releasedAt: null })
      : null;
    return signDownloadName(row.edition.year, { format: row.format, startNumber: invitation?.startNumber });
  }
  return fallback;
}

/** The key of an /objects/… path; a path that is not valid percent-encoding names nothing. */
function keyOfPath(path: string): string | undefined {
  try {
    return keyOf(decodeURIComponent(path));
  } catch {
    return undefined;
  }
}

/** GET /objects/{key}: streams an object from the bucket to whoever may see it. */
export function objectRoutes({ em, s3, bucket }: ObjectRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  router.get('/objects/{*key}', async (ctx) => {
    const key = keyOfPath(ctx.path);
    if (!key) throw notFound(VEHICLE_MESSAGES.objectNotFound);
    const visibility = await visibilityOf(em, ctx.state.user, key);
    if (!visibility) throw notFound(VEHICLE_MESSAGES.objectNotFound);

    // A cache asks again (minutes for public objects, every time for private ones): consent
    // withdrawn or a status changed, an image stops being served within minutes.
    ctx.set('Cache-Control', objectCacheControl(visibility));
    const ifModifiedSince = Date.parse(ctx.get('If-Modified-Since'));
    let object;
    try {
      object = await s3.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          IfNoneMatch: ctx.get('If-None-Match') || undefined,
          IfModifiedSince:
            !ctx.get('If-None-Match') && !Number.isNaN(ifModifiedSince)
              ? new Date(ifModifiedSince)
              : undefined,
        }),
      );
    } catch (error) {
      const failure = error as {
        name?: string;
        $metadata?: { httpStatusCode?: number };
        $response?: { headers?: Record<string, string> };
      };
      const status = failure.$metadata?.httpStatusCode;
      if (status === 304) {
        // The validator the client sent matched: it names the stored copy.
        const etag = failure.$response?.headers?.etag ?? ctx.get('If-None-Match');
        if (etag && !etag.includes(',')) ctx.set('ETag', etag);
        ctx.status = 304;
        return;
      }
      if (status === 404 || failure.name === 'NoSuchKey') {
        throw notFound(VEHICLE_MESSAGES.objectNotFound);
      }
      throw error;
    }
    if (object.ETag) ctx.set('ETag', object.ETag);
    if (object.LastModified) ctx.set('Last-Modified', object.LastModified.toUTCString());
    if (object.ContentLength !== undefined) ctx.length = object.ContentLength;
    // Nothing served from here may run as a document of this origin.
    ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; sandbox");
    if (ctx.query.download !== undefined) ctx.attachment(await downloadName(em, key));
    else ctx.set('Content-Disposition', 'inline');
    ctx.type = object.ContentType ?? 'application/octet-stream';
    ctx.body = object.Body instanceof Readable ? object.Body : Readable.from([]);
  });
  return router;
}
