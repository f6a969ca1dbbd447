import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { Review } from '../model/review.entity.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

describe('status log', () => {
  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const em = t.orm.em.fork();
    const row = em.create(Review, {
      vehicleId: randomUUID(),
      reviewerId: randomUUID(),
      actorRole: 'reviewer',
      actorName: 'Paula Prüfer',
      oldStatus: 'submitted',
      newStatus: 'in_review',
      commentInternal: 'Sieht gut aus',
    });
    await em.flush();

    await expect(em.fork().nativeUpdate(Review, { id: row.id }, { newStatus: 'rejected' })).rejects.toThrow(
      /append-only: UPDATE/,
    );
    await expect(em.fork().nativeDelete(Review, { id: row.id })).rejects.toThrow(/append-only: DELETE/);
    const connection = t.orm.em.getConnection();
    await expect(connection.execute('truncate review')).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(connection.execute(`update review set comment_internal = 'geändert'`)).rejects.toThrow(
      /append-only/,
    );

    const stored = await em.fork().findOneOrFail(Review, row.id);
    expect(stored.newStatus).toBe('in_review');
    expect(stored.commentInternal).toBe('Sieht gut aus');
  });
});
