/**
 * backup:create: one consistent backup while the app runs. A REPEATABLE READ transaction exports its
 * snapshot; pg_dump dumps that snapshot while the same transaction counts the rows and lists every
 * object key the database names; then those objects are copied from the bucket. Object deletions
 * wait from before the snapshot until the last object is copied (core/storage/deletion-fence.ts).
 */
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { holdDeletions } from '../../core/storage/deletion-fence.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, privateDirectory } from '../../core/storage/backup-storage.js';
import {
  DUMP_FILE,
  formatBytes,
  hashFile,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  OBJECTS_DIR,
  objectFile,
  throttled,
  verifyBackup,
  type Manifest,
  type ManifestObject,
} from './manifest.js';
import { appliedMigrations, countRows, namedKeys } from './backup.queries.js';
import { findTool, runTool, serverMajor, toolConnection } from './postgres-tools.js';

export interface CreateBackupOptions {
  databaseUrl: string;
  redis: Redis;
  redisPrefix: string;
  s3: S3Client;
  bucket: string;
  /** The backup's directory: created; must not exist or be empty. */
  dir: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Objects copied side by side. */
  concurrency?: number;
}

export interface CreatedBackup {
  dir: string;
  manifest: Manifest;
  bytes: number;
}

async function appInfo(): Promise<{ name: string; version: string }> {
  const file = new URL('../../../package.json', import.meta.url);
  const { name, version } = JSON.parse(await readFile(file, 'utf8')) as { name: string; version: string };
  return { name, version };
}

async function copyObject(
  s3: S3Client,
  bucket: string,
  dir: string,
  key: string,
): Promise<Omit<ManifestObject, 'key' | 'path'> | undefined> {
  const file = objectFile(dir, key);
  if (!file) throw new Error(`refusing the object key ${key}`);
  let response;
  try {
    response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey' || (error as Error).name === 'NotFound') return undefined;
    throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const hash = createHash('sha256');
  let size = 0;
  const body = response.Body as Readable;
  body.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  await pipeline(body, createWriteStream(file, { mode: PRIVATE_FILE_MODE }));
  return {
    size,
    sha256: hash.digest('hex'),
    ...(response.ContentType ? { contentType: response.ContentType } : {}),
    ...(response.CacheControl ? { cacheControl: response.CacheControl } : {}),
    ...(response.Metadata && Object.keys(response.Metadata).length ? { metadata: response.Metadata } : {}),
  };
}

export async function createBackup(options: CreateBackupOptions): Promise<CreatedBackup> {
  const { log } = options;
  const dir = path.resolve(options.dir);
  const existing = await readdir(dir).catch(() => [] as string[]);
  if (existing.length) throw new Error(`${dir} is not empty: a backup goes into a new directory`);
  // Written beside it and renamed at the end: a directory with the final name is a whole backup.
  const work = `${dir}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  // Every directory 0700 and every file 0600, whatever the umask: a backup holds everyone's data.
  await privateDirectory(work);

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let held: Awaited<ReturnType<typeof holdDeletions>> | undefined;
  try {
    const major = await serverMajor(client);
    const pgDump = await findTool('pg_dump', major, options.env);
    const { rows: version } = await client.query<{ v: string; db: string }>(
      'select current_setting($1) as v, current_database() as db',
      ['server_version'],
    );

    // From here until the last object is copied, no object may be deleted.
    held = await holdDeletions(options.redis, options.redisPrefix);
    log('object deletions held; taking the database snapshot');

    await client.query('begin isolation level repeatable read read only');
    const { rows: snap } = await client.query<{ id: string; at: Date }>(
      'select pg_export_snapshot() as id, clock_timestamp() as at',
    );
    const snapshot = snap[0]!;
    const tool = toolConnection(options.databaseUrl);
    const dumpFile = path.join(work, DUMP_FILE);
    const dumping = runTool(
      pgDump,
      ['--format=custom', `--snapshot=${snapshot.id}`, `--file=${dumpFile}`, `--dbname=${tool.url}`],
      tool.env,
    );
    // The dump must hold its snapshot before anything else happens; the reads below see the same one.
    let tables: Record<string, number>;
    let migrations: string[];
    let keys: string[];
    try {
      tables = await countRows(client);
      migrations = await appliedMigrations(client);
      keys = await namedKeys(client);
      log(`database: ${Object.keys(tables).length} tables; dumping with ${pgDump}`);
      await dumping;
    } catch (error) {
      await dumping.catch(() => undefined);
      throw error;
    }
    await client.query('commit');
    await chmod(dumpFile, PRIVATE_FILE_MODE);
    const dump = await hashFile(dumpFile);
    log(`database dumped: ${formatBytes(dump.size)}`);

    const objects: ManifestObject[] = [];
    const absent: string[] = [];
    let bytes = 0;
    let done = 0;
    const progress = throttled(2000, log);
    const queue = [...keys];
    const copyNext = async (): Promise<void> => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const copied = await copyObject(options.s3, options.bucket, work, key);
        done += 1;
        if (copied) {
          objects.push({ key, path: `${OBJECTS_DIR}/${key}`, ...copied });
          bytes += copied.size;
        } else absent.push(key);
        progress(`objects ${done}/${keys.length} copied (${formatBytes(bytes)})`, done === keys.length);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, copyNext));
    await held.release();
    held = undefined;
    log(`objects: ${objects.length} copied (${formatBytes(bytes)}), ${absent.length} named but not stored`);

    objects.sort((a, b) => a.key.localeCompare(b.key));
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      app: await appInfo(),
      createdAt: new Date(snapshot.at).toISOString(),
      database: {
        serverVersion: version[0]!.v,
        name: version[0]!.db,
        dump: { path: DUMP_FILE, ...dump },
      },
      migrations,
      tables,
      objects,
      absent: absent.sort(),
    };
    await writeFile(path.join(work, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE_MODE,
    });
    const verified = await verifyBackup(work);
    if (verified.problems.length) throw new Error(`the new backup does not verify: ${verified.problems[0]}`);
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir);
    return { dir, manifest, bytes: bytes + dump.size };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    await rm(work, { recursive: true, force: true });
    throw error;
  } finally {
    await held?.release().catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
