/**
 * The erasure journal: each erasure writes its entry and the job that copies it to shared storage in
 * its own transaction, an erasure refused by a rule writes nothing, and the stores in shared storage
 * (a directory, a bucket) keep one private object per entry, read back in order.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createVehicle, PASSWORD, type TestContext } from '../../testing/index.js';
import { Media } from '../model/media.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { createS3Client, deleteKeys, listKeys } from '../storage/s3.js';
import { bucketJournal, directoryJournal } from '../storage/erasure-journal-store.js';
import { fullKey, objectPathOf } from '../storage/objects.js';
import type { ErasureEntry } from '../model/erasure-journal.entity.js';

let t: TestContext;
let s3: S3Client;
let scratch: string;
const bucket = `journal-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  s3 = createS3Client(t.config.s3);
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  scratch = await mkdtemp(path.join(os.tmpdir(), 'erasure-journal-'));
});
afterAll(async () => {
  if (s3) {
    await deleteKeys(s3, bucket, await listKeys(s3, bucket, '').catch(() => [])).catch(() => undefined);
    s3.destroy();
  }
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

type JournalRow = { id: string; kind: string; subject: string | null; stored_at: Date | null };

/** The journal rows and their jobs written since the last call. */
async function newEntries(): Promise<Array<{ kind: string; subject: string | null; job: boolean }>> {
  const connection = t.orm.em.getConnection();
  const rows = await connection.execute<JournalRow[]>(
    `select id, kind, subject, stored_at from erasure_journal where id not in (select unnest(?::uuid[])) order by at`,
    [`{${[...seen].join(',')}}`],
  );
  const jobs = await connection.execute<Array<{ entry: string }>>(
    `select payload->>'entryId' as entry from outbox where job = 'erasure.journal'`,
  );
  const queued = new Set(jobs.map((job) => job.entry));
  for (const row of rows) seen.add(row.id);
  return rows.map((row) => ({ kind: row.kind, subject: row.subject, job: queued.has(row.id) }));
}
const seen = new Set<string>();

describe('the erasure journal', () => {
  it('records each erasure with its job in the erasure’s transaction, and nothing for one refused', async () => {
    const owner = await t.signIn('user', { firstName: 'Lena', lastName: 'Weber' });
    const submitted = await createVehicle(owner.client, { status: 'submitted' });
    const draft = await createVehicle(owner.client);
    const photo = randomUUID();
    const em = t.orm.em.fork();
    em.create(Media, {
      id: photo,
      vehicle: em.getReference(Vehicle, submitted.id),
      url: objectPathOf(fullKey(photo, 'jpg')),
      isHero: true,
    });
    await em.flush();
    expect(await newEntries()).toEqual([]);

    // A consent withdrawn.
    const consents = (await owner.client.get('/api/account/consents')).data as Array<{
      id: string;
      kind: string;
    }>;
    const media = consents.find((consent) => consent.kind === 'media')!;
    expect((await owner.client.post(`/api/account/consents/${media.id}/withdraw`, {})).status).toBe(200);
    expect(await newEntries()).toEqual([{ kind: 'consent', subject: media.id, job: true }]);
    // Refused (withdrawn already): nothing.
    expect((await owner.client.post(`/api/account/consents/${media.id}/withdraw`, {})).status).toBe(409);
    expect(await newEntries()).toEqual([]);

    // A photo deleted; one that is gone already refused.
    expect((await owner.client.delete(`/api/vehicles/${submitted.id}/media/${photo}`)).status).toBeLessThan(
      300,
    );
    expect(await newEntries()).toEqual([{ kind: 'photo', subject: photo, job: true }]);
    expect((await owner.client.delete(`/api/vehicles/${submitted.id}/media/${photo}`)).status).toBe(404);

    // A submitted application cannot be deleted (drafts only): nothing; the draft can.
    expect((await owner.client.delete(`/api/vehicles/${submitted.id}`)).status).toBe(409);
    expect(await newEntries()).toEqual([]);
    expect((await owner.client.delete(`/api/vehicles/${draft.id}`)).status).toBeLessThan(300);
    expect(await newEntries()).toEqual([{ kind: 'application', subject: draft.id, job: true }]);

    // A wrong password refuses the account's deletion; the right one deletes it.
    expect((await owner.client.post('/api/account/delete', { password: 'falsch-falsch' })).status).not.toBe(
      200,
    );
    expect(await newEntries()).toEqual([]);
    expect((await owner.client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await newEntries()).toEqual([{ kind: 'account', subject: owner.id, job: true }]);
  });

  const entries: ErasureEntry[] = [
    { id: randomUUID(), at: '2026-11-27T10:00:00.000Z', kind: 'visitor', subject: randomUUID() },
    { id: randomUUID(), at: '2026-11-27T09:00:00.000Z', kind: 'account', subject: randomUUID() },
    { id: randomUUID(), at: '2026-11-27T11:00:00.000Z', kind: 'retention', asOf: '2026-11-27T11:00:00.000Z' },
  ];
  const byMoment = [entries[1], entries[0], entries[2]];

  it('keeps one file per entry in a directory readable by its owner only, whatever the umask', async () => {
    const dir = path.join(scratch, 'backups');
    const journal = directoryJournal(dir);
    const umask = process.umask(0);
    try {
      for (const entry of entries) await journal.put(entry);
      // Written again (a job run twice): the same file.
      await journal.put(entries[0]!);
    } finally {
      process.umask(umask);
    }
    expect(await journal.list()).toEqual(byMoment);
    const folder = path.join(dir, 'erasures');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const files = await readdir(folder);
    expect(files).toHaveLength(3);
    for (const file of files) expect((await stat(path.join(folder, file))).mode & 0o777).toBe(0o600);

    expect(await journal.prune(new Date('2026-11-27T10:00:00.000Z'))).toBe(1);
    expect(await journal.list()).toEqual(byMoment.slice(1));
  });

  it('keeps one object per entry under the prefix of the second bucket', async () => {
    const journal = bucketJournal({ s3, bucket, prefix: 'backups/', description: bucket });
    for (const entry of entries) await journal.put(entry);
    expect(await listKeys(s3, bucket, 'backups/erasures/')).toHaveLength(3);
    expect(await journal.list()).toEqual(byMoment);
    expect(await journal.prune(new Date('2026-11-27T10:30:00.000Z'))).toBe(2);
    expect(await journal.list()).toEqual(byMoment.slice(2));
  });
});
