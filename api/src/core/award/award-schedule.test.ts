import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type SignedIn, type TestContext } from '../../testing/index.js';
import { insertVotableCar } from '../../testing/award.js';
import { Award } from '../model/award.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { runDueWork } from '../scheduler.js';
import { runAwardMoments } from './award.js';

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
