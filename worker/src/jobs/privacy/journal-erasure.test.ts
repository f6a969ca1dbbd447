/**
 * The job that copies an erasure to the shared journal: the entry lands there once however often the
 * job runs, its row is marked stored, and the journal's lag (the metric) falls back to 0.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { directoryJournal, journalLagSeconds, type ErasureJournalStore } from '@schlosstreffen/api/core';
import { createTestContext, createVehicle, type TestContext } from '@schlosstreffen/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJournalErasure } from './journal-erasure.js';

let t: TestContext;
let dir: string;
let journal: ErasureJournalStore;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'journal-job-'));
  journal = directoryJournal(dir);
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const job = { id: 'job', updateProgress: async () => undefined };

describe('erasure.journal', () => {
  it('writes the entry to the shared journal once, however often it runs, and marks it stored', async () => {
    const owner = await t.signIn();
    const draft = await createVehicle(owner.client);
    expect((await owner.client.delete(`/api/vehicles/${draft.id}`)).status).toBeLessThan(300);
    const [queued] = await t.orm.em
      .getConnection()
      .execute<Array<{ entry: string }>>(
        `select payload->>'entryId' as entry from outbox where job = 'erasure.journal'`,
      );
    expect(await journalLagSeconds(t.orm.em.fork())).toBeGreaterThan(0);

    const run = createJournalErasure({ em: t.orm.em, journal });
    expect(await run({ entryId: queued!.entry }, job)).toEqual({ status: 'stored' });
    expect(await run({ entryId: queued!.entry }, job)).toEqual({ status: 'stored' });
    const entries = await journal.list();
    expect(entries).toEqual([
      { id: queued!.entry, at: expect.any(String), kind: 'application', subject: draft.id },
    ]);
    expect(await journalLagSeconds(t.orm.em.fork())).toBe(0);

    // An entry that is gone (pruned) writes nothing.
    expect(await run({ entryId: randomUUID() }, job)).toEqual({ status: 'gone' });
    expect(await journal.list()).toHaveLength(1);
  });
});
