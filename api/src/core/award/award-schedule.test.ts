import { mailboxOf } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type SignedIn, type TestContext } from '../../testing/index.js';
import { insertVotableCar } from '../../testing/award.js';
import { Award, AwardVoter } from '../model/award.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { runDueWork } from '../scheduler.js';
import { AwardService, awardStateAt, createAwardToken, runAwardMoments } from './award.js';
import { awardAdminView } from './award-admin.js';

let t: TestContext;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await t.signIn('admin');
});
afterAll(() => t?.close());

const HOUR = 3600_000;
const awardRow = () => t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });

describe('the visitors award at its set moments', () => {
  it('opens and closes at the moments the admin set, each once', async () => {
    const year = t.event.edition.year;
    const owner = await t.signIn('user');
    await insertVotableCar(t, owner.id, 'Zeitgesteuert');
    const start = t.event.start;
    const opensAt = new Date(start.getTime() - 2 * HOUR);
    const closesAt = new Date(start.getTime() + 4 * HOUR);
    const saved = await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: opensAt.toISOString(),
      closesAt: closesAt.toISOString(),
    });
    expect(saved.status).toBe(200);
    const inverted = await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: closesAt.toISOString(),
      closesAt: opensAt.toISOString(),
    });
    expect(inverted.status).toBe(409);

    expect(await runAwardMoments(t.orm.em, new Date(opensAt.getTime() - 1000))).toEqual({
      opened: [],
      closed: [],
    });
    expect(await runAwardMoments(t.orm.em, opensAt)).toEqual({ opened: [year], closed: [] });
    expect(await runAwardMoments(t.orm.em, new Date(opensAt.getTime() + HOUR))).toEqual({
      opened: [],
      closed: [],
    });
    expect((await awardRow()).openedAt?.toISOString()).toBe(opensAt.toISOString());

    const schedule = {
      retention: t.config.retention,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
    };
    const report = await runDueWork(t.orm.em, schedule, closesAt);
    expect(report.award).toEqual({ opened: [], closed: [year] });
    expect((await runDueWork(t.orm.em, schedule, closesAt)).award).toEqual({ opened: [], closed: [] });
    const award = await awardRow();
    expect(award.closedAt?.toISOString()).toBe(closesAt.toISOString());
    expect(award.results).toEqual([]);
    // Nobody voted: no certificates to render.
    expect(await t.orm.em.fork().count(Outbox, { job: 'award.certificates' })).toBe(0);
    // Closed is closed: opening again is refused.
    expect((await admin.client.post(`/api/admin/award/${year}/open`)).status).toBe(409);
  });
});

describe('the visitors award at the end of its meeting', () => {
  let u: TestContext;
  beforeAll(async () => {
    u = await createTestContext({ relay: false });
  });
  afterAll(() => u?.close());

  it('closes open voting when the meeting ends, without a set moment', async () => {
    const admin = await u.signIn('admin');
    const year = u.event.edition.year;
    expect((await admin.client.post(`/api/admin/award/${year}/open`)).status).toBe(200);
    const end = u.event.end;
    expect(await runAwardMoments(u.orm.em, new Date(end.getTime() - 1000))).toEqual({
      opened: [],
      closed: [],
    });
    expect(await runAwardMoments(u.orm.em, end)).toEqual({ opened: [], closed: [year] });
    const award = await u.orm.em.fork().findOneOrFail(Award, { edition: u.event.edition.id });
    expect(award.closedAt?.toISOString()).toBe(end.toISOString());
  });
});

