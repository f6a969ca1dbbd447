import { randomBytes, randomUUID } from 'node:crypto';
import { CONSENTS, DEFAULT_RETENTION } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  insertVotableCar,
  judgeTestEdition,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { collectAccountData, requestDataExport } from '../accounts/data-export.js';
import {
  Jury,
  JuryClass,
  JuryClassJudge,
  JuryInvite,
  JuryJudge,
  JuryRecusal,
  JuryScore,
} from '../model/jury.entity.js';
import { Consent } from '../model/consent.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { User } from '../model/user.entity.js';
import { runRetention } from '../privacy/retention.js';
import { juryCertificatesKey } from '../storage/objects.js';
import { closeJuryClass, juryResultsOf, publishJuryResults } from './jury-results.js';
import { syncJudge } from './jury-scoring.js';
import type { JuryExport } from './jury-privacy.js';

const DAY = 24 * 3600_000;
let t: TestContext;
let admin: SignedIn;
let owner: SignedIn;
let otherOwner: SignedIn;
let lead: SignedIn;
let judge: SignedIn;
let classId: string;
/** Morgenrot and Abendrot (the owner's), Nachtblau and Graue Maus (the other's). */
const cars: number[] = [];
let during: Date;

const em = () => t.orm.em.fork();
const invite = (email: string, createdAt: Date) =>
  em().insert(JuryInvite, {
    id: randomUUID(),
    edition: t.event.edition.id,
    email,
    tokenHash: randomBytes(32).toString('hex'),
    classIds: [classId],
    createdAt,
  });

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  during = new Date(t.event.start.getTime() + 2 * 3600_000);
  admin = await t.signIn('admin');
  owner = await t.signIn('user');
  otherOwner = await t.signIn('user');
  lead = await t.signIn('user', { firstName: 'Lea', lastName: 'Leitung' });
  judge = await t.signIn('user', { firstName: 'Jan', lastName: 'Jury' });
  cars.push(await insertVotableCar(t, owner.id, 'Morgenrot'));
  cars.push(await insertVotableCar(t, owner.id, 'Abendrot'));
  cars.push(await insertVotableCar(t, otherOwner.id, 'Nachtblau'));
  cars.push(await insertVotableCar(t, otherOwner.id, 'Graue Maus'));
  const order = [cars[0], cars[1], cars[3], cars[2]];
  [classId] = (await judgeTestEdition(t, {
    judgeIds: [lead.id, judge.id],
    adminId: admin.id,
    classes: [{ name: 'Best of Show', places: 2 }],
    value: ({ startNumber }) => 9 - 2 * order.indexOf(startNumber),
    at: during,
    close: false,
  })) as [string];
  // 'Befangen' towards Nachtblau: that judge's values of it go, and it scores it no more.
  const declared = await syncJudge(
    t.orm.em,
    judge.id,
    {
      deviceId: randomUUID(),
      entries: [],
      recusals: [{ id: randomUUID(), startNumber: cars[2]!, enteredAt: during.toISOString() }],
    },
    during,
  );
  expect(declared.recusals.map((row) => row.result)).toEqual(['taken']);
  await closeJuryClass(t.orm.em, classId, { id: admin.id, role: 'admin' }, { tieBreaks: [] }, during);
  await publishJuryResults(t.orm.em, t.event.edition.year, admin.id, during);
  // The worker rendered the certificates of version 1.
  await em().nativeUpdate(
    Jury,
    { edition: t.event.edition.id },
    { certificatesKey: juryCertificatesKey(t.event.edition.id, 1) },
  );
});
afterAll(() => t?.close());

