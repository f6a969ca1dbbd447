import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicListVersion } from './public-inputs.js';
import { publicListFingerprint, publicListRows } from './public-list.queries.js';

export type ContentCoding = 'br' | 'gzip';

export interface PublicList {
  body: Buffer;
  /** How many vehicles it lists. */
  count: number;
  etag: string;
  /** The body compressed (once per list, off the main thread), for clients that accept it. */
  encoded(coding: ContentCoding): Promise<Buffer>;
}

const compressors: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: about the size of quality 11 for this JSON at a fortieth of the time.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

function publicList(body: Buffer, count: number): PublicList {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const encoded = new Map<ContentCoding, Promise<Buffer>>();
  return {
    body,
    count,
    etag,
    encoded(coding) {
      let result = encoded.get(coding);
      if (!result) {
        result = compressors[coding](body);
        encoded.set(coding, result);
        result.catch(() => encoded.delete(coding));
      }
      return result;
    },
  };
}

/**
 * Runs `task` for its callers, one run at a time. A caller arriving while a run is under way shares
 * the next run with everyone else who arrives meanwhile; that run starts after each of them arrived,
 * so its answer includes every change committed before they called.
 */
function coalesce<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = () => {
    const run = task();
    running = run;
    const done = () => {
      if (running === run) running = undefined;
    };
    run.then(done, done);
    return run;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    queued = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return start();
      });
    return queued;
  };
}

type KeptList = PublicList & {
  fingerprint: string;
  version: number;
  /** The edition whose vehicles it lists. */
  editionId: string;
  /** When it was last known to be the current edition's list (ms). */
  checkedAt: number;
};

/**
 * How long the kept list is served without asking which edition is current: a switch of the current
 * edition (made by an admin, or a moment set ahead coming) announces nothing.
 */
const EDITION_CHECK_MS = 1_000;

/** The id of the edition the public site shows now. */
export type CurrentEditionId = () => Promise<string>;

/**
 * The public list as served: the read model's rows in listing order, with an ETag over the bytes.
 * The bytes are kept and served again while nothing changed. With `changes` (the api process) a
 * request touches the database only after a change was announced; without them, or while
 * notifications are not heard, every request checks the read model's fingerprint. Requests that
 * arrive together share one such check, and one read of a changed list, each started after all of
 * them arrived, so every answer includes every change committed before the request came in.
 */
export function createPublicListReader(
  em: EntityManager,
  currentEditionId: CurrentEditionId,
  changes?: PublicListVersion,
): PublicListReader {
  let cached: KeptList | undefined;

  const currentFingerprint = coalesce(async () => {
    const editionId = await currentEditionId();
    return { editionId, fingerprint: await publicListFingerprint(em, editionId) };
  });

  const readList = coalesce(async (): Promise<KeptList> => {
    const editionId = await currentEditionId();
    // Rows and fingerprint in one statement, so from one snapshot.
    const row = await publicListRows(em, editionId);
    // Unchanged after all: keep the list's bytes and compressed forms.
    if (cached?.editionId === editionId && cached.fingerprint === row.fingerprint) return cached;
    return Object.assign(publicList(Buffer.from(JSON.stringify(row.list)), row.list.length), {
      fingerprint: row.fingerprint,
      version: 0,
      editionId,
      checkedAt: 0,
    });
  });

  const read = async () => {
    // Taken before any query: a change announced meanwhile leaves the result unconfirmed.
    const version = changes?.version ?? 0;
    const checkedAt = Date.now();
    const editionId = await currentEditionId();
    if (cached && cached.editionId === editionId) {
      if (changes?.listening && cached.version === version) {
        cached.checkedAt = checkedAt;
        return cached;
      }
      const now = await currentFingerprint();
      if (cached.editionId === now.editionId && cached.fingerprint === now.fingerprint) {
        if (changes?.listening) cached.version = version;
        cached.checkedAt = checkedAt;
        return cached;
      }
    }
    const list = await readList();
    // Callers sharing the read took their versions before it started; each is covered by it.
    list.version = Math.max(list.version, version);
    list.checkedAt = checkedAt;
    cached = list;
    return cached;
  };
  return Object.assign(read, {
    current: () =>
      cached &&
      changes?.listening &&
      cached.version === changes.version &&
      Date.now() - cached.checkedAt < EDITION_CHECK_MS
        ? cached
        : undefined,
  });
}

/** Reads the public list; `current()` is the kept list while no change was announced since it was read. */
export interface PublicListReader {
  (): Promise<PublicList>;
  /** Without asking the database: the kept list if it is known to be current, else undefined. */
  current(): PublicList | undefined;
}

const readers = new WeakMap<PublicListVersion, PublicListReader>();

/**
 * The one reader of a source of announced changes (an api process has one): the route and the fast
 * path in front of the middleware share its kept list.
 */
export function publicListReader(
  em: EntityManager,
  currentEditionId: CurrentEditionId,
  changes: PublicListVersion,
): PublicListReader {
  let reader = readers.get(changes);
  if (!reader) readers.set(changes, (reader = createPublicListReader(em, currentEditionId, changes)));
  return reader;
}
