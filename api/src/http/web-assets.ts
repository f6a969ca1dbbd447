import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type Koa from 'koa';
import { logger } from '../core/logger.js';
import { WEB_ASSETS_PREFIX, webAssetKey } from '../core/storage/objects.js';
import { listKeys } from '../core/storage/s3.js';

/** How long a browser keeps a hashed asset: a year, never asked again (its name changes with it). */
export const ASSET_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

/** Cache-Control of a hashed asset, as koa-send writes it for the files of the build. */
export const ASSET_CACHE_CONTROL = `max-age=${ASSET_MAX_AGE_MS / 1000},immutable`;

/** Uploads at once while publishing. */
const PUT_CONCURRENCY = 8;

/** How long an api waits before it tries again to publish its assets, after a failure. */
const PUBLISH_RETRY_MS = 60_000;

/** A file name of the build's flat assets directory (no dot file, no path). */
const ASSET_NAME = /^[\w-][\w.-]*$/;

/**
 * Copies the files of this build's assets directory (web/dist/assets: hashed chunks, styles, fonts,
 * their .br and .gz copies) that the bucket does not hold yet to `web-assets/`, where an api of
 * another release finds them. A file's name changes with its content, so one stored is never
 * replaced. Returns how many were copied.
 */
export async function publishWebAssets(s3: S3Client, bucket: string, assetsDir: string): Promise<number> {
  const entries = await readdir(assetsDir, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile() && ASSET_NAME.test(entry.name));
  if (!files.length) return 0;
  const stored = new Set(await listKeys(s3, bucket, WEB_ASSETS_PREFIX));
  const missing = files.map((entry) => entry.name).filter((name) => !stored.has(webAssetKey(name)));
  for (let start = 0; start < missing.length; start += PUT_CONCURRENCY) {
    await Promise.all(
      missing.slice(start, start + PUT_CONCURRENCY).map(async (name) =>
        s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: webAssetKey(name),
            Body: await readFile(path.join(assetsDir, name)),
          }),
        ),
      ),
    );
  }
  return missing.length;
}

/**
 * Publishes this build's assets in the background (the api serves meanwhile, and without the
 * bucket): a failure is logged and tried again a minute later. Returns a stop for the shutdown.
 */
export function publishWebAssetsInBackground(s3: S3Client, bucket: string, assetsDir: string): () => void {
  let retry: NodeJS.Timeout | undefined;
  const attempt = () => {
    publishWebAssets(s3, bucket, assetsDir).then(
      (copied) => {
        if (copied) logger.info({ copied }, 'web assets of this build stored in the bucket');
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'storing the web assets in the bucket failed; trying again in a minute');
        retry = setTimeout(attempt, PUBLISH_RETRY_MS);
        retry.unref();
      },
    );
  };
  attempt();
  return () => clearTimeout(retry);
}

const notStored = (error: unknown) => {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure.name === 'NoSuchKey' || failure.$metadata?.httpStatusCode === 404;
};

/**
 * Answers `/assets/{name}` from the assets every release published, for a file this api's own
 * build lacks (a page of another release asks for its chunks): its Brotli or gzip copy where the
 * browser accepts it, as koa-send picks, with the build's immutable caching. False when no release
 * stored it.
 */
export async function sendStoredAsset(
  ctx: Koa.Context,
  s3: S3Client,
  bucket: string,
  name: string,
): Promise<boolean> {
  if (!ASSET_NAME.test(name)) return false;
  const copies: { suffix: string; coding?: string }[] = [];
  if (ctx.acceptsEncodings('br', 'identity') === 'br') copies.push({ suffix: '.br', coding: 'br' });
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') copies.push({ suffix: '.gz', coding: 'gzip' });
  copies.push({ suffix: '' });
  for (const { suffix, coding } of copies) {
    let object;
    try {
      object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: webAssetKey(name + suffix) }));
    } catch (error) {
      if (notStored(error)) continue;
      throw error;
    }
    const body = object.Body instanceof Readable ? object.Body : Readable.from([]);
    ctx.status = 200;
    ctx.type = path.extname(name);
    if (coding) ctx.set('Content-Encoding', coding);
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
    if (object.ETag) ctx.set('ETag', object.ETag);
    if (object.LastModified) ctx.set('Last-Modified', object.LastModified.toUTCString());
    if (ctx.fresh) {
      body.destroy();
      ctx.status = 304;
      return true;
    }
    if (object.ContentLength !== undefined) ctx.length = object.ContentLength;
    ctx.body = body;
    return true;
  }
  return false;
}
