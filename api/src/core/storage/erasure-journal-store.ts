/**
 * The erasure journal in shared storage (outbox/erasure-journal.ts records it): one object per
 * entry, named by its moment and id so that names sort by moment, under `<BACKUP_S3_PREFIX>erasures/`
 * of the second bucket, or in development (one host) as files in `BACKUP_DIR/erasures/`.
 */
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ERASURE_KINDS, type ErasureEntry, type ErasureKind } from '../model/erasure-journal.entity.js';
import {
  PRIVATE_FILE_MODE,
  privateDirectory,
  type BackupStorage,
  type OffsiteConfig,
} from './backup-storage.js';
import { deleteKeys, listKeys } from './s3.js';

/** The journal's folder, under the backup prefix of the second bucket or in the backup directory. */
export const JOURNAL_FOLDER = 'erasures';

export interface ErasureJournalStore {
  description: string;
  /** Writes one entry (again: the same name, the same bytes). */
  put(entry: ErasureEntry): Promise<void>;
  /** Every entry, oldest first. */
  list(): Promise<ErasureEntry[]>;
  /** Removes the entries from before `before`; returns how many. */
  prune(before: Date): Promise<number>;
}

const entryName = (entry: Pick<ErasureEntry, 'at' | 'id'>) => `${entry.at}_${entry.id}.json`;
const momentOfName = (name: string) => name.split('_')[0] ?? '';

const isKind = (kind: unknown): kind is ErasureKind => (ERASURE_KINDS as readonly unknown[]).includes(kind);

/** An entry as stored, checked; undefined for anything else. */
function parseEntry(text: string): ErasureEntry | undefined {
  try {
    const entry = JSON.parse(text) as Partial<ErasureEntry> & Record<string, unknown>;
    if (typeof entry.id !== 'string' || typeof entry.at !== 'string' || !isKind(entry.kind)) return undefined;
    if (entry.kind === 'retention')
      return typeof entry.asOf === 'string'
        ? { id: entry.id, at: entry.at, kind: 'retention', asOf: entry.asOf }
        : undefined;
    return typeof entry.subject === 'string'
      ? { id: entry.id, at: entry.at, kind: entry.kind, subject: entry.subject }
      : undefined;
  } catch {
    return undefined;
  }
}

export const byMoment = (a: ErasureEntry, b: ErasureEntry) =>
  a.at.localeCompare(b.at) || a.id.localeCompare(b.id);

/** The journal as files in `<dir>/erasures/`, each written whole (a temporary name, then renamed), 0600 in a 0700 folder. */
export function directoryJournal(dir: string): ErasureJournalStore {
  const folder = path.join(path.resolve(dir), JOURNAL_FOLDER);
  const names = () =>
    readdir(folder).then(
      (all) => all.filter((name) => name.endsWith('.json')),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      },
    );
  return {
    description: folder,
    async put(entry) {
      await privateDirectory(folder);
      const file = path.join(folder, entryName(entry));
      const partial = `${file}.partial`;
      await writeFile(partial, JSON.stringify(entry), { mode: PRIVATE_FILE_MODE });
      await rename(partial, file);
    },
    async list() {
      const entries: ErasureEntry[] = [];
      for (const name of await names()) {
        const entry = parseEntry(await readFile(path.join(folder, name), 'utf8'));
        if (entry) entries.push(entry);
      }
      return entries.sort(byMoment);
    },
    async prune(before) {
      const old = (await names()).filter((name) => momentOfName(name) < before.toISOString());
      for (const name of old) await rm(path.join(folder, name), { force: true });
      return old.length;
    },
  };
}

/** The journal as objects under `<prefix>erasures/` of the second bucket. */
export function bucketJournal(offsite: OffsiteConfig): ErasureJournalStore {
  const prefix = `${offsite.prefix}${JOURNAL_FOLDER}/`;
  const keys = async () =>
    (await listKeys(offsite.s3, offsite.bucket, prefix)).filter((key) => key.endsWith('.json'));
  return {
    description: `${offsite.description}, ${prefix}`,
    async put(entry) {
      await offsite.s3.send(
        new PutObjectCommand({
          Bucket: offsite.bucket,
          Key: `${prefix}${entryName(entry)}`,
          Body: JSON.stringify(entry),
          ContentType: 'application/json',
        }),
      );
    },
    async list() {
      const entries: ErasureEntry[] = [];
      for (const key of await keys()) {
        const answer = await offsite.s3.send(new GetObjectCommand({ Bucket: offsite.bucket, Key: key }));
        const entry = parseEntry(await answer.Body!.transformToString());
        if (entry) entries.push(entry);
      }
      return entries.sort(byMoment);
    },
    async prune(before) {
      const old = (await keys()).filter(
        (key) => momentOfName(key.slice(prefix.length)) < before.toISOString(),
      );
      await deleteKeys(offsite.s3, offsite.bucket, old);
      return old.length;
    },
  };
}

/**
 * The journal's shared storage: the second bucket when BACKUP_S3_* is set, else the backup
 * directory (development, one host); undefined without either.
 */
export function journalStoreOf(storage: BackupStorage): ErasureJournalStore | undefined {
  if (storage.offsite) return bucketJournal(storage.offsite);
  return storage.dir ? directoryJournal(storage.dir) : undefined;
}

/**
 * The entries of the journal file earlier versions kept beside the backups (`erasures.jsonl`, a
 * line each, of accounts, visitors, voters and retention runs); none when it is missing.
 */
export async function readLegacyJournal(file: string): Promise<ErasureEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: ErasureEntry[] = [];
  text.split('\n').forEach((line, index) => {
    let old: { kind?: unknown; at?: unknown; id?: unknown; asOf?: unknown };
    try {
      old = JSON.parse(line) as typeof old;
    } catch {
      // A line cut short by a crash while writing, or an empty one.
      return;
    }
    const id = `${path.basename(file)}:${index + 1}`;
    if (typeof old.at !== 'string') return;
    if (old.kind === 'retention' && typeof old.asOf === 'string')
      entries.push({ id, at: old.at, kind: 'retention', asOf: old.asOf });
    else if (
      (old.kind === 'account' || old.kind === 'visitor' || old.kind === 'award-voter') &&
      typeof old.id === 'string'
    )
      entries.push({ id, at: old.at, kind: old.kind, subject: old.id });
  });
  return entries.sort(byMoment);
}
