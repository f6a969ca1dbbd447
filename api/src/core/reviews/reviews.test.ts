/**
 * Review at scale on the real database: every application in review gets its reviewers (never the
 * owner's own, never a biased one), open loads stay even, a joining reviewer takes over a share;
 * reviewers score independently, the application's score is the weighted mean and orders the waitlist.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MyReviews, ReviewLoad, ReviewSettings, VehicleReview } from '@schlosstreffen/shared/api';
import type { StatusHistoryEntry } from '@schlosstreffen/shared';
import { setRole } from '../accounts/roles.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { collectAccountData } from '../accounts/data-export.js';
import { DataExport } from '../model/data-export.entity.js';
import { systemAuditActor } from '../audit/audit.js';
import { rankWaitlist } from '../invitations/waitlist.js';
import {
  APPLYING_NOON,
  createTestContext,
  createVehicle,
  insertConfirmedUser,
  type TestContext,
} from '../../testing/index.js';
import { currentEditionId } from '../../testing/editions.js';
import { balanceEdition } from './reviews.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const sql = <T extends object>(text: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute<T[]>(text, params);

/** `count` submitted applications of as many new owners, copied from one made through the API. */
async function insertApplications(
  count: number,
): Promise<Array<{ id: string; ownerId: string; email: string }>> {
  const owner = await t.signIn('user');
  const template = await createVehicle(owner.client, { status: 'submitted' });
  const columns = (
    await sql<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'vehicle' and table_schema = current_schema()`,
    )
  )
    .map((c) => c.column_name)
    .filter((c) => !['id', 'car_id', 'user_id', 'created_at'].includes(c));
  const made: Array<{ id: string; ownerId: string; email: string }> = [];
  for (let i = 0; i < count; i++) {
    const email = `owner-${i}-${randomUUID().slice(0, 8)}@example.org`;
    const person = await insertConfirmedUser(t, { email, firstName: `Halter${i}` });
    const id = randomUUID();
    await sql(
      `insert into vehicle (id, car_id, user_id, created_at, ${columns.map((c) => `"${c}"`).join(', ')})
       select ?, ?, ?, now() + (? || ' milliseconds')::interval, ${columns.map((c) => `"${c}"`).join(', ')}
         from vehicle where id = ?`,
      [id, id, person.id, i, template.id],
    );
    made.push({ id, ownerId: person.id, email });
  }
  // The template application leaves review: only the inserted ones count below.
  await sql(`update vehicle set status = 'draft' where id = ?`, [template.id]);
  await sql(`delete from review_assignment where vehicle_id = ?`, [template.id]);
  return made;
}

function openLoads(load: ReviewLoad, reviewerIds: string[]): number[] {
  return reviewerIds.map((id) => load.reviewers.find((r) => r.id === id)?.open ?? 0);
}

describe('assignment', () => {
  it('300 applications, 5 reviewers, 2 each, one biased towards 20 owners: all covered, none own or biased, loads within 1; a sixth joins and the load is spread anew', async () => {
    const editionId = await currentEditionId(t.orm.em);
    const admin = await t.signIn('admin');
    const reviewers = await Promise.all([1, 2, 3, 4, 5].map(() => t.signIn('reviewer')));
    const applications = await insertApplications(300);

    // One reviewer declares bias towards 20 owners (through the API, as on 'Meine Prüfungen').
    const biased = reviewers[0]!;
    const biasedOwners = applications.slice(40, 60);
    for (const owner of biasedOwners) {
      const res = await biased.client.post('/api/admin/reviews/conflicts', { email: owner.email });
      expect(res.status, res.text).toBe(201);
    }
    // One reviewer also owns one of the applications.
    const owning = reviewers[1]!;
    await sql(`update vehicle set user_id = ? where id = ?`, [owning.id, applications[7]!.id]);

    const em = t.orm.em.fork();
    await em.transactional((tx) => balanceEdition(tx, editionId, APPLYING_NOON));

    const assignments = await sql<{ vehicle_id: string; reviewer_id: string }>(
      `select vehicle_id, reviewer_id from review_assignment where edition_id = ?`,
      [editionId],
    );
    const byVehicle = new Map<string, string[]>();
    for (const a of assignments)
      byVehicle.set(a.vehicle_id, [...(byVehicle.get(a.vehicle_id) ?? []), a.reviewer_id]);
    expect(byVehicle.size).toBe(300);
    for (const application of applications) {
      const on = byVehicle.get(application.id)!;
      expect(on).toHaveLength(2);
      expect(new Set(on).size).toBe(2);
    }
    expect(byVehicle.get(applications[7]!.id)).not.toContain(owning.id);
    for (const owner of biasedOwners) expect(byVehicle.get(owner.id)).not.toContain(biased.id);

    const ids = reviewers.map((r) => r.id);
    const load = (await admin.client.get('/api/admin/reviews/load')).data as ReviewLoad;
    const loads = openLoads(load, ids);
    expect(loads.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
    expect(load.understaffed).toBe(0);
    expect(load.inReview).toBe(300);
    expect(load.reviewers.find((r) => r.id === biased.id)?.conflicts).toBe(20);

    // A sixth reviewer joins (the role given like on the Team page or the CLI): 600 / 6 = 100 each.
    const sixth = await insertConfirmedUser(t, { firstName: 'Sechste' });
    await setRole(t.orm.em, sixth.email, 'reviewer', { actor: systemAuditActor('test'), at: APPLYING_NOON });
    const after = (await admin.client.get('/api/admin/reviews/load')).data as ReviewLoad;
    const spread = openLoads(after, [...ids, sixth.id]);
    expect(spread.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.min(...spread)).toBeGreaterThanOrEqual(99);
    expect(Math.max(...spread) - Math.min(...spread)).toBeLessThanOrEqual(1);
    // Still nobody on their own or a biased owner's application, still two per application.
    const moved = await sql<{ vehicle_id: string; reviewer_id: string }>(
      `select vehicle_id, reviewer_id from review_assignment where edition_id = ?`,
      [editionId],
    );
    expect(moved).toHaveLength(600);
    const biasedIds = new Set(biasedOwners.map((o) => o.id));
    expect(moved.filter((a) => a.reviewer_id === biased.id && biasedIds.has(a.vehicle_id))).toEqual([]);
    expect(moved.filter((a) => a.reviewer_id === owning.id && a.vehicle_id === applications[7]!.id)).toEqual(
      [],
    );

    // A reviewer leaves: their open reviews go to the five others.
    await setRole(t.orm.em, reviewers[4]!.email, 'user', {
      actor: systemAuditActor('test'),
      at: APPLYING_NOON,
    });
    const left = (await admin.client.get('/api/admin/reviews/load')).data as ReviewLoad;
    expect(left.reviewers.find((r) => r.id === reviewers[4]!.id)).toBeUndefined();
    const rest = openLoads(left, [...ids.slice(0, 4), sixth.id]);
    expect(rest.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...rest) - Math.min(...rest)).toBeLessThanOrEqual(1);

    // The balancing is at rest: running it again changes nothing.
    const again = await t.orm.em.fork().transactional((tx) => balanceEdition(tx, editionId, APPLYING_NOON));
    expect(again).toEqual({ added: 0, removed: 0, moved: 0 });

    // A reviewer's 'Meine Prüfungen' lists their open reviews and names the next one.
    const mine = (await reviewers[2]!.client.get('/api/admin/reviews/mine')).data as MyReviews;
    expect(mine.open.length).toBe(rest[2]);
    expect(mine.next).toBe(mine.open[0]!.vehicleId);
  }, 120_000);
});

describe('scores', () => {
  it('two reviewers score independently; the mean follows the weights and orders the waitlist', async () => {
    const admin = await t.signIn('admin');
    // Only these two review here: the others of this file step aside.
    await sql(`update users set role = 'user' where role = 'reviewer'`);
    await sql(`update vehicle set status = 'draft' where status in ('submitted', 'in_review')`);
    const anna = await t.signIn('reviewer', { firstName: 'Anna', lastName: 'Prüferin' });
    const ben = await t.signIn('reviewer', { firstName: 'Ben', lastName: 'Prüfer' });
    const settings = (await admin.client.get('/api/admin/reviews/settings')).data as ReviewSettings;
    expect(settings.categories.map((c) => [c.name, c.weight])).toEqual([
      ['Umbauqualität', 2],
      ['Originalität', 1],
      ['Gesamteindruck', 1],
    ]);
    // Weights 3, 1, 1: the build counts three times.
    const [build, originality, overall] = settings.categories.map((c) => c.id) as [string, string, string];
    const put = await admin.client.put('/api/admin/reviews/settings', {
      reviewersPerApplication: 2,
      categories: [
        { id: build, name: 'Umbauqualität', weight: 3 },
        { id: originality, name: 'Originalität', weight: 1 },
        { id: overall, name: 'Gesamteindruck', weight: 1 },
      ],
    });
    expect(put.status, put.text).toBe(200);

    // Two applications, submitted through the API: each gets Anna and Ben.
    const first = await t.signIn('user');
    const second = await t.signIn('user');
    const a = await createVehicle(first.client, { status: 'submitted', brand: 'Audi', model: 'S2' });
    const b = await createVehicle(second.client, { status: 'submitted', brand: 'Opel', model: 'Manta' });
    for (const id of [a.id, b.id]) {
      const view = (await admin.client.get(`/api/admin/vehicles/${id}/review`)).data as VehicleReview;
      expect(view.reviews.map((r) => r.reviewerId).sort()).toEqual([anna.id, ben.id].sort());
    }

    // Anna scores a: 9, 5, 5 → (27 + 5 + 5) / 5 = 7.4.
    const annaScores = { [build]: 9, [originality]: 5, [overall]: 5 };
    expect(
      (await anna.client.post(`/api/admin/vehicles/${a.id}/review`, { scores: annaScores })).status,
    ).toBe(200);
    // Ben has not submitted: he sees that Anna did, but not her scores, not the mean, not her log row's score.
    const benView = (await ben.client.get(`/api/admin/vehicles/${a.id}/review`)).data as VehicleReview;
    expect(benView.hidden).toBe(true);
    const annaRow = benView.reviews.find((r) => r.reviewerId === anna.id)!;
    expect(annaRow.submittedAt).not.toBeNull();
    expect(annaRow.scores).toBeNull();
    expect(annaRow.total).toBeNull();
    expect(benView.score.mean).toBeNull();
    const benLog = (await ben.client.get(`/api/vehicles/${a.id}/reviews`)).data as StatusHistoryEntry[];
    const annaLog = benLog.find((e) => e.kind === 'review')!;
    expect(annaLog.score).toBeNull();
    expect(annaLog.commentInternal).toBeNull();
    expect(JSON.stringify(benLog)).not.toContain('Umbauqualität 9');

    // Ben scores a: 5, 10, 10 → (15 + 10 + 10) / 5 = 7. Then both see both; the mean is 7.2, spread 7–7.4.
    const benScores = { [build]: 5, [originality]: 10, [overall]: 10 };
    const after = await ben.client.post(`/api/admin/vehicles/${a.id}/review`, {
      scores: benScores,
      comment: 'Sauber gemacht.',
    });
    expect(after.status, after.text).toBe(200);
    const both = after.data as VehicleReview;
    expect(both.hidden).toBe(false);
    expect(both.score.mean).toBeCloseTo(7.2, 6);
    expect(both.score.min).toBeCloseTo(7, 6);
    expect(both.score.max).toBeCloseTo(7.4, 6);
    expect(both.reviews.find((r) => r.reviewerId === anna.id)?.scores).toEqual(annaScores);
    // A second submission is refused.
    const twice = await ben.client.post(`/api/admin/vehicles/${a.id}/review`, { scores: benScores });
    expect(twice.status).toBe(409);
    expect(twice.data).toMatchObject({
      message: 'Sie haben Ihre Bewertung für diese Bewerbung bereits abgegeben.',
    });

    // The status log keeps each review as a row of its own.
    const log = (await admin.client.get(`/api/vehicles/${a.id}/reviews`)).data as StatusHistoryEntry[];
    const reviews = log.filter((e) => e.kind === 'review');
    expect(reviews).toHaveLength(2);
    expect(reviews.map((r) => r.commentInternal)).toEqual([
      'Bewertung: Umbauqualität 5 · Originalität 10 · Gesamteindruck 10 → 7\nSauber gemacht.',
      'Bewertung: Umbauqualität 9 · Originalität 5 · Gesamteindruck 5 → 7,4',
    ]);

    // b: Anna 6, 10, 10 → 7.6; Ben 7, 9, 9 → 7.8; mean 7.7: by these weights b ranks above a.
    await anna.client.post(`/api/admin/vehicles/${b.id}/review`, {
      scores: { [build]: 6, [originality]: 10, [overall]: 10 },
    });
    await ben.client.post(`/api/admin/vehicles/${b.id}/review`, {
      scores: { [build]: 7, [originality]: 9, [overall]: 9 },
    });
    for (const id of [a.id, b.id])
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`update vehicle set status = 'waitlist' where id = ?`, [id]);
    const editionId = await currentEditionId(t.orm.em);
    const ranked = await rankWaitlist(t.orm.em.fork(), editionId, 10);
    const order = ranked.filter((c) => [a.id, b.id].includes(c.vehicleId));
    expect(order.map((c) => c.vehicleId)).toEqual([b.id, a.id]);
    expect(order[0]!.score).toBeCloseTo(7.7, 6);
    expect(order[1]!.score).toBeCloseTo(7.2, 6);

    // Reweighing the originality up (1, 3, 1) follows at once: a = (Anna 5.8 + Ben 9) / 2 = 7.4,
    // b = (Anna 9.2 + Ben 8.6) / 2 = 8.9; categories can no longer be added.
    const reweigh = await admin.client.put('/api/admin/reviews/settings', {
      reviewersPerApplication: 2,
      categories: [
        { id: build, name: 'Umbauqualität', weight: 1 },
        { id: originality, name: 'Originalität', weight: 3 },
        { id: overall, name: 'Gesamteindruck', weight: 1 },
      ],
    });
    expect(reweigh.status, reweigh.text).toBe(200);
    expect((reweigh.data as ReviewSettings).categoriesFixed).toBe(true);
    const reranked = (await rankWaitlist(t.orm.em.fork(), editionId, 10)).filter((c) =>
      [a.id, b.id].includes(c.vehicleId),
    );
    expect(reranked.map((c) => c.score)).toEqual([expect.closeTo(8.9, 6), expect.closeTo(7.4, 6)]);
    const adding = await admin.client.put('/api/admin/reviews/settings', {
      reviewersPerApplication: 2,
      categories: [
        { id: build, name: 'Umbauqualität', weight: 1 },
        { id: originality, name: 'Originalität', weight: 3 },
        { id: overall, name: 'Gesamteindruck', weight: 1 },
        { name: 'Sound', weight: 1 },
      ],
    });
    expect(adding.status).toBe(409);
  });

  it('refuses a review by someone not assigned and a review missing a category, in German', async () => {
    const admin = await t.signIn('admin');
    const reviewer = await t.signIn('reviewer');
    const owner = await t.signIn('user');
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });
    const view = (await admin.client.get(`/api/admin/vehicles/${vehicle.id}/review`)).data as VehicleReview;
    const assigned = view.reviews.some((r) => r.reviewerId === reviewer.id);
    const outsider = assigned ? admin : reviewer;
    const scores = Object.fromEntries(view.categories.map((c) => [c.id, 5]));
    const refused = await outsider.client.post(`/api/admin/vehicles/${vehicle.id}/review`, { scores });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({
      message: 'Diese Bewerbung ist Ihnen nicht zur Prüfung zugewiesen.',
    });
    const range = await admin.client.post(`/api/admin/vehicles/${vehicle.id}/review`, {
      scores: { [view.categories[0]!.id]: 11 },
    });
    expect(range.status).toBe(400);
    expect(range.text).toContain('Jede Bewertung ist eine ganze Zahl von 0 bis 10.');
  });
});

describe('personal data', () => {
  it("a reviewer's export lists their reviews and biases; deleting them keeps their submitted review as 'Gelöschtes Konto' and hands their open ones on", async () => {
    await sql(`update users set role = 'user' where role = 'reviewer'`);
    await sql(`update vehicle set status = 'draft' where status in ('submitted', 'in_review')`);
    const admin = await t.signIn('admin');
    const leaving = await t.signIn('reviewer', { firstName: 'Lea', lastName: 'Geht' });
    const staying = await t.signIn('reviewer', { firstName: 'Tom', lastName: 'Bleibt' });
    const third = await t.signIn('reviewer', { firstName: 'Ida', lastName: 'Dritte' });
    const biasedTowards = await insertConfirmedUser(t, { firstName: 'Onkel', lastName: 'Otto' });
    expect(
      (await leaving.client.post('/api/admin/reviews/conflicts', { email: biasedTowards.email })).status,
    ).toBe(201);

    const owner = await t.signIn('user');
    const done = await createVehicle(owner.client, { status: 'submitted', brand: 'Lancia', model: 'Delta' });
    const other = await t.signIn('user');
    const open = await createVehicle(other.client, { status: 'submitted', brand: 'Fiat', model: 'Uno' });
    // Lea reviews `done` and holds an open review of `open`. What the balancing gave her is made an
    // admin's assignment first, so the moves below (which even out the loads) leave it where it is.
    await sql(`update review_assignment set assigned_by = ? where reviewer_id = ?`, [admin.id, leaving.id]);
    for (const id of [done.id, open.id]) {
      const view = (await admin.client.get(`/api/admin/vehicles/${id}/review`)).data as VehicleReview;
      if (!view.reviews.some((r) => r.reviewerId === leaving.id)) {
        const from = view.reviews.find((r) => r.reviewerId !== leaving.id)!.reviewerId!;
        expect(
          (await admin.client.post(`/api/admin/vehicles/${id}/assignments`, { from, to: leaving.id })).status,
        ).toBe(200);
      }
    }
    const categories = ((await admin.client.get('/api/admin/reviews/settings')).data as ReviewSettings)
      .categories;
    const scores = Object.fromEntries(categories.map((c) => [c.id, 8]));
    expect(
      (await leaving.client.post(`/api/admin/vehicles/${done.id}/review`, { scores, comment: 'Top' })).status,
    ).toBe(200);

    const fork = t.orm.em.fork();
    const exportRow = fork.create(DataExport, { user: leaving.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    const reviews = data!.documents['pruefungen.json'] as Array<Record<string, unknown>>;
    expect(reviews.map((r) => [r.vehicle, r.total, r.comment])).toEqual(
      expect.arrayContaining([
        ['Lancia Delta', 8, 'Top'],
        ['Fiat Uno', null, null],
      ]),
    );
    expect(data!.documents['befangenheit.json']).toEqual([
      { name: 'Onkel Otto', email: biasedTowards.email, since: expect.any(Date) },
    ]);

    await deleteAccount(t.orm.em, leaving.id, APPLYING_NOON);
    const after = (await admin.client.get(`/api/admin/vehicles/${done.id}/review`)).data as VehicleReview;
    const kept = after.reviews.find((r) => r.submittedAt !== null)!;
    expect(kept.reviewerName).toBe('Gelöschtes Konto');
    expect(kept.total).toBe(8);
    const handedOn = (await admin.client.get(`/api/admin/vehicles/${open.id}/review`)).data as VehicleReview;
    expect(handedOn.reviews.map((r) => r.reviewerId).sort()).toEqual([staying.id, third.id].sort());
    expect(await sql(`select 1 from review_conflict where reviewer_id = ?`, [leaving.id])).toEqual([]);
  });
});