describe('the jury and personal data', () => {
  it("a judge's data export holds their editions, classes, own values, bias declarations and invitations to their address", async () => {
    const tagged = judge.email.replace('@', '+jury@');
    await invite(tagged, new Date(t.event.end.getTime() - DAY));
    await invite(`fremd-${randomUUID()}@example.de`, new Date(t.event.end.getTime() - DAY));
    const user = await em().findOneOrFail(User, judge.id);
    const row = await requestDataExport(em(), user);
    const data = await collectAccountData(t.orm.em, row.id);
    const jury = data!.documents['jury.json'] as JuryExport;
    expect(jury.judged).toHaveLength(1);
    const [edition] = jury.judged;
    expect(edition).toMatchObject({
      edition: t.event.edition.name,
      year: t.event.edition.year,
      judgeSince: expect.any(Date),
      classes: [{ name: 'Best of Show', headJudge: false }],
      biasDeclarations: [{ startNumber: cars[2], car: 'Nachtblau', declaredAt: during }],
    });
    // Four criteria for each car they scored; none of the car they declared a bias towards.
    expect(edition!.scores).toHaveLength(12);
    expect(new Set(edition!.scores.map((s) => s.car))).toEqual(
      new Set(['Morgenrot', 'Abendrot', 'Graue Maus']),
    );
    expect(edition!.scores).toContainEqual({
      class: 'Best of Show',
      startNumber: cars[0],
      car: 'Morgenrot',
      criterion: 'Qualität des Umbaus',
      value: 9,
      enteredAt: during,
    });
    expect(jury.invitations).toEqual([
      { edition: t.event.edition.name, email: tagged, invitedAt: expect.any(Date) },
    ]);

    // The head judge's export names the class they lead; an owner's holds nothing of the jury.
    const leadData = await collectAccountData(
      t.orm.em,
      (await requestDataExport(em(), await em().findOneOrFail(User, lead.id))).id,
    );
    expect((leadData!.documents['jury.json'] as JuryExport).judged[0]!.classes).toEqual([
      { name: 'Best of Show', headJudge: true },
    ]);
    const ownerData = await collectAccountData(
      t.orm.em,
      (await requestDataExport(em(), await em().findOneOrFail(User, owner.id))).id,
    );
    expect(ownerData!.documents['jury.json']).toEqual({ judged: [], invitations: [] });
  });

  it("withdrawing a placed car's media consent draws the certificates anew (without its photo)", async () => {
    const fork = em();
    const invitation = await fork.findOneOrFail(Invitation, {
      edition: t.event.edition.id,
      startNumber: cars[0],
    });
    const consent = fork.create(Consent, {
      user: fork.getReference(User, owner.id),
      vehicle: invitation.vehicle,
      kind: 'media',
      version: CONSENTS.media.version,
      wording: CONSENTS.media.text,
      source: 'application',
      grantedAt: new Date(t.event.start.getTime() - 30 * DAY),
    });
    await fork.flush();
    const before = await em().count(Outbox, { job: 'jury.certificates' });
    const withdrawn = await owner.client.post(`/api/account/consents/${consent.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    const jobs = await em().find(Outbox, { job: 'jury.certificates' }, { orderBy: { createdAt: 'asc' } });
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)!.payload).toEqual({ editionId: t.event.edition.id, version: 1 });
    // A car without a place changes no certificate.
    const unplaced = await fork.findOneOrFail(Invitation, {
      edition: t.event.edition.id,
      startNumber: cars[3],
    });
    const other = fork.create(Consent, {
      user: fork.getReference(User, otherOwner.id),
      vehicle: unplaced.vehicle,
      kind: 'media',
      version: CONSENTS.media.version,
      wording: CONSENTS.media.text,
      source: 'application',
      grantedAt: new Date(t.event.start.getTime() - 30 * DAY),
    });
    await fork.flush();
    expect((await otherOwner.client.post(`/api/account/consents/${other.id}/withdraw`, {})).status).toBe(200);
    expect(await em().count(Outbox, { job: 'jury.certificates' })).toBe(before + 1);
  });

  it("an owner's deletion takes the cars' names out of the record (the places stay) and redraws the certificates; a judge's takes their values and invitations", async () => {
    const before = await em().count(Outbox, { job: 'jury.certificates' });
    await deleteAccount(t.orm.em, owner.id, during);
    const record = (await em().findOneOrFail(JuryClass, classId)).record!;
    expect(
      record.rows.map(({ startNumber, vehicleId, name, place }) => ({ startNumber, vehicleId, name, place })),
    ).toEqual([
      { startNumber: cars[0], vehicleId: '', name: `Startnummer ${cars[0]}`, place: 1 },
      { startNumber: cars[1], vehicleId: '', name: `Startnummer ${cars[1]}`, place: 2 },
      expect.objectContaining({ startNumber: cars[3], name: 'Graue Maus', place: null }),
      expect.objectContaining({ startNumber: cars[2], name: 'Nachtblau', place: null }),
    ]);
    const redraws = await em().find(Outbox, { job: 'jury.certificates' });
    expect(redraws).toHaveLength(before + 1);
    expect(redraws.map((row) => row.payload)).toContainEqual({ editionId: t.event.edition.id, version: 1 });
    // The public places leave out the deleted cars.
    expect((await juryResultsOf(em(), t.event.edition.year))!.classes[0]!.places).toEqual([]);

    await invite(lead.email.replace('@', '+leitung@'), new Date(t.event.end.getTime() - DAY));
    const invitesBefore = await em().count(JuryInvite, {});
    const recordBefore = (await em().findOneOrFail(JuryClass, classId)).record;
    await deleteAccount(t.orm.em, lead.id, during);
    expect(await em().count(JuryJudge, { user: lead.id })).toBe(0);
    expect(await em().count(JuryClassJudge, { user: lead.id })).toBe(0);
    expect(await em().count(JuryScore, { judge: lead.id })).toBe(0);
    expect(await em().count(JuryInvite, {})).toBe(invitesBefore - 1);
    const juryClass = await em().findOneOrFail(JuryClass, classId);
    expect(juryClass.headJudge).toBeNull();
    expect(juryClass.record).toEqual(recordBefore);
  });

  it('retention removes the values and bias declarations of an edition after its period, published or not, and invitations after days', async () => {
    const at = (days: number) => new Date(t.event.end.getTime() + days * DAY);
    const run = (days: number) => runRetention(t.orm.em, { asOf: at(days), periods: DEFAULT_RETENTION });
    const period = DEFAULT_RETENTION.juryScoresAfterEvent;
    // Left: the judge's values of Graue Maus and their bias declaration.
    expect(await em().count(JuryScore, {})).toBe(4);
    expect(await em().count(JuryRecusal, {})).toBe(1);

    const early = await run(period - 1);
    expect(early).toMatchObject({ juryScoresAfterEvent: 0, juryInvites: 2 });
    expect(await em().count(JuryInvite, {})).toBe(0);

    // Results never published do not keep them: after the jury's deadline nothing ranks from them.
    await em().nativeUpdate(Jury, { edition: t.event.edition.id }, { publishedAt: null });

    const due = await run(period + 1);
    expect(due).toMatchObject({ juryScoresAfterEvent: 5, juryInvites: 0 });
    expect(await em().count(JuryScore, {})).toBe(0);
    expect(await em().count(JuryRecusal, {})).toBe(0);
    // The results stay, naming no judge (published again here to read them).
    await em().nativeUpdate(Jury, { edition: t.event.edition.id }, { publishedAt: during });
    expect((await em().findOneOrFail(JuryClass, classId)).record!.rows).toHaveLength(4);
    expect(await juryResultsOf(em(), t.event.edition.year)).not.toBeNull();
    expect((await run(period + 1)).juryScoresAfterEvent).toBe(0);
  });
});
