/**
 * Blind review and no judge in one's own cause, on the real server and database. Two reviewers of
 * one application see nothing of each other's review before submitting their own, on every path
 * (the review, the dialog's history and staff detail, the CSV, 'Meine Prüfungen', the owner's other
 * applications, the waitlist), also across a bias declared and withdrawn, which never gives the
 * review back; after submitting they see. A reviewer who applied too is refused every staff act on
 * their own application; so is an admin, whom the answer tells whether another admin decides.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_CSV_HEADER, REVIEW_MESSAGES, type StatusHistoryEntry } from '@schlosstreffen/shared';
import type {
  BulkStatusPreview,
  BulkStatusResult,
  EarlierApplications,
  MyReviews,
  ReviewLoad,
  ReviewSettings,
  VehicleReview,
  WaitlistOverview,
} from '@schlosstreffen/shared/api';
import { deleteAccount } from '../../core/accounts/account-deletion.js';
import { collectAccountData } from '../../core/accounts/data-export.js';
import { createEdition } from '../../core/editions/editions.js';
import { DataExport } from '../../core/model/data-export.entity.js';
import { balanceEdition } from '../../core/reviews/reviews.js';
import {
  APPLYING_NOON,
  changeStatus,
  createTestContext,
  createVehicle,
  insertSentMail,
  routesOf,
  type SignedIn,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';
import { currentEditionId } from '../../testing/editions.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { RATE_LIMIT_FACTOR: '1000' } });
});
afterAll(() => t?.close());

const sql = <T extends object>(text: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute<T[]>(text, params);

const SCORE_COLUMN = APPLICATION_CSV_HEADER.indexOf('Bewertung');

/** The 'Bewertung' cell of each application in the staff member's CSV export, by vehicle id. */
async function csvScores(client: TestClient): Promise<Map<string, string>> {
  const res = await client.get('/api/admin/vehicles.csv?status=all&q=');
  expect(res.status, res.text).toBe(200);
  const lines = res.text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1);
  return new Map(
    lines.map((line) => {
      const cells = line.split(';').map((cell) => cell.replace(/^"|"$/g, ''));
      return [cells[0]!, cells[SCORE_COLUMN]!];
    }),
  );
}

async function reviewOf(client: TestClient, vehicleId: string): Promise<VehicleReview> {
  const res = await client.get(`/api/admin/vehicles/${vehicleId}/review`);
  expect(res.status, res.text).toBe(200);
  return res.data as VehicleReview;
}

async function historyOf(client: TestClient, vehicleId: string): Promise<StatusHistoryEntry[]> {
  const res = await client.get(`/api/vehicles/${vehicleId}/reviews`);
  expect(res.status, res.text).toBe(200);
  return res.data as StatusHistoryEntry[];
}

/**
 * Everything `reader` may read of an application and its owner: none of it holds the other's
 * review (their note, their scores in the log's text, a score or a mean).
 */
async function expectBlind(reader: SignedIn, vehicleId: string, secret: string) {
  const view = await reviewOf(reader.client, vehicleId);
  expect(view.hidden).toBe(true);
  expect(view.score).toMatchObject({ mean: null, min: null, max: null });
  for (const review of view.reviews.filter((r) => !r.mine)) {
    expect([review.scores, review.total, review.comment]).toEqual([null, null, null]);
  }
  const history = await historyOf(reader.client, vehicleId);
  expect(history.filter((e) => e.reviewerId !== reader.id && e.score !== null)).toEqual([]);
  expect(history.some((e) => e.kind === 'review' && e.reviewerId !== reader.id)).toBe(true);
  const detail = await reader.client.get(`/api/admin/vehicles/${vehicleId}`);
  expect(detail.status, detail.text).toBe(200);
  for (const text of [JSON.stringify(view), JSON.stringify(history), detail.text]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Umbauqualität 8');
  }
  expect((await csvScores(reader.client)).get(vehicleId)).toBe('');
}

