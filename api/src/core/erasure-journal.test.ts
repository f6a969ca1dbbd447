import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureJournalPath, journalErasure, readErasureJournal } from './erasure-journal.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'erasure-journal-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the erasure journal', () => {
  it('appends ids, kinds and moments, one JSON line each, and reads them back oldest first', async () => {
    const journal = path.join(dir, 'backups');
    await journalErasure(
      { kind: 'visitor', id: 'v-2', at: new Date('2026-11-27T10:00:00Z') },
      { dir: journal },
    );
    await journalErasure(
      { kind: 'account', id: 'u-1', at: new Date('2026-11-27T09:00:00Z') },
      { dir: journal },
    );
    await journalErasure(
      { kind: 'retention', asOf: '2026-11-27T11:00:00.000Z', at: new Date('2026-11-27T11:00:01Z') },
      { dir: journal },
    );
    const file = erasureJournalPath(journal)!;
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { kind: 'visitor', id: 'v-2', at: '2026-11-27T10:00:00.000Z' },
      { kind: 'account', id: 'u-1', at: '2026-11-27T09:00:00.000Z' },
      { kind: 'retention', asOf: '2026-11-27T11:00:00.000Z', at: '2026-11-27T11:00:01.000Z' },
    ]);
    // A line cut short by a crash is skipped; the entries around it stand.
    await writeFile(file, '{"kind":"account","id":"u-', { flag: 'a' });
    expect((await readErasureJournal(file)).map((entry) => entry.at)).toEqual([
      '2026-11-27T09:00:00.000Z',
      '2026-11-27T10:00:00.000Z',
      '2026-11-27T11:00:01.000Z',
    ]);
    expect(await readErasureJournal(path.join(dir, 'none.jsonl'))).toEqual([]);
  });

  it('never fails the erasure: a journal that cannot be written is a warning', async () => {
    // A file where the directory should be.
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, '');
    const warnings: string[] = [];
    await expect(
      journalErasure(
        { kind: 'account', id: 'u-3' },
        { dir: blocked, warn: (message) => warnings.push(message) },
      ),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('not written (account)');
    expect(warnings[0]).not.toContain('u-3');
  });

  it('journals nothing without BACKUP_DIR', () => {
    expect(erasureJournalPath(undefined)).toBeUndefined();
    expect(erasureJournalPath('')).toBeUndefined();
  });
});
