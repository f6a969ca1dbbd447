import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AWARD_MESSAGES, CORRECTION_MESSAGES, EDITION_MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLYING_NOON,
  createTestContext,
  testClock,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';
import { insertVotableCar } from '../../testing/award.js';
import { lookBack } from '../editions/editions.js';
import { Award, AwardVoter } from '../model/award.entity.js';
import { AuditLog } from '../model/audit-log.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { AwardService, createAwardToken, runAwardMoments } from './award.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const HOUR = 3600_000;

let t: TestContext;
let admin: SignedIn;
let year: number;
let cars: number[];
let opens: Date;
let closes: Date;
let dayAfter: Date;
const clock = testClock(APPLYING_NOON);
const awardRow = () => t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  admin = await t.signIn('admin');
  const owner = await t.signIn('user');
  year = t.event.edition.year;
  cars = [await insertVotableCar(t, owner.id, 'Vorne'), await insertVotableCar(t, owner.id, 'Dahinter')];
  opens = new Date(t.event.start.getTime() - HOUR);
  closes = new Date(t.event.start.getTime() + 2 * HOUR);
  dayAfter = new Date(t.event.end.getTime() + 24 * HOUR);
});
afterAll(() => t?.close());

/** The command line on the test's database; its exit code and what it wrote. */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await run(tsx, ['--conditions=source', 'api/src/cli/cli.ts', ...args], {
      cwd: root,
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, NODE_ENV: 'test' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('the visitors award of an edition whose meeting is over', () => {
  it('refuses the admin routes and the command line with the frozen past; the scheduler closes it at its moment', async () => {
    const saved = await admin.client.patch(`/api/admin/award/${year}`, {
      opensAt: opens.toISOString(),
      closesAt: closes.toISOString(),
    });
    expect(saved.status).toBe(200);
    const service = new AwardService(t.orm.em, {
      secret: t.config.sessionSecret,
      publicUrl: t.config.publicUrl,
    });
    const voters: SignedIn[] = [];
    for (const car of [cars[0], cars[0], cars[1]]) {
      const voter = await t.signIn('user');
      voters.push(voter);
      await service.vote(
        year,
        { startNumber: car! },
        { account: { email: voter.email } },
        '198.51.100.30',
        new Date(opens.getTime() + 60_000),
        async () => {},
      );
    }

    clock.set(dayAfter);
    try {
      const frozen = EDITION_MESSAGES.frozenForStaff(t.event.edition.name);
      const answers = [
        await admin.client.patch(`/api/admin/award/${year}`, { opensAt: null, closesAt: null }),
        await admin.client.post(`/api/admin/award/${year}/open`, {}),
        await admin.client.post(`/api/admin/award/${year}/close`, {}),
      ];
      expect(answers.map((res) => [res.status, res.data.message])).toEqual([
        [409, frozen],
        [409, frozen],
        [409, frozen],
      ]);
      const [open, close] = await Promise.all([
        cli('award:open', String(year), '--as-of', dayAfter.toISOString()),
        cli('award:close', String(year), '--as-of', dayAfter.toISOString()),
      ]);
      expect(open).toEqual({ code: 1, out: expect.stringContaining(frozen) });
      expect(close).toEqual({ code: 1, out: expect.stringContaining(frozen) });
      // Nothing moved: no closing recorded, the moments as set.
      const untouched = await awardRow();
      expect(untouched.closedAt).toBeNull();
      expect(untouched.closesAt?.toISOString()).toBe(closes.toISOString());

      // A deletion after the meeting records the due closing first, with the deleted address's vote.
      const gone = await t.orm.em.fork().findOneOrFail(AwardVoter, { confirmedVia: 'account' });
      const token = createAwardToken(t.config.sessionSecret, gone.id, 'votes');
      expect(await service.deleteByLink(token, dayAfter)).toBe(true);
      const closed = await awardRow();
      expect(closed.closedAt?.toISOString()).toBe(closes.toISOString());
      expect(closed.results?.map(({ startNumber, votes, rank }) => ({ startNumber, votes, rank }))).toEqual([
        { startNumber: cars[0], votes: 2, rank: 1 },
        { startNumber: cars[1], votes: 1, rank: 2 },
      ]);
      expect(await runAwardMoments(t.orm.em, dayAfter)).toEqual({ opened: [], closed: [] });
    } finally {
      clock.set(APPLYING_NOON);
    }
  });

  it("an admin corrects the past award's totals with a reason: audit row, look-back line, certificates anew", async () => {
    clock.set(dayAfter);
    try {
      const path = `/api/admin/award/${year}/correction`;
      const short = await admin.client.post(path, { startNumber: cars[1], votes: 3, reason: 'Zettel' });
      expect(short.status).toBe(400);
      expect(short.data.message).toBe(CORRECTION_MESSAGES.reason);
      const unknown = await admin.client.post(path, {
        startNumber: 9999,
        votes: 3,
        reason: 'Drei Stimmen auf Papier am Stand',
      });
      expect(unknown.status).toBe(404);
      expect(unknown.data.message).toBe(AWARD_MESSAGES.correctionUnknownCar);
      const same = await admin.client.post(path, {
        startNumber: cars[1],
        votes: 1,
        reason: 'Drei Stimmen auf Papier am Stand',
      });
      expect(same.status).toBe(400);
      expect(same.data.message).toBe(AWARD_MESSAGES.correctionNothing);
      expect(await t.orm.em.fork().count(AuditLog, { action: 'award.correct' })).toBe(0);
      const before = await awardRow();
      const firstKey = `exports/award/${t.event.edition.id}/${before.results![0]!.vehicleId}.pdf`;
      const secondKey = `exports/award/${t.event.edition.id}/${before.results![1]!.vehicleId}.pdf`;
      await t.orm.em.fork().nativeUpdate(
        Award,
        { edition: t.event.edition.id },
        {
          certificates: {
            [before.results![0]!.vehicleId]: firstKey,
            [before.results![1]!.vehicleId]: secondKey,
          },
        },
      );
      const jobs = await t.orm.em.fork().count(Outbox, { job: 'award.certificates' });

      const reason = 'Drei Stimmen auf Papier am Stand abgegeben';
      const done = await admin.client.post(path, { startNumber: cars[1], votes: 3, reason });
      expect(done.status).toBe(200);
      expect(done.data.message).toBe(AWARD_MESSAGES.corrected);
      const corrected = await awardRow();
      expect(
        corrected.results?.map(({ startNumber, votes, rank }) => ({ startNumber, votes, rank })),
      ).toEqual([
        { startNumber: cars[1], votes: 3, rank: 1 },
        { startNumber: cars[0], votes: 2, rank: 2 },
      ]);
      expect(corrected.corrections).toEqual([
        { at: dayAfter.toISOString(), startNumber: cars[1], from: 1, to: 3, reason },
      ]);
      const audit = await t.orm.em.fork().findOneOrFail(AuditLog, { action: 'award.correct' });
      expect(audit).toMatchObject({
        actorId: admin.id,
        target: String(year),
        route: 'POST /api/admin/award/:year/correction',
        details: { startNumber: cars[1], votes: { from: 1, to: 3 } },
      });
      expect(JSON.stringify(audit.details)).not.toContain(reason);
      const look = await lookBack(t.orm.em.fork(), year, dayAfter);
      expect(look.award?.corrections).toEqual([
        { at: dayAfter.toISOString(), startNumber: cars[1], from: 1, to: 3 },
      ]);
      expect(look.award?.winners.map(({ startNumber, rank }) => [startNumber, rank])).toEqual([
        [cars[1], 1],
        [cars[0], 2],
      ]);
      expect(await t.orm.em.fork().count(Outbox, { job: 'award.certificates' })).toBe(jobs + 1);

      // Taken out of the result: its certificate goes.
      const out = await admin.client.post(path, { startNumber: cars[0], votes: 0, reason });
      expect(out.status).toBe(200);
      const after = await awardRow();
      expect(after.results?.map(({ startNumber, rank }) => [startNumber, rank])).toEqual([[cars[1], 1]]);
      expect(Object.values(after.certificates ?? {})).toEqual([secondKey]);
      const deletions = await t.orm.em.fork().find(Outbox, { job: 'storage.delete' });
      expect(deletions.flatMap((row) => row.payload.keys as string[])).toContain(firstKey);
    } finally {
      clock.set(APPLYING_NOON);
    }
  });
});
