import { randomUUID } from 'node:crypto';
import { JURY_MESSAGES } from '@schlosstreffen/shared';
import type {
  JuryAdminView,
  JuryClassAdminView,
  JuryClassProgress,
  JuryCloseRefusal,
  JuryJudgeView,
  JuryResults,
  JurySyncResult,
} from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../core/db/db.queries.js';
import { createEdition } from '../../core/editions/editions.js';
import { AuditLog } from '../../core/model/audit-log.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { User } from '../../core/model/user.entity.js';
import { unseal } from '../../core/crypto/seal.js';
import {
  createTestContext,
  EVENT_DAY_NOON,
  testClock,
  uniqueEmail,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';
import { insertNumberedCar } from '../../testing/signs.js';

const HOUR = 3600_000;

/**
 * The jury through the API on the real database: judges score at the car (a sync sent twice counts
 * once, the last entered value counts), never their own car or one they declared a bias towards;
 * closing ranks by the weighted means, blocked by missing scores and undecided ties; the results are
 * published, then frozen and corrected only by an admin with a reason.
 */
describe('the jury', () => {
  let t: TestContext;
  const clock = testClock(EVENT_DAY_NOON);
  let admin: SignedIn;
  let head: SignedIn;
  let judgeA: SignedIn;
  let judgeB: SignedIn;
  let outsider: SignedIn;
  let year: number;
  let classId: string;
  /** Start numbers: car1 and car2 of an owner, car3 owned by judge A, car4 and car5 of the owner. */
  const car = { one: 0, two: 0, three: 0, four: 0 };
  let criteria: { id: string; weight: number }[];

  const at = (offsetMinutes: number) =>
    new Date(EVENT_DAY_NOON.getTime() + offsetMinutes * 60_000).toISOString();

  /** A card of one car: the values by criterion order. */
  const entries = (startNumber: number, values: number[], enteredAt = at(0)) =>
    criteria.map((c, i) => ({
      id: randomUUID(),
      classId,
      startNumber,
      criterion: c.id,
      value: values[i]!,
      enteredAt,
    }));

  const sync = async (
    judge: SignedIn,
    body: { entries?: unknown[]; recusals?: unknown[] },
    deviceId = randomUUID(),
  ) => {
    const res = await judge.client.post('/api/jury/sync', { deviceId, entries: [], ...body });
    expect(res.status, res.text).toBe(200);
    return res.data as JurySyncResult;
  };

  const adminView = async () => {
    const res = await admin.client.get(`/api/admin/jury/${year}`);
    expect(res.status, res.text).toBe(200);
    return res.data as JuryAdminView;
  };

  beforeAll(async () => {
    t = await createTestContext({ relay: false, now: clock.now });
    year = t.event.edition.year;
    admin = await t.signIn('admin');
    head = await t.signIn('user', { firstName: 'Henrike', lastName: 'Haupt' });
    judgeA = await t.signIn('user', { firstName: 'Anton', lastName: 'Auer' });
    judgeB = await t.signIn('reviewer', { firstName: 'Berta', lastName: 'Brandt' });
    outsider = await t.signIn('user');
    const owner = await t.signIn('user');
    car.one = (await insertNumberedCar(t, { ownerId: owner.id, name: 'Rote Göttin', zone: 'B' })).startNumber;
    car.two = (
      await insertNumberedCar(t, { ownerId: owner.id, name: 'Blauer Blitz', zone: 'A' })
    ).startNumber;
    car.three = (
      await insertNumberedCar(t, { ownerId: judgeA.id, name: 'Antons Auto', zone: 'A' })
    ).startNumber;
    car.four = (
      await insertNumberedCar(t, { ownerId: owner.id, name: 'Grüner Gecko', zone: 'A' })
    ).startNumber;
    for (const judge of [head, judgeA, judgeB]) {
      const res = await admin.client.post(`/api/admin/jury/${year}/judges`, { email: judge.email });
      expect(res.status, res.text).toBe(201);
      expect(res.data.result).toBe('added');
    }
    const created = await admin.client.post(`/api/admin/jury/${year}/classes`, {
      name: 'Bester Umbau',
      criteria: [
        { name: 'Qualität des Umbaus', weight: 3 },
        { name: 'Sauberkeit', weight: 1 },
      ],
      places: 2,
      judgeIds: [head.id, judgeA.id, judgeB.id],
      headJudgeId: head.id,
    });
    expect(created.status, created.text).toBe(201);
    const juryClass = created.data as JuryClassAdminView;
    classId = juryClass.id;
    criteria = juryClass.criteria;
    expect(juryClass.criteria.map((c) => c.max)).toEqual([10, 10]);
    expect(juryClass.cars).toBe(4);
  });
  afterAll(() => t?.close());

  it('lists a judge’s classes with the cars in walking order, and nothing to someone who judges nothing', async () => {
    const view = (await judgeA.client.get('/api/jury')).data as JuryJudgeView;
    expect(view.classes).toHaveLength(1);
    // The edition's zones in their order (A before B), then start number.
    expect(t.event.parkingZones.map((zone) => zone.name).slice(0, 2)).toEqual(['A', 'B']);
    expect(view.classes[0]!.cars).toEqual([car.two, car.three, car.four, car.one]);
    expect(view.cars.find((c) => c.startNumber === car.three)!.excluded).toBe('own');
    expect((await outsider.client.get('/api/jury')).status).toBe(403);
    expect((await t.client().get('/api/jury')).status).toBe(401);
    // The 'Jury' screens open for judges only.
    expect((await judgeA.client.get('/api/auth/user')).data.judge).toBe(true);
    expect((await outsider.client.get('/api/auth/user')).data.judge).toBe(false);
  });

  it('counts a scorecard entered offline and sent twice once, the value entered last winning', async () => {
    const offline = entries(car.one, [7, 5], at(-30));
    const deviceId = randomUUID();
    const first = await sync(judgeB, { entries: offline }, deviceId);
    expect(first.entries.map((e) => e.result)).toEqual(['taken', 'taken']);
    // The same entries again (the answer was lost): nothing changes, nothing is stored twice.
    const again = await sync(judgeB, { entries: offline }, deviceId);
    expect(again.entries.map((e) => e.result)).toEqual(['taken', 'taken']);
    expect(
      criteria.map((c) => again.scores.find((s) => s.startNumber === car.one && s.criterion === c.id)!.value),
    ).toEqual([7, 5]);
    const rows = await selectRows<{ n: string }>(
      t.orm.em.fork(),
      `select count(*) as n from jury_score s join users u on u.id = s.judge_id where u.email = ?`,
      [judgeB.email],
    );
    expect(Number(rows[0]!.n)).toBe(2);
    // A later change wins; an older entry arriving after it (another device) does not undo it.
    const later = entries(car.one, [9, 5], at(-10));
    await sync(judgeB, { entries: [later[0]] });
    const stale = await sync(judgeB, { entries: [entries(car.one, [2, 5], at(-20))[0]] });
    expect(
      stale.scores.find((s) => s.startNumber === car.one && s.criterion === criteria[0]!.id)!.value,
    ).toBe(9);
    // A device clock ahead of the server's counts as now: it cannot win against the next real entry.
    const future = await sync(judgeB, { entries: [entries(car.one, [1, 5], at(600))[0]] });
    expect(future.scores.find((s) => s.criterion === criteria[0]!.id)!.enteredAt).toBe(
      new Date(EVENT_DAY_NOON.getTime() + 2 * 60_000).toISOString(),
    );
    // From here on the clock stands half an hour later: entries up to then are in the past.
    clock.set(new Date(at(30)));
    await sync(judgeB, { entries: entries(car.one, [9, 5], at(25)) });
  });

  it('invites an address without an account by mail; only an account that confirmed it accepts', async () => {
    const address = uniqueEmail('eingeladen');
    const unknown = await admin.client.post(`/api/admin/jury/${year}/judges`, {
      email: address,
      classIds: [],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toBe(JURY_MESSAGES.judgeUnknownAccount);

    const invited = await admin.client.post(`/api/admin/jury/${year}/judges`, {
      email: address,
      classIds: [],
      invite: true,
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.data).toEqual({ result: 'invited', message: JURY_MESSAGES.judgeInvited });
    const mails = (await t.orm.em.fork().find(Outbox, { job: 'email.send' })).filter(
      (row) => row.payload.to === address,
    );
    expect(mails.map((row) => row.payload.template)).toEqual(['jury-invitation']);
    // The link's token is stored sealed only, the mail's text is the edition's.
    expect(JSON.stringify(mails[0]!.payload.props)).not.toContain('token');
    expect(mails[0]!.payload.editionId).toBe(t.event.edition.id);
    const { acceptUrl } = unseal<{ acceptUrl: string }>(
      t.config.sessionSecret,
      String(mails[0]!.payload.sealed),
    );
    const token = new URL(acceptUrl).searchParams.get('token')!;
    expect(new URL(acceptUrl).pathname).toBe('/jury/einladung');
    const audit = await t.orm.em
      .fork()
      .find(AuditLog, { action: 'jury.judge_add', details: { invited: true } });
    expect(audit).toHaveLength(1);
    expect(((await adminView()).invites ?? []).map((invite) => invite.email)).toContain(address);

    // Someone else's account, and the account of the address before it confirmed it: refused.
    expect((await outsider.client.post('/api/jury/accept', { token })).data.message).toBe(
      JURY_MESSAGES.inviteOtherAddress,
    );
    const invitee = await t.signIn('user', { email: address, firstName: 'Ines', lastName: 'Eingeladen' });
    await t.orm.em.fork().nativeUpdate(User, { id: invitee.id }, { emailVerified: false });
    expect((await invitee.client.post('/api/jury/accept', { token })).status).toBe(400);
    await t.orm.em.fork().nativeUpdate(User, { id: invitee.id }, { emailVerified: true });
    const accepted = await invitee.client.post('/api/jury/accept', { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.data.message).toBe(JURY_MESSAGES.inviteAccepted(t.event.edition.name));
    expect(((await invitee.client.get('/api/jury')).data as JuryJudgeView).classes).toEqual([]);
    // Used once: the invitation is gone.
    expect((await invitee.client.post('/api/jury/accept', { token })).status).toBe(400);
    expect(((await adminView()).invites ?? []).map((invite) => invite.email)).not.toContain(address);
  });

  it('takes two judges on one car, each seeing only their own values before closing', async () => {
    await sync(judgeA, { entries: entries(car.two, [6, 6]) });
    await sync(judgeB, { entries: entries(car.two, [8, 8]) });
    const a = (await judgeA.client.get('/api/jury')).data as JuryJudgeView;
    expect(a.scores.filter((s) => s.startNumber === car.two).map((s) => s.value)).toEqual([6, 6]);
    expect(a.scores.some((s) => s.value === 8)).toBe(false);
    const progress = (await head.client.get(`/api/jury/classes/${classId}`)).data as JuryClassProgress;
    expect(progress.missing.some((m) => m.startNumber === car.two && m.judgeName === 'Anton Auer')).toBe(
      false,
    );
    // Only the head judge and admins see a class's progress.
    expect((await judgeA.client.get(`/api/jury/classes/${classId}`)).status).toBe(403);
    expect((await outsider.client.get(`/api/jury/classes/${classId}`)).status).toBe(404);
  });

  it('never lets a judge score their own car or one they declared a bias towards', async () => {
    const own = await sync(judgeA, { entries: entries(car.three, [9, 9]) });
    expect(own.entries.map((e) => [e.result, e.message])).toEqual([
      ['refused', JURY_MESSAGES.ownCar],
      ['refused', JURY_MESSAGES.ownCar],
    ]);
    // Judge B scored car four, then declares a bias: the values go, later ones are refused.
    await sync(judgeB, { entries: entries(car.four, [4, 4]) });
    const declared = await sync(judgeB, {
      recusals: [{ id: randomUUID(), startNumber: car.four, enteredAt: at(5) }],
      entries: entries(car.four, [10, 10], at(6)),
    });
    expect(declared.recusals[0]!.result).toBe('taken');
    expect(declared.entries.every((e) => e.result === 'refused' && e.message === JURY_MESSAGES.biased)).toBe(
      true,
    );
    expect(declared.recusedStartNumbers).toEqual([car.four]);
    expect(declared.scores.some((s) => s.startNumber === car.four)).toBe(false);
    const view = await adminView();
    expect(view.recusals).toEqual([
      expect.objectContaining({ judgeName: 'Berta Brandt', startNumber: car.four, car: 'Grüner Gecko' }),
    ]);
    // No card is expected of them there.
    const missing = view.classes[0]!.missing;
    expect(missing.some((m) => m.judgeName === 'Berta Brandt' && m.startNumber === car.four)).toBe(false);
    expect(missing.some((m) => m.judgeName === 'Anton Auer' && m.startNumber === car.three)).toBe(false);
  });

  it('blocks closing while a score is missing, naming judge and car; an admin may close anyway with a reason', async () => {
    const blocked = await head.client.post(`/api/jury/classes/${classId}/close`, {});
    expect(blocked.status).toBe(409);
    const refusal = blocked.data as JuryCloseRefusal;
    expect(refusal.message).toContain(JURY_MESSAGES.missingScores(refusal.missing!.length));
    expect(refusal.missing).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ judgeName: 'Henrike Haupt', startNumber: car.one, car: 'Rote Göttin' }),
      ]),
    );
    // Neither a judge who does not lead the class, nor the head judge with a reason, forces it.
    expect((await judgeA.client.post(`/api/jury/classes/${classId}/close`, {})).status).toBe(403);
    const forcedByHead = await head.client.post(`/api/jury/classes/${classId}/close`, {
      forceReason: 'Die Zeit ist um, wir schließen.',
    });
    expect(forcedByHead.status).toBe(403);
    expect(
      (await admin.client.post(`/api/jury/classes/${classId}/close`, { forceReason: 'kurz' })).status,
    ).toBe(400);
  });

  it('ranks by the weighted means; a tie the heaviest criterion leaves open waits for the head judge’s order', async () => {
    // Means so far: car one (B: 9·3 + 5 = 32), car two (A: 24, B: 32). Head judge scores all four:
    // car one 8/8 → 32, car two 8/8 → 32; car four 2/2; A scores one and four.
    await sync(head, {
      entries: [
        ...entries(car.one, [8, 8]),
        ...entries(car.two, [8, 8]),
        ...entries(car.three, [1, 1]),
        ...entries(car.four, [2, 2]),
      ],
    });
    await sync(judgeA, { entries: [...entries(car.one, [8, 8]), ...entries(car.four, [3, 3])] });
    await sync(judgeB, { entries: entries(car.three, [1, 1]) });
    // car one: (32 + 32 + 32) / 3 = 32, umbau mean (9 + 8 + 8) / 3; car two: (24 + 32 + 32) / 3 < 32.
    // Make car two equal in both rules: A raises it to 8/8 (entered later).
    await sync(judgeA, { entries: entries(car.two, [8, 8], at(28)) });
    await sync(judgeB, { entries: entries(car.one, [8, 8], at(28)) });
    const tied = await head.client.post(`/api/jury/classes/${classId}/close`, {});
    expect(tied.status, tied.text).toBe(409);
    const refusal = tied.data as JuryCloseRefusal;
    expect(refusal.ties).toEqual([
      {
        place: 1,
        startNumbers: [car.one, car.two].sort((x, y) => x - y),
        cars: expect.arrayContaining([{ startNumber: car.one, name: 'Rote Göttin' }]),
      },
    ]);
    expect(refusal.message).toBe(
      JURY_MESSAGES.tieNeedsChoice(
        1,
        [car.one, car.two].sort((x, y) => x - y),
      ),
    );
    const closed = await head.client.post(`/api/jury/classes/${classId}/close`, {
      tieBreaks: [{ startNumbers: [car.two, car.one], reason: 'Der sauberere Motorraum beim Nachsehen' }],
    });
    expect(closed.status, closed.text).toBe(200);
    const result = (closed.data as JuryClassProgress).result!;
    expect(result.rows.map((r) => [r.startNumber, r.place, r.mean])).toEqual([
      [car.two, 1, 32],
      [car.one, 2, 32],
      [car.four, null, (8 + 12) / 2],
      [car.three, null, 4],
    ]);
    expect(result.tieBreaks).toEqual([
      { startNumbers: [car.two, car.one], reason: 'Der sauberere Motorraum beim Nachsehen' },
    ]);
    const audit = await t.orm.em.fork().find(AuditLog, { action: 'jury.close' });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.route).toBe('POST /api/jury/classes/:id/close');
    // Closed: values are refused, every judge of the class sees the ranking now.
    const late = await sync(judgeA, { entries: entries(car.one, [1, 1], at(30)) });
    expect(late.entries[0]!.message).toBe(JURY_MESSAGES.classClosed('Bester Umbau'));
    const view = (await judgeA.client.get('/api/jury')).data as JuryJudgeView;
    expect(view.classes[0]!.result![0]!.startNumber).toBe(car.two);
  });

  it('publishes: the results are public, on the car pages, and the certificates are queued', async () => {
    expect((await t.client().get(`/api/editions/${year}/results`)).status).toBe(404);
    expect((await head.client.post(`/api/admin/jury/${year}/publish`)).status).toBe(403);
    const published = await admin.client.post(`/api/admin/jury/${year}/publish`);
    expect(published.status, published.text).toBe(200);
    expect(published.data.publishedAt).not.toBeNull();
    const results = (await t.client().get(`/api/editions/${year}/results`)).data as JuryResults;
    expect(results.classes).toEqual([
      {
        id: classId,
        name: 'Bester Umbau',
        places: [
          expect.objectContaining({ place: 1, startNumber: car.two, hasPage: true }),
          expect.objectContaining({ place: 2, startNumber: car.one, hasPage: true }),
        ],
      },
    ]);
    const page = (await t.client().get(`/api/editions/${year}/vehicles/${car.two}`)).data;
    expect(page.juryPlaces).toEqual([{ place: 1, className: 'Bester Umbau', year }]);
    const jobs = await t.orm.em.fork().find(Outbox, { job: 'jury.certificates' });
    expect(jobs.map((job) => job.payload)).toEqual([{ editionId: t.event.edition.id, version: 1 }]);
    // Published: the classes no longer change.
    const edit = await admin.client.delete(`/api/admin/jury/${year}/classes/${classId}`);
    expect(edit.status).toBe(409);
  });

  it('copies the classes with the edition: name, scope, scorecard and places, no judges', async () => {
    const next = await createEdition(t.orm.em.fork(), { year: year + 1 });
    const view = (await admin.client.get(`/api/admin/jury/${next.year}`)).data as JuryAdminView;
    expect(view.classes).toEqual([
      expect.objectContaining({
        name: 'Bester Umbau',
        places: 2,
        criteria: criteria,
        judgeIds: [],
        headJudgeId: null,
        state: 'open',
        result: null,
      }),
    ]);
    expect(view.judges).toEqual([]);
  });

  it('keeps the past: after the deadline nothing is scored or changed but by an admin’s correction with a reason', async () => {
    const early = await admin.client.post(`/api/admin/jury/${year}/correction`, {
      classId,
      places: [car.one, car.two],
      reason: 'Rechenfehler in der Wertung',
    });
    expect(early.status, early.text).toBe(409);
    expect(early.data.message).toBe(JURY_MESSAGES.correctionOnlyPast);
    clock.set(new Date(t.event.end.getTime() + 25 * HOUR));
    try {
      const late = await sync(judgeA, { entries: entries(car.one, [1, 1], at(40)) });
      expect(late.entries[0]!.result).toBe('refused');
      const create = await admin.client.post(`/api/admin/jury/${year}/classes`, {
        name: 'Zu spät',
        criteria: [{ name: 'Lack', weight: 1 }],
        places: 1,
      });
      expect(create.status).toBe(409);
      expect(create.data.message).toBe(JURY_MESSAGES.frozen(t.event.edition.name));
      expect(
        (
          await head.client.post(`/api/admin/jury/${year}/correction`, {
            classId,
            places: [car.one],
            reason: 'Ich will das so haben',
          })
        ).status,
      ).toBe(403);
      const noReason = await admin.client.post(`/api/admin/jury/${year}/correction`, {
        classId,
        places: [car.one, car.two],
        reason: 'kurz',
      });
      expect(noReason.status).toBe(400);
      const corrected = await admin.client.post(`/api/admin/jury/${year}/correction`, {
        classId,
        places: [car.one, car.two],
        reason: 'Rechenfehler in der Wertung',
      });
      expect(corrected.status, corrected.text).toBe(200);
      const view = corrected.data as JuryAdminView;
      expect(view.frozen).toBe(true);
      expect(view.corrections).toEqual([
        expect.objectContaining({
          from: [car.two, car.one],
          to: [car.one, car.two],
          reason: 'Rechenfehler in der Wertung',
        }),
      ]);
      const results = (await t.client().get(`/api/editions/${year}/results`)).data as JuryResults;
      expect(results.classes[0]!.places.map((p) => p.startNumber)).toEqual([car.one, car.two]);
      const audit = await t.orm.em.fork().find(AuditLog, { action: 'jury.correct' });
      expect(audit).toHaveLength(1);
      expect(audit[0]!.details).toMatchObject({ reason: 'Rechenfehler in der Wertung' });
      const jobs = await t.orm.em
        .fork()
        .find(Outbox, { job: 'jury.certificates' }, { orderBy: { createdAt: 'asc' } });
      expect(jobs.map((job) => job.payload.version)).toEqual([1, 2]);
    } finally {
      clock.set(new Date(at(30)));
    }
  });
});
