import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isStaffRole, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import type { AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { Media } from '../media/media.entity.js';
import { keyOf, objectPathOf, uploaderOf } from '../uploads/object-keys.js';
import type { User } from '../users/user.entity.js';

export interface ObjectRouteDeps {
  em: EntityManager;
  s3: S3Client;
  bucket: string;
}

type Visibility = 'public' | 'private';

/**
 * Who may see an object: anyone for the images of a confirmed vehicle, otherwise the vehicle's
 * owner, reviewers and admins; an upload not attached yet only its uploader and staff; quartett
 * exports only admins. Anything else does not exist (404).
 */
export async function visibilityOf(
  em: EntityManager,
  user: User | undefined,
  key: string,
): Promise<Visibility | undefined> {
  const staff = isStaffRole(user?.role);
  if (key.startsWith('exports/')) return user?.role === 'admin' ? 'private' : undefined;
  const thumb = /^thumbs\/([0-9a-f-]{36})\/\d+\.webp$/.exec(key);
  if (!thumb && !key.startsWith('uploads/')) return undefined;
  const media = await em.findOne(Media, thumb ? { id: thumb[1] } : { url: objectPathOf(key) }, {
    populate: ['vehicle'],
  });
  if (!media) return !thumb && user && (staff || uploaderOf(key) === user.id) ? 'private' : undefined;
  if (media.vehicle.status === 'confirmed' && media.approvalStatus !== 'rejected') return 'public';
  return user && (staff || media.vehicle.user.id === user.id) ? 'private' : undefined;
}

/** Sanitised file name for Content-Disposition (the client proposes it, e.g. for the media library). */
function downloadName(requested: string | undefined, key: string): string {
  const fallback = key.split('/').at(-1) ?? 'download';
  const name = (requested && requested !== '1' ? requested : fallback).replace(/[\\/\r\n"]/g, '_').trim();
  return name.slice(0, 200) || fallback;
}

/** GET /objects/{key}: streams an object from the bucket to whoever may see it. */
export function objectRoutes({ em, s3, bucket }: ObjectRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/objects/{*key}', async (ctx) => {
    const key = keyOf(decodeURIComponent(ctx.path));
    if (!key) throw notFound(VEHICLE_MESSAGES.objectNotFound);
    const visibility = await visibilityOf(em, ctx.state.user, key);
    if (!visibility) throw notFound(VEHICLE_MESSAGES.objectNotFound);

    let object;
    try {
      object = await s3.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          IfNoneMatch: ctx.get('If-None-Match') || undefined,
        }),
      );
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 304) {
        ctx.status = 304;
        return;
      }
      if (status === 404 || (error as { name?: string }).name === 'NoSuchKey') {
        throw notFound(VEHICLE_MESSAGES.objectNotFound);
      }
      throw error;
    }
    // Renditions never change under their key; originals neither, but access may (a vehicle's status).
    const maxAge = key.startsWith('thumbs/') ? 31_536_000 : 3600;
    ctx.set('Cache-Control', `${visibility}, max-age=${maxAge}`);
    if (object.ETag) ctx.set('ETag', object.ETag);
    if (object.LastModified) ctx.set('Last-Modified', object.LastModified.toUTCString());
    if (object.ContentLength !== undefined) ctx.length = object.ContentLength;
    // Nothing served from here may run as a document of this origin.
    ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; sandbox");
    const download = typeof ctx.query.download === 'string' ? ctx.query.download : undefined;
    if (download !== undefined) ctx.attachment(downloadName(download, key));
    else ctx.set('Content-Disposition', 'inline');
    ctx.type = object.ContentType ?? 'application/octet-stream';
    ctx.body = object.Body instanceof Readable ? object.Body : Readable.from([]);
  });
  return router;
}