describe('the visitors award between two ticks', () => {
  const edition = { endsAt: new Date('2026-06-20T18:00:00Z') };
  const opensAt = new Date('2026-06-20T08:00:00Z');
  const closesAt = new Date('2026-06-20T16:00:00Z');
  const set = { openedAt: null, closedAt: null, opensAt, closesAt };

  it('opens and closes at the set moments to the second, before any tick records them', () => {
    expect(awardStateAt(set, edition, new Date(opensAt.getTime() - 1))).toBe('not_open');
    expect(awardStateAt(set, edition, opensAt)).toBe('open');
    expect(awardStateAt(set, edition, new Date(closesAt.getTime() - 1))).toBe('open');
    expect(awardStateAt(set, edition, closesAt)).toBe('closed');
    expect(awardStateAt({ ...set, closesAt: null }, edition, edition.endsAt)).toBe('closed');
    // A set opening after the meeting never opens it.
    const late = { ...set, opensAt: new Date('2026-06-21T08:00:00Z'), closesAt: null };
    expect(awardStateAt(late, edition, new Date('2026-06-21T09:00:00Z'))).toBe('not_open');
  });

  let w: TestContext;
  beforeAll(async () => {
    w = await createTestContext({ relay: false });
  });
  afterAll(() => w?.close());

  it('records the opening and closing at their moments, not at the tick that saw them', async () => {
    const admin = await w.signIn('admin');
    const year = w.event.edition.year;
    const opens = new Date(w.event.start.getTime() - HOUR);
    const closes = new Date(w.event.start.getTime() + 2 * HOUR);
    await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: opens.toISOString(),
      closesAt: closes.toISOString(),
    });
    const row = () => w.orm.em.fork().findOneOrFail(Award, { edition: w.event.edition.id });
    // Before any tick the admin sees it open since its moment, and closed at its closing.
    expect(await awardAdminView(w.orm.em.fork(), year, new Date(opens.getTime() + 60_000))).toMatchObject({
      state: 'open',
      openedAt: opens.toISOString(),
      closedAt: null,
    });
    expect(await awardAdminView(w.orm.em.fork(), year, new Date(closes.getTime() + 60_000))).toMatchObject({
      state: 'closed',
      openedAt: opens.toISOString(),
      closedAt: closes.toISOString(),
    });
    expect(await runAwardMoments(w.orm.em, new Date(opens.getTime() + 7 * 60_000))).toEqual({
      opened: [year],
      closed: [],
    });
    expect((await row()).openedAt?.toISOString()).toBe(opens.toISOString());
    expect(await runAwardMoments(w.orm.em, new Date(closes.getTime() + 9 * 60_000))).toEqual({
      opened: [],
      closed: [year],
    });
    expect((await row()).closedAt?.toISOString()).toBe(closes.toISOString());
  });
});

describe('the visitors award closed at its set moment, before the tick', () => {
  let z: TestContext;
  beforeAll(async () => {
    z = await createTestContext({ relay: false });
  });
  afterAll(() => z?.close());

  it('writes the final totals before a deleted address takes its vote out', async () => {
    const admin = await z.signIn('admin');
    const owner = await z.signIn('user');
    const year = z.event.edition.year;
    const car = await insertVotableCar(z, owner.id, 'Knapp');
    const opens = new Date(z.event.start.getTime() - HOUR);
    const closes = new Date(z.event.start.getTime() + HOUR);
    await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: opens.toISOString(),
      closesAt: closes.toISOString(),
    });
    const service = new AwardService(z.orm.em, {
      secret: z.config.sessionSecret,
      publicUrl: z.config.publicUrl,
    });
    const fan = await z.signIn('user');
    await service.vote(
      year,
      { startNumber: car },
      { account: { email: fan.email } },
      '198.51.100.9',
      new Date(opens.getTime() + 60_000),
      async () => {},
    );
    const voter = await z.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: mailboxOf(fan.email) });

    // Closed at its moment, no tick yet: the link's deletion records the closing first.
    const token = createAwardToken(z.config.sessionSecret, voter.id, 'votes');
    expect(await service.deleteByLink(token, new Date(closes.getTime() + 60_000))).toBe(true);
    const award = await z.orm.em.fork().findOneOrFail(Award, { edition: z.event.edition.id });
    expect(award.closedAt?.toISOString()).toBe(closes.toISOString());
    expect(award.results).toEqual([expect.objectContaining({ startNumber: car, votes: 1, rank: 1 })]);
    expect(await z.orm.em.fork().count(AwardVoter, { id: voter.id })).toBe(0);
  });
});