describe('blind until submitted', () => {
  it('two reviewers of one application see nothing of each other before submitting, on every path, also across a bias declared and withdrawn; then they see', async () => {
    const admin = await t.signIn('admin');
    const anna = await t.signIn('reviewer', { firstName: 'Anna', lastName: 'Prüferin' });
    const ben = await t.signIn('reviewer', { firstName: 'Ben', lastName: 'Prüfer' });
    const owner = await t.signIn('user', { firstName: 'Otto', lastName: 'Halter' });
    const other = await t.signIn('user', { firstName: 'Olga', lastName: 'Andere' });

    // x is Olga's; y and its sibling y2 (same edition) are Otto's. Each gets Anna and Ben.
    const x = await createVehicle(other.client, { status: 'submitted', brand: 'Audi', model: 'S2' });
    const y = await createVehicle(owner.client, { status: 'submitted', brand: 'Opel', model: 'Manta' });
    const y2 = await createVehicle(owner.client, { status: 'submitted', brand: 'BMW', model: 'E30' });
    for (const id of [x.id, y.id, y2.id]) {
      const view = await reviewOf(admin.client, id);
      expect(view.reviews.map((r) => r.reviewerId).sort()).toEqual([anna.id, ben.id].sort());
    }
    // Otto took part in an earlier edition: its score is shown to every reviewer.
    const editionId = await currentEditionId(t.orm.em);
    const earlierEdition = await createEdition(t.orm.em.fork(), { year: 2025 });
    const earlier = randomUUID();
    await sql(
      `insert into vehicle select (jsonb_populate_record(null::vehicle,
          to_jsonb(v) || jsonb_build_object('id', ?::uuid, 'car_id', ?::uuid, 'edition_id', ?::uuid, 'status', 'rejected'))).*
         from vehicle v where v.id = ?`,
      [earlier, earlier, earlierEdition.id, y.id],
    );
    await sql(
      `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_at, scores, total, submitted_at)
       values (gen_random_uuid(), ?, ?, null, now(), '{}', 6.5, now())`,
      [earlierEdition.id, earlier],
    );

    const settings = (await admin.client.get('/api/admin/reviews/settings')).data as ReviewSettings;
    const scores = (value: number) => Object.fromEntries(settings.categories.map((c) => [c.id, value]));
    // Ben reviews all three first: 8 everywhere, with a note.
    for (const id of [x.id, y.id, y2.id]) {
      const res = await ben.client.post(`/api/admin/vehicles/${id}/review`, {
        scores: scores(8),
        comment: 'Bens Notiz',
      });
      expect(res.status, res.text).toBe(200);
    }
    // An admin's note names the score (as moving up from the waitlist notes it).
    const noted = await admin.client.patch(`/api/admin/vehicles/${x.id}/status`, {
      status: 'in_review',
      oldStatus: 'submitted',
      comment: 'Laut Liste Bewertung 8, weiter prüfen.',
    });
    expect(noted.status, noted.text).toBe(200);
    // An admin sees them always.
    expect((await reviewOf(admin.client, x.id)).score.mean).toBe(8);
    expect((await csvScores(admin.client)).get(x.id)).toBe('8');

    // Anna has not submitted: the review, the dialog's history and detail, the CSV hold nothing of Ben's.
    for (const id of [x.id, y.id, y2.id]) await expectBlind(anna, id, 'Bens Notiz');
    expect((await historyOf(anna.client, x.id)).map((e) => e.commentInternal)).toContain(
      'Laut Liste Bewertung verborgen, weiter prüfen.',
    );
    // 'Meine Prüfungen' lists her open reviews, with no score.
    const mine = (await anna.client.get('/api/admin/reviews/mine')).data as MyReviews;
    expect(mine.open.map((r) => [r.vehicleId, r.total]).sort()).toEqual(
      [x.id, y.id, y2.id].map((id) => [id, null]).sort(),
    );
    expect(JSON.stringify(mine)).not.toContain('Bens Notiz');
    // The owner's other applications: the earlier edition with its score; the same edition's apart, without.
    const beside = (await anna.client.get(`/api/admin/vehicles/${y2.id}/earlier`))
      .data as EarlierApplications;
    expect(beside.applications.map((a) => [a.id, a.score, a.scoreHidden])).toEqual([[earlier, 6.5, false]]);
    expect(beside.sameEdition.map((a) => [a.id, a.score, a.scoreHidden])).toEqual([[y.id, null, true]]);
    // The waitlist: the order, without the scores she may not see yet.
    await changeStatus(admin, y.id, 'submitted', 'waitlist');
    const waitlist = (await anna.client.get('/api/admin/waitlist')).data as WaitlistOverview;
    expect(waitlist.candidates.find((c) => c.vehicle.id === y.id)).toMatchObject({
      score: null,
      scoreHidden: true,
      conflict: null,
    });
    const adminWaitlist = (await admin.client.get('/api/admin/waitlist')).data as WaitlistOverview;
    expect(adminWaitlist.candidates.find((c) => c.vehicle.id === y.id)).toMatchObject({ score: 8 });
    await changeStatus(admin, y.id, 'waitlist', 'in_review');

    // Anna declares a bias towards Otto: her reviews of y and y2 end, and nothing of them is hers to read.
    const declared = await anna.client.post('/api/admin/reviews/conflicts', { email: owner.email });
    expect(declared.status, declared.text).toBe(201);
    for (const path of [
      `/api/admin/vehicles/${y.id}/review`,
      `/api/vehicles/${y.id}/reviews`,
      `/api/admin/vehicles/${y.id}`,
      `/api/admin/vehicles/${y2.id}/earlier`,
      `/api/admin/vehicles/${y.id}/emails`,
    ]) {
      const refused = await anna.client.get(path);
      expect([path, refused.status, refused.data]).toEqual([
        path,
        403,
        { message: REVIEW_MESSAGES.conflictBias, conflict: 'bias', otherAdmin: null },
      ]);
    }
    const status = await anna.client.patch(`/api/admin/vehicles/${y.id}/status`, {
      status: 'rejected',
      oldStatus: 'in_review',
    });
    expect([status.status, status.data.message]).toEqual([403, REVIEW_MESSAGES.conflictBias]);
    expect((await csvScores(anna.client)).get(y.id)).toBe('');
    const review = await anna.client.post(`/api/admin/vehicles/${y.id}/review`, { scores: scores(1) });
    expect([review.status, review.data.message]).toEqual([403, REVIEW_MESSAGES.conflictBias]);

    // She withdraws it: she reads again as a reviewer who has not submitted, and the reviews stay ended.
    const people = (declared.data as { people: Array<{ id: string }> }).people;
    expect((await anna.client.delete(`/api/admin/reviews/conflicts/${people[0]!.id}`)).status).toBe(200);
    await t.orm.em.fork().transactional((tx) => balanceEdition(tx, editionId, APPLYING_NOON));
    for (const id of [y.id, y2.id]) {
      await expectBlind(anna, id, 'Bens Notiz');
      const view = await reviewOf(anna.client, id);
      expect(view.mine).toBeNull();
      expect(view.reviews.map((r) => r.reviewerId)).toEqual([ben.id]);
    }
    const after = (await anna.client.get('/api/admin/reviews/mine')).data as MyReviews;
    expect(after.open.map((r) => r.vehicleId)).toEqual([x.id]);
    const refusedReview = await anna.client.post(`/api/admin/vehicles/${y.id}/review`, { scores: scores(1) });
    expect([refusedReview.status, refusedReview.data.message]).toEqual([403, REVIEW_MESSAGES.notAssigned]);
    const again = (await anna.client.get(`/api/admin/vehicles/${y2.id}/earlier`)).data as EarlierApplications;
    expect(again.sameEdition.map((a) => [a.id, a.score])).toEqual([[y.id, null]]);
    // Nobody else is left to review them: the load view lists both as 'unterbesetzt', and an admin
    // cannot give them back to Anna.
    const load = (await admin.client.get('/api/admin/reviews/load')).data as ReviewLoad;
    expect(load.understaffed).toBe(2);
    expect(load.understaffedApplications.map((a) => [a.vehicleId, a.assigned]).sort()).toEqual(
      [
        [y.id, 1],
        [y2.id, 1],
      ].sort(),
    );
    const adminView = await reviewOf(admin.client, y.id);
    expect(adminView.candidates.map((c) => c.id)).not.toContain(anna.id);

    // Anna submits x: now she sees Ben's review of it on every path, and Ben hers.
    const submitted = await anna.client.post(`/api/admin/vehicles/${x.id}/review`, {
      scores: scores(6),
      comment: 'Annas Notiz',
    });
    expect(submitted.status, submitted.text).toBe(200);
    const seen = submitted.data as VehicleReview;
    expect(seen.hidden).toBe(false);
    expect(seen.score.mean).toBe(7);
    expect(seen.reviews.find((r) => r.reviewerId === ben.id)).toMatchObject({
      comment: 'Bens Notiz',
      total: 8,
    });
    const annasLog = await historyOf(anna.client, x.id);
    expect(annasLog.find((e) => e.kind === 'review' && e.reviewerId === ben.id)?.commentInternal).toContain(
      'Bens Notiz',
    );
    expect((await csvScores(anna.client)).get(x.id)).toBe('7');
    expect(annasLog.map((e) => e.commentInternal)).toContain('Laut Liste Bewertung 8, weiter prüfen.');
    const bensView = await reviewOf(ben.client, x.id);
    expect(bensView.reviews.find((r) => r.reviewerId === anna.id)?.comment).toBe('Annas Notiz');
  });
});

