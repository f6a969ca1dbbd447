/**
 * The demo jury of `npm run seed`. From the meeting day on, the seeded judges judge the classes of
 * SEED_JURY_CLASSES (default scorecard, the first judge leads); once the meeting is over they have
 * scored every car that came, in the order the classes' favourites give, the classes are closed
 * (a class with a car that did not come by an admin, with the reason) and the results published.
 * Every moment handed to the jury lies inside the meeting, whenever the seed runs. Run again, it
 * replaces its classes and their publication (the seeded cars are new ones each time).
 */
import { randomUUID } from 'node:crypto';
import { JURY_DEFAULT_CRITERIA, meetingDayStartsAt, type JuryEntryInput } from '@schlosstreffen/shared';
import type { Orm } from '../../core/db/orm.js';
import { DomainError } from '../../core/errors.js';
import { createJuryClass, makeJudge } from '../../core/jury/jury-admin.js';
import { closeJuryClass, publishJuryResults } from '../../core/jury/jury-results.js';
import { judgeView, syncJudge } from '../../core/jury/jury-scoring.js';
import type { Edition } from '../../core/model/edition.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { Jury, JuryClass } from '../../core/model/jury.entity.js';
import { enqueue } from '../../core/outbox/outbox.js';
import { SEED_JURY_CLASSES } from './data.js';

const MINUTE = 60_000;

export type SeedJuryResult =
  | { state: 'none' }
  | { state: 'classes'; classes: string[] }
  | { state: 'published'; classes: string[]; forced: string[] }
  | { state: 'failed'; message: string };

/** Each judge's offset from a car's value, per criterion: the judges differ, their mean does not. */
const SPREAD = [1, 0, -1] as const;

/** A criterion's value: the class's favourite gets the most, the judges' spread around it. */
export function seedJuryValue(position: number, judgeIndex: number, criterionIndex: number): number {
  const spread = SPREAD[(judgeIndex + criterionIndex) % SPREAD.length]!;
  return Math.min(10, Math.max(0, 9 - position + spread));
}

/** The seed's earlier classes go (their values and judges with them) and the results are unpublished. */
async function resetDemoJury(orm: Orm, edition: Edition): Promise<void> {
  await orm.em.fork().transactional(async (tx) => {
    await tx.nativeDelete(JuryClass, {
      edition: edition.id,
      name: { $in: SEED_JURY_CLASSES.map((c) => c.name) },
    });
    const jury = await tx.findOne(Jury, { edition: edition.id });
    if (!jury) return;
    // The version stays: the next publication's certificates get a key of their own.
    if (jury.certificatesKey) enqueue(tx, 'storage.delete', { keys: [jury.certificatesKey] });
    jury.publishedAt = null;
    jury.publishedBy = null;
    jury.corrections = null;
    jury.certificatesKey = null;
  });
}

export async function seedJury(
  orm: Orm,
  edition: Edition,
  now: Date,
  accounts: { adminId: string; judgeIds: string[] },
): Promise<SeedJuryResult> {
  try {
    await resetDemoJury(orm, edition);
    const dayStarts = meetingDayStartsAt(edition.startsAt);
    if (now < dayStarts) return { state: 'none' };
    const { judgeIds, adminId } = accounts;
    for (const judgeId of judgeIds) await makeJudge(orm.em.fork(), edition, judgeId);
    const classIds: string[] = [];
    for (const seedClass of SEED_JURY_CLASSES) {
      classIds.push(
        await createJuryClass(
          orm.em,
          edition.year,
          {
            name: seedClass.name,
            scope: { zones: [], categories: [], yearFrom: null, yearTo: seedClass.yearTo ?? null },
            criteria: JURY_DEFAULT_CRITERIA.map((criterion) => ({ ...criterion })),
            places: seedClass.places,
            judgeIds,
            headJudgeId: judgeIds[0] ?? null,
          },
          dayStarts,
        ),
      );
    }
    const names = SEED_JURY_CLASSES.map((c) => c.name);
    if (now < edition.endsAt) return { state: 'classes', classes: names };

    // The cars that came; a car that did not is scored by nobody.
    const came = new Set(
      (await orm.em.fork().find(Invitation, { edition: edition.id, checkedIn: true })).map(
        (i) => i.startNumber,
      ),
    );
    const notScored = new Map<string, number[]>();
    for (const [judgeIndex, judgeId] of judgeIds.entries()) {
      const at = new Date(edition.startsAt.getTime() + (60 + 25 * judgeIndex) * MINUTE);
      const view = await judgeView(orm.em.fork(), judgeId, at);
      const entries: JuryEntryInput[] = [];
      for (const juryClass of view.classes) {
        const seedClass = SEED_JURY_CLASSES.find((c) => c.name === juryClass.name)!;
        const cars = juryClass.cars
          .map((startNumber) => view.cars.find((car) => car.startNumber === startNumber)!)
          .filter((car) => !car.excluded);
        notScored.set(
          juryClass.id,
          cars.filter((car) => !came.has(car.startNumber)).map((car) => car.startNumber),
        );
        const rank = (title: string) => {
          const index = seedClass.favourites.indexOf(title);
          return index < 0 ? seedClass.favourites.length : index;
        };
        const order = cars
          .filter((car) => came.has(car.startNumber))
          .sort((a, b) => rank(a.title) - rank(b.title) || a.startNumber - b.startNumber);
        for (const [position, car] of order.entries())
          for (const [criterionIndex, criterion] of juryClass.criteria.entries())
            entries.push({
              id: randomUUID(),
              classId: juryClass.id,
              startNumber: car.startNumber,
              criterion: criterion.id,
              value: seedJuryValue(position, judgeIndex, criterionIndex),
              enteredAt: at.toISOString(),
            });
      }
      for (let i = 0; i < entries.length; i += 500) {
        const synced = await syncJudge(
          orm.em,
          judgeId,
          { deviceId: randomUUID(), entries: entries.slice(i, i + 500), recusals: [] },
          at,
        );
        const refused = synced.entries.find((entry) => entry.result === 'refused');
        if (refused) throw new Error(`Seed data, jury: a value was refused: ${refused.message}`);
      }
    }

    // The head judge closes before the ceremony; a class with a car that did not come needs an admin.
    const closeAt = new Date(edition.endsAt.getTime() - 60 * MINUTE);
    const forced: string[] = [];
    for (const [index, classId] of classIds.entries()) {
      const missing = notScored.get(classId) ?? [];
      if (missing.length === 0) {
        await closeJuryClass(orm.em, classId, { id: judgeIds[0]!, role: 'user' }, { tieBreaks: [] }, closeAt);
        continue;
      }
      forced.push(names[index]!);
      const reason =
        missing.length === 1
          ? `Startnummer ${missing[0]} ist nicht zum Treffen gekommen und wurde nicht bewertet.`
          : `Die Startnummern ${missing.join(', ')} sind nicht zum Treffen gekommen und wurden nicht bewertet.`;
      await closeJuryClass(
        orm.em,
        classId,
        { id: adminId, role: 'admin' },
        { tieBreaks: [], forceReason: reason },
        closeAt,
      );
    }
    await publishJuryResults(orm.em, edition.year, adminId, new Date(edition.endsAt.getTime() - 30 * MINUTE));
    return { state: 'published', classes: names, forced };
  } catch (error) {
    // An organizer's own classes can stand in the way (a name taken, a class left open).
    if (error instanceof DomainError) return { state: 'failed', message: error.message };
    throw error;
  }
}
