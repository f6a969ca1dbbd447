import { DEFAULT_RETENTION } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  insertConfirmedUser,
  mailedLinkToken,
  PASSWORD,
  signInConfirmed,
  uniqueEmail,
  type TestContext,
} from '../../testing/index.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { collectAccountData, requestDataExport } from '../accounts/data-export.js';
import { MailBounce } from '../model/mail-bounce.entity.js';
import { User } from '../model/user.entity.js';
import { runRetention } from '../privacy/retention.js';
import { bounceOf } from './email-log.js';

/** The mark of a refused address is personal data: exported, deleted with the account, kept for a period. */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

const em = () => t.orm.em.fork();
const ANSWER = '550 5.1.1 User unknown';

async function mark(address: string, bouncedAt = new Date()) {
  const fork = em();
  fork.create(MailBounce, { address, reason: ANSWER, bouncedAt });
  await fork.flush();
}

describe('marks of refused addresses', () => {
  it("is in the owner's data export and goes with the account", async () => {
    const user = await insertConfirmedUser(t);
    await mark(user.email);
    const owner = await em().findOneOrFail(User, user.id);
    const row = await requestDataExport(em(), owner);
    const data = await collectAccountData(t.orm.em, row.id);
    expect((data!.documents['konto.json'] as Record<string, unknown>).mailBounced).toMatchObject({
      reason: ANSWER,
    });

    await deleteAccount(t.orm.em, user.id);
    expect(await bounceOf(em(), user.email)).toBeNull();
  });

  it('is cleared when the address is confirmed again by an email change, and expires after its period', async () => {
    const owner = await signInConfirmed(t);
    await mark(owner.email);
    const next = uniqueEmail('neu');
    await mark(next);
    const change = await owner.client.patch('/api/auth/profile', {
      firstName: 'Lena',
      lastName: 'Weber',
      email: next,
      currentPassword: PASSWORD,
    });
    expect(change.status).toBe(200);
    const token = await mailedLinkToken(t, next, 'email-change-confirm');
    expect((await owner.client.post('/api/auth/confirm-email', { token })).status).toBe(200);
    expect(await bounceOf(em(), owner.email)).toBeNull();
    expect(await bounceOf(em(), next)).toBeNull();

    const old = uniqueEmail('alt');
    const fresh = uniqueEmail('frisch');
    const asOf = new Date();
    await mark(old, new Date(asOf.getTime() - (DEFAULT_RETENTION.mailBounces + 1) * 86_400_000));
    await mark(fresh, new Date(asOf.getTime() - 86_400_000));
    const removed = await runRetention(t.orm.em, { asOf, periods: DEFAULT_RETENTION });
    expect(removed.mailBounces).toBeGreaterThanOrEqual(1);
    expect(await bounceOf(em(), old)).toBeNull();
    expect(await bounceOf(em(), fresh)).not.toBeNull();
  });
});
