/**
 * The erasure journal: account deletions, visitor unsubscribes and retention runs append what they
 * erased (ids, the kind and the moment; never personal data) to `erasures.jsonl` in BACKUP_DIR,
 * beside the backups. A restore replays the entries newer than its backup, so an erasure made after
 * the backup is not undone. Without BACKUP_DIR nothing is journaled. A journal that cannot be
 * written never fails the erasure: it is reported as a warning.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { logger } from './logger.js';

export type ErasureEntry =
  /** An account and everything that named the person (core/accounts/account-deletion.ts). */
  | { kind: 'account'; at: string; id: string }
  /** A visitor's pre-registration, gone by their unsubscribe. */
  | { kind: 'visitor'; at: string; id: string }
  /** An address of the visitors' award with its votes, deleted through its mailed link. */
  | { kind: 'award-voter'; at: string; id: string }
  /** A retention run at a moment: running it again at that moment erases the same. */
  | { kind: 'retention'; at: string; asOf: string };

export const ERASURE_JOURNAL_FILE = 'erasures.jsonl';

/** The journal's file for a backup directory (BACKUP_DIR when unset); undefined without one. */
export function erasureJournalPath(dir: string | undefined = process.env.BACKUP_DIR): string | undefined {
  return dir ? path.join(path.resolve(dir), ERASURE_JOURNAL_FILE) : undefined;
}

type Distribute<T> = T extends unknown ? Omit<T, 'at'> & { at?: Date } : never;

/** Appends one entry and syncs it to disk; a failure is logged, never thrown. */
export async function journalErasure(
  entry: Distribute<ErasureEntry>,
  options: { dir?: string; warn?: (message: string) => void } = {},
): Promise<void> {
  const file = erasureJournalPath(options.dir ?? process.env.BACKUP_DIR);
  if (!file) return;
  const line = `${JSON.stringify({ ...entry, at: (entry.at ?? new Date()).toISOString() })}\n`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const handle = await open(file, 'a', 0o600);
    try {
      await handle.write(line);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const warn =
      options.warn ?? ((message: string) => logger.warn({ component: 'erasure-journal' }, message));
    warn(`erasure journal ${file} not written (${entry.kind}): ${(error as Error).message}`);
  }
}

/** Every entry of a journal file, oldest first; no file is an empty journal. Bad lines are skipped. */
export async function readErasureJournal(file: string): Promise<ErasureEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: ErasureEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as ErasureEntry;
      if (
        entry &&
        typeof entry.at === 'string' &&
        ['account', 'visitor', 'award-voter', 'retention'].includes(entry.kind)
      )
        entries.push(entry);
    } catch {
      // A line cut short by a crash while writing: the entry before it stands.
    }
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
