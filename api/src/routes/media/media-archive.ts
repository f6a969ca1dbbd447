import type { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZipArchive, type ZipEntryData } from 'archiver';
import { mediaFileName, uniqueEntryName, venueDate } from '@schlosstreffen/shared';
import { requireRole, type AppState } from '../../http/context.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import { editionOfRequest } from '../../http/edition.js';
import { keyOf } from '../../core/storage/objects.js';
import { archiveItems, type ArchiveItem } from '../../core/media/media.service.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear } from '../../http/audited.js';

/** Lists the images whose object is gone; only written when there are any. */
export const MISSING_FILES_ENTRY = 'FEHLENDE-DATEIEN.txt';
const MISSING_FILES_INTRO =
  'Diese Bilder fehlen im Speicher und sind deshalb nicht in diesem Archiv enthalten:';

/** Bytes the archive holds before it waits for the client (back-pressure reaches the S3 socket). */
const ARCHIVE_BUFFER_BYTES = 64 * 1024;
/** Library rows read at a time. */
const PAGE_SIZE = 500;

export interface MediaArchiveDeps {
  em: EntityManager;
  s3: S3Client;
  bucket: string;
  log?: (error: unknown) => void;
  /** Library rows read at a time (PAGE_SIZE). */
  pageSize?: number;
  /** The archive holds one edition's images (`?edition=`, else the current one's). */
  events: EventSource;
}

/** `schlosstreffen-medien-2026-11-22.zip`, dated in the event's time zone. */
export function archiveFileName(now: Date = new Date()): string {
  return `schlosstreffen-medien-${venueDate(now)}.zip`;
}

/** The object as a stream, or undefined when it does not exist (any other failure throws). */
async function openObject(s3: S3Client, bucket: string, key: string): Promise<Readable | undefined> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body as Readable;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

class ClientGone extends Error {}

/** Appends one streamed entry and resolves once the archive has written all of it. */
function appendEntry(
  archive: ZipArchive,
  source: Readable,
  data: ZipEntryData,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
      source.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (!error) return resolve();
      source.destroy();
      reject(error);
    };
    const onEntry = () => settle();
    const onError = (error: Error) => settle(error);
    const onAbort = () => settle(new ClientGone());
    archive.on('entry', onEntry);
    archive.on('error', onError);
    source.on('error', onError);
    signal.addEventListener('abort', onAbort);
    archive.append(source, data);
  });
}

/**
 * Reads the images one after another and pipes each into the archive; the next object is only
 * requested once the previous one is written, the next page of the library once its last item is.
 * Nothing is buffered beyond the streams' small windows and one page of rows, so memory stays flat
 * however many images there are.
 */
async function writeArchive(
  archive: ZipArchive,
  items: AsyncIterable<ArchiveItem>,
  open: (key: string) => Promise<Readable | undefined>,
  signal: AbortSignal,
): Promise<void> {
  const taken = new Set([MISSING_FILES_ENTRY.toLowerCase()]);
  const missing: string[] = [];
  for await (const media of items) {
    if (signal.aborted) throw new ClientGone();
    const name = uniqueEntryName(mediaFileName(media), taken);
    const key = keyOf(media.url);
    const source = key ? await open(key) : undefined;
    if (!source) {
      missing.push(`${name}  (${media.url})`);
      continue;
    }
    await appendEntry(archive, source, { name, date: media.createdAt }, signal);
  }
  if (missing.length) {
    const text = [MISSING_FILES_INTRO, '', ...missing, ''].join('\r\n');
    archive.append(Buffer.from(text, 'utf8'), { name: MISSING_FILES_ENTRY, date: new Date() });
  }
  await archive.finalize();
}

/** GET /admin/media.zip: every image of the media library as one ZIP, streamed (staff only). */
export function mediaArchiveRoutes({
  em,
  s3,
  bucket,
  log,
  pageSize = PAGE_SIZE,
  events,
}: MediaArchiveDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  /** The library page by page, starting with `first`; the next page is read once this one is written. */
  async function* library(editionId: string, first: ArchiveItem[]): AsyncGenerator<ArchiveItem> {
    let page = first;
    for (;;) {
      yield* page;
      const last = page.at(-1);
      if (!last || page.length < pageSize) return;
      page = await archiveItems(em, editionId, pageSize, last);
    }
  }

  router.get(
    '/admin/media.zip',
    requireRole('admin', 'reviewer'),
    audited('media.export_zip', { target: editionYear }),
    async (ctx) => {
      // The first page is read before the headers go out, so a database failure still answers with an
      // error status; a later one breaks the download like a failing object.
      const { edition } = await editionOfRequest(ctx, events);
      const first = await archiveItems(em, edition.id, pageSize);
      await auditOf(ctx).write(em);

      // JPEG, WebP and PNG are compressed already: stored entries cost no CPU and lose nothing.
      const archive = new ZipArchive({ store: true, highWaterMark: ARCHIVE_BUFFER_BYTES });
      const gone = new AbortController();
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        gone.abort();
        if (!(error instanceof ClientGone)) log?.(error);
        // The headers are out: only a broken connection tells the client the download failed. Ending
        // the archive instead would finish the response and leave a truncated file that looks complete.
        ctx.res.destroy();
        archive.destroy();
      };
      archive.on('error', fail);
      archive.on('warning', fail);
      ctx.res.once('close', () => {
        if (!ctx.res.writableFinished) fail(new ClientGone());
      });

      ctx.status = 200;
      ctx.attachment(archiveFileName());
      ctx.set('Cache-Control', 'no-store');
      ctx.body = archive;
      writeArchive(
        archive,
        library(edition.id, first),
        (key) => openObject(s3, bucket, key),
        gone.signal,
      ).catch(fail);
    },
  );

  return router;
}
