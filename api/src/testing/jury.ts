import { randomUUID } from 'node:crypto';
import { JURY_DEFAULT_CRITERIA, type JuryEntryInput, type JuryScope } from '@schlosstreffen/shared';
import { editionOfYear } from '../core/editions/editions.js';
import { createJuryClass, makeJudge } from '../core/jury/jury-admin.js';
import { closeJuryClass, correctJuryResult, publishJuryResults } from '../core/jury/jury-results.js';
import { judgeView, syncJudge } from '../core/jury/jury-scoring.js';
import type { TestContext } from './test-context.js';

/** What a test's value function is asked: which class, car, judge and criterion (indexes from 0). */
export interface JuryValueOf {
  classIndex: number;
  startNumber: number;
  judgeIndex: number;
  criterionIndex: number;
}

/**
 * The test edition's jury judged as on the day: the accounts become judges, the classes get the
 * default scorecard and every judge of them (the first one leads), each judge scores every car they
 * may score with `value`, then (unless `close` is false) every class closes and (unless `publish`
 * is false) the results are published, all at `at` (two hours into the meeting by default).
 * Returns the classes' ids in order.
 */
export async function judgeTestEdition(
  t: TestContext,
  options: {
    judgeIds: string[];
    adminId: string;
    classes: { name: string; places: number; scope?: Partial<JuryScope> }[];
    value: (of: JuryValueOf) => number;
    at?: Date;
    close?: boolean;
    publish?: boolean;
  },
): Promise<string[]> {
  const at = options.at ?? new Date(t.event.start.getTime() + 2 * 3600_000);
  const year = t.event.edition.year;
  const edition = await editionOfYear(t.orm.em.fork(), year);
  for (const judgeId of options.judgeIds) await makeJudge(t.orm.em.fork(), edition, judgeId);
  const classIds: string[] = [];
  for (const juryClass of options.classes) {
    classIds.push(
      await createJuryClass(
        t.orm.em,
        year,
        {
          name: juryClass.name,
          scope: { zones: [], categories: [], yearFrom: null, yearTo: null, ...juryClass.scope },
          criteria: JURY_DEFAULT_CRITERIA.map((c) => ({ ...c })),
          places: juryClass.places,
          judgeIds: options.judgeIds,
          headJudgeId: options.judgeIds[0] ?? null,
        },
        at,
      ),
    );
  }
  for (const [judgeIndex, judgeId] of options.judgeIds.entries()) {
    const view = await judgeView(t.orm.em.fork(), judgeId, at);
    const entries: JuryEntryInput[] = [];
    for (const juryClass of view.classes) {
      const classIndex = classIds.indexOf(juryClass.id);
      for (const startNumber of juryClass.cars) {
        const car = view.cars.find((row) => row.startNumber === startNumber);
        if (!car || car.excluded) continue;
        for (const [criterionIndex, criterion] of juryClass.criteria.entries())
          entries.push({
            id: randomUUID(),
            classId: juryClass.id,
            startNumber,
            criterion: criterion.id,
            value: options.value({ classIndex, startNumber, judgeIndex, criterionIndex }),
            enteredAt: at.toISOString(),
          });
      }
    }
    const deviceId = randomUUID();
    for (let i = 0; i < entries.length; i += 500)
      await syncJudge(t.orm.em, judgeId, { deviceId, entries: entries.slice(i, i + 500), recusals: [] }, at);
  }
  if (options.close === false) return classIds;
  for (const classId of classIds)
    await closeJuryClass(t.orm.em, classId, { id: options.adminId, role: 'admin' }, { tieBreaks: [] }, at);
  if (options.publish !== false) await publishJuryResults(t.orm.em, year, options.adminId, at);
  return classIds;
}

/** An admin's correction of a class's places once the record is frozen (a day after the meeting's end by default). */
export async function correctTestJury(
  t: TestContext,
  input: { classId: string; places: number[]; reason: string },
  at: Date = new Date(t.event.end.getTime() + 2 * 24 * 3600_000),
): Promise<void> {
  await correctJuryResult(t.orm.em, t.event.edition.year, input, at);
}