describe('no judge in their own cause', () => {
  it('a reviewer who applied is refused every staff route on their application, in German; bulk rows of it are left out', async () => {
    const admin = await t.signIn('admin');
    const rita = await t.signIn('reviewer', { firstName: 'Rita', lastName: 'Selbst' });
    const own = await createVehicle(rita.client, { status: 'submitted', brand: 'Lancia', model: 'Delta' });
    const mail = await insertSentMail(t, own.id);
    // The admin gives it a score with a status change: hers to see, not Rita's.
    const scored = await admin.client.patch(`/api/admin/vehicles/${own.id}/status`, {
      status: 'waitlist',
      oldStatus: 'submitted',
      score: 9,
    });
    expect(scored.status, scored.text).toBe(200);
    const categories = ((await admin.client.get('/api/admin/reviews/settings')).data as ReviewSettings)
      .categories;
    // Even an assignment by hand does not make it hers to review.
    await sql(
      `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_by, assigned_at)
       select gen_random_uuid(), edition_id, id, ?, ?, now() from vehicle where id = ?`,
      [rita.id, admin.id, own.id],
    );

    // Every staff route that names the application.
    const requests: Array<[string, string, unknown?]> = [
      ['GET', `/api/vehicles/${own.id}/reviews`],
      ['GET', `/api/admin/vehicles/${own.id}`],
      ['GET', `/api/admin/vehicles/${own.id}/review`],
      [
        'POST',
        `/api/admin/vehicles/${own.id}/review`,
        { scores: Object.fromEntries(categories.map((c) => [c.id, 10])) },
      ],
      ['POST', `/api/admin/vehicles/${own.id}/assignments`, { from: rita.id, to: admin.id }],
      ['PATCH', `/api/admin/vehicles/${own.id}/status`, { status: 'invited', oldStatus: 'waitlist' }],
      ['GET', `/api/admin/vehicles/${own.id}/earlier`],
      ['GET', `/api/admin/vehicles/${own.id}/emails`],
      ['POST', `/api/admin/vehicles/${own.id}/emails/${mail}/resend`, {}],
      ['POST', '/api/admin/waitlist/invite', { vehicleId: own.id }],
      [
        'POST',
        `/api/admin/vehicles/${own.id}/correction`,
        { status: 'rejected', reason: 'Falsch erfasst beim Treffen' },
      ],
    ];
    // The list is whole: every staff route with the application's id is in it.
    const staffRoutes = routesOf(t.app as never)
      .filter((r) => r.path.startsWith('/api/admin/vehicles/:id') || r.path === '/api/vehicles/:id/reviews')
      .map((r) => `${r.method} ${r.path}`);
    const listed = requests.map(
      ([method, path]) => `${method} ${path.replaceAll(own.id, ':id').replace(mail, ':mailId')}`,
    );
    expect(staffRoutes.filter((route) => !listed.includes(route))).toEqual([]);

    for (const [method, path, json] of requests) {
      const res = await rita.client.request(method, path, json === undefined ? {} : { json });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      // Moving a review and correcting a past record are for admins whatever the application; every
      // other answer says why.
      if (!path.endsWith('/assignments') && !path.endsWith('/correction')) {
        expect(res.data).toEqual({ message: REVIEW_MESSAGES.conflictOwn, conflict: 'own', otherAdmin: null });
      }
    }
    // Nothing changed: still on the waitlist, no review by her, the mail not resent.
    const view = await reviewOf(admin.client, own.id);
    expect(view.status).toBe('waitlist');
    expect(view.reviews.find((r) => r.reviewerId === rita.id)?.submittedAt).toBeNull();

    // A bulk change leaves her row out, with the reason, in the preview and in the change.
    const preview = await rita.client.post('/api/admin/vehicles/bulk-status/preview', {
      status: 'rejected',
      ids: [own.id],
    });
    expect(preview.status, preview.text).toBe(200);
    expect((preview.data as BulkStatusPreview).skipped).toEqual([
      expect.objectContaining({ id: own.id, reason: REVIEW_MESSAGES.conflictBulkOwn }),
    ]);
    const bulk = await rita.client.post('/api/admin/vehicles/bulk-status', {
      status: 'rejected',
      changes: [{ id: own.id, oldStatus: 'waitlist' }],
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect((bulk.data as BulkStatusResult).rows).toEqual([
      expect.objectContaining({ id: own.id, outcome: 'refused', reason: REVIEW_MESSAGES.conflictBulkOwn }),
    ]);
    // Lists: her CSV row has no score (the admin's has), the waitlist shows it hers and without score.
    expect((await csvScores(rita.client)).get(own.id)).toBe('');
    expect((await csvScores(admin.client)).get(own.id)).toBe('9');
    const waitlist = (await rita.client.get('/api/admin/waitlist')).data as WaitlistOverview;
    expect(waitlist.candidates.find((c) => c.vehicle.id === own.id)).toMatchObject({
      score: null,
      conflict: 'own',
    });
    // As its owner she still reads and edits her application.
    expect((await rita.client.get(`/api/vehicles/${own.id}`)).status).toBe(200);
  });

  it('an admin who applied has the same limits; the answer says whether another admin decides', async () => {
    const admin = await t.signIn('admin');
    const other = await t.signIn('admin');
    const own = await createVehicle(admin.client, { status: 'submitted', brand: 'Fiat', model: 'Uno' });
    const refused = await admin.client.patch(`/api/admin/vehicles/${own.id}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
    });
    expect([refused.status, refused.data]).toEqual([
      403,
      {
        message: `${REVIEW_MESSAGES.conflictOwn} ${REVIEW_MESSAGES.conflictOtherAdmin}`,
        conflict: 'own',
        otherAdmin: true,
      },
    ]);
    expect((await admin.client.get(`/api/admin/vehicles/${own.id}/review`)).status).toBe(403);
    // The other admin decides.
    expect((await other.client.get(`/api/admin/vehicles/${own.id}/review`)).status).toBe(200);
    // Once every other admin is biased towards her, nobody can: the answer says so.
    for (const colleague of await sql<{ id: string }>(
      `select id from users where role = 'admin' and id <> ?`,
      [admin.id],
    )) {
      await sql(`insert into review_conflict (id, reviewer_id, person_id) values (gen_random_uuid(), ?, ?)`, [
        colleague.id,
        admin.id,
      ]);
    }
    const alone = await admin.client.get(`/api/admin/vehicles/${own.id}/review`);
    expect([alone.status, alone.data]).toEqual([
      403,
      {
        message: `${REVIEW_MESSAGES.conflictOwn} ${REVIEW_MESSAGES.conflictNoOtherAdmin}`,
        conflict: 'own',
        otherAdmin: false,
      },
    ]);
    const biased = await other.client.get(`/api/admin/vehicles/${own.id}/review`);
    expect([biased.status, biased.data.message]).toEqual([
      403,
      `${REVIEW_MESSAGES.conflictBias} ${REVIEW_MESSAGES.conflictNoOtherAdmin}`,
    ]);
  });
});

describe('the reviews a bias ended', () => {
  it("are in the reviewer's data export and go with their account", async () => {
    const reviewer = await t.signIn('reviewer', { firstName: 'Eva', lastName: 'Ende' });
    const owner = await t.signIn('user', { firstName: 'Karl', lastName: 'Kennt' });
    const car = await createVehicle(owner.client, { status: 'submitted', brand: 'Saab', model: '900' });
    await sql(
      `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_at)
       select gen_random_uuid(), edition_id, id, ?, now() from vehicle where id = ?
       on conflict do nothing`,
      [reviewer.id, car.id],
    );
    expect((await reviewer.client.post('/api/admin/reviews/conflicts', { email: owner.email })).status).toBe(
      201,
    );
    const fork = t.orm.em.fork();
    const exportRow = fork.create(DataExport, { user: reviewer.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    expect(data!.documents['pruefungen-beendet.json']).toEqual([
      { vehicleId: car.id, vehicle: 'Saab 900', edition: 'Schlosstreffen 2026', since: expect.any(Date) },
    ]);
    await deleteAccount(t.orm.em, reviewer.id, APPLYING_NOON);
    expect(await sql(`select 1 from review_exclusion where reviewer_id = ?`, [reviewer.id])).toEqual([]);
  });
});
