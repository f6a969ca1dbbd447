import { AWARD_DELETED_CAR, DEFAULT_RETENTION, mailboxOf } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, uniqueEmail, type TestContext } from '../../testing/index.js';
import { insertVotableCar, openVotingForTest } from '../../testing/award.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { Award, AwardVote, AwardVoter } from '../model/award.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { runRetention } from '../privacy/retention.js';
import { AwardService, runAwardMoments, votesOfAddress } from './award.js';

const DAY = 24 * 3600_000;
let t: TestContext;
let service: AwardService;
let year: number;
let car: number;
let openedAt: Date;
let ownerId: string;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  service = new AwardService(t.orm.em, { secret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
  year = t.event.edition.year;
  ownerId = (await t.signIn('user')).id;
  car = await insertVotableCar(t, ownerId, 'Datensparsam');
  openedAt = new Date(t.event.start.getTime() - DAY);
  await openVotingForTest(t, openedAt);
});
afterAll(() => t?.close());

const counted = async () =>
  (await t.orm.em.fork().find(AwardVote, { edition: t.event.edition.id }, { populate: ['voter'] })).filter(
    (vote) => vote.voter.confirmedAt && vote.browser === '',
  ).length;

describe('the visitors award and personal data', () => {
  it("an account's export holds the votes of its mailbox and its deletion takes them out of the count", async () => {
    const voter = await t.signIn('user');
    const at = new Date(openedAt.getTime() + 3600_000);
    // A vote typed in with a tagged spelling of the account's address waits in a browser: the same mailbox.
    await service.vote(
      year,
      { startNumber: car, email: voter.email.replace('@', '+publikum@') },
      { browser: 'c'.repeat(64) },
      '198.51.100.1',
      at,
      async () => {},
    );
    await service.vote(
      year,
      { startNumber: car },
      { account: { email: voter.email } },
      '198.51.100.1',
      at,
      async () => {},
    );
    const before = await counted();
    const exported = await votesOfAddress(t.orm.em.fork(), voter.email);
    expect(exported).toEqual([
      expect.objectContaining({
        email: mailboxOf(voter.email),
        edition: year,
        confirmedVia: 'account',
        votes: expect.arrayContaining([
          expect.objectContaining({ startNumber: car, car: 'Datensparsam', counted: true }),
          expect.objectContaining({ startNumber: car, counted: false }),
        ]),
      }),
    ]);
    await deleteAccount(t.orm.em, voter.id, at);
    expect(await t.orm.em.fork().count(AwardVoter, { mailbox: mailboxOf(voter.email) })).toBe(0);
    expect(await counted()).toBe(before - 1);
  });

  it('retention removes unconfirmed addresses after days, the rest after the edition; the final totals stay', async () => {
    const at = new Date(openedAt.getTime() + 2 * 3600_000);
    const pending = uniqueEmail('offen');
    await service.vote(
      year,
      { startNumber: car, email: pending },
      { browser: 'a'.repeat(64) },
      '198.51.100.2',
      at,
      async () => {},
    );
    const fan = await t.signIn('user');
    await service.vote(
      year,
      { startNumber: car },
      { account: { email: fan.email } },
      '198.51.100.3',
      at,
      async () => {},
    );

    const periods = DEFAULT_RETENTION;
    const early = await runRetention(t.orm.em, { asOf: new Date(at.getTime() + 2 * DAY), periods });
    expect(early).toMatchObject({ unconfirmedAwardVoters: 0, awardVotersAfterEvent: 0 });
    const week = await runRetention(t.orm.em, {
      asOf: new Date(at.getTime() + (periods.unconfirmedAwardVoters + 1) * DAY),
      periods,
    });
    expect(week.unconfirmedAwardVoters).toBe(1);
    expect(await t.orm.em.fork().count(AwardVoter, { mailbox: pending })).toBe(0);

    // The meeting's end closes the voting (the scheduler's).
    await runAwardMoments(t.orm.em, t.event.end);
    const award = await t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });
    expect(award.results).toEqual([expect.objectContaining({ startNumber: car, votes: 1, rank: 1 })]);
    const after = await runRetention(t.orm.em, {
      asOf: new Date(t.event.end.getTime() + (periods.awardVotersAfterEvent + 1) * DAY),
      periods,
    });
    expect(after.awardVotersAfterEvent).toBe(1);
    expect(await t.orm.em.fork().count(AwardVoter, { edition: t.event.edition.id })).toBe(0);
    expect(await t.orm.em.fork().count(AwardVote, { edition: t.event.edition.id })).toBe(0);
    const kept = await t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });
    expect(kept.results).toEqual(award.results);
  });

  it("a deleted owner's car keeps its votes and rank in the final totals, without its name and certificate", async () => {
    const em = t.orm.em.fork();
    const award = await em.findOneOrFail(Award, { edition: t.event.edition.id });
    const vehicleId = award.results![0]!.vehicleId;
    const key = `exports/award/${t.event.edition.id}/${vehicleId}.pdf`;
    award.certificates = { [vehicleId]: key };
    await em.flush();
    await deleteAccount(t.orm.em, ownerId);
    const after = await t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });
    expect(after.results).toEqual([{ ...award.results![0]!, name: AWARD_DELETED_CAR }]);
    expect(after.certificates).toEqual({});
    const deletions = await t.orm.em.fork().find(Outbox, { job: 'storage.delete' });
    expect(deletions.flatMap((row) => row.payload.keys as string[])).toContain(key);
  });
});
