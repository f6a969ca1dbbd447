import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { accountExportKey, createS3Client, DataExport } from '@schlosstreffen/api/core';
import { createTestContext, PASSWORD, type TestContext } from '@schlosstreffen/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type Storage } from '../../adapters/storage.js';
import type { JobContext } from '../dispatch.js';
import { createExportAccount } from './export-account.js';

let t: TestContext;
let s3: S3Client;
let storage: Storage;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  s3 = createS3Client(t.config.s3);
  storage = createStorage(s3, t.config.s3.bucket);
});
afterAll(async () => {
  s3?.destroy();
  await t?.close();
});

async function exists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: t.config.s3.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'NotFound') return false;
    throw error;
  }
}

const job: JobContext = { id: 'test', updateProgress: async () => undefined };

describe('account.export', () => {
  it('takes its ZIP back when the account is deleted while the export is being built', async () => {
    const owner = await t.signIn('user');
    const requested = await owner.client.post('/api/account/export', {});
    expect(requested.status, requested.text).toBe(201);
    const exportId = requested.data.id as string;
    const key = accountExportKey(exportId);

    // The owner deletes the account the moment the ZIP has been stored, before it is recorded.
    const racing: Storage = {
      ...storage,
      async putFile(putKey, file, options) {
        await storage.putFile(putKey, file, options);
        expect(await exists(putKey)).toBe(true);
        const deleted = await owner.client.post('/api/account/delete', { password: PASSWORD });
        expect(deleted.status, deleted.text).toBe(200);
      },
    };
    const run = createExportAccount({ em: t.orm.em, storage: racing, retention: t.config.retention });
    expect(await run({ exportId }, job)).toEqual({ status: 'skipped' });
    expect(await t.orm.em.fork().count(DataExport, { id: exportId })).toBe(0);
    // No row names the ZIP any more: it must not stay behind in the bucket.
    expect(await exists(key)).toBe(false);
  });

  it('records the ZIP when the account is still there', async () => {
    const owner = await t.signIn('user');
    const requested = await owner.client.post('/api/account/export', {});
    const exportId = requested.data.id as string;
    const run = createExportAccount({ em: t.orm.em, storage, retention: t.config.retention });
    expect(await run({ exportId }, job)).toMatchObject({ status: 'done', key: accountExportKey(exportId) });
    const row = await t.orm.em.fork().findOneOrFail(DataExport, exportId);
    expect(row).toMatchObject({ status: 'ready', objectKey: accountExportKey(exportId) });
    expect(await exists(accountExportKey(exportId))).toBe(true);
    await storage.deleteMany([accountExportKey(exportId)]);
  });
});
