import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { DomainError } from '../errors.js';
import {
  createEdition,
  currentEdition,
  editionOfYear,
  listEditions,
  makeCurrent,
  openApplications,
  phaseOf,
} from './editions.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

const at = (iso: string) => new Date(iso);

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { code: (error as DomainError).code, message: (error as DomainError).message };
}

describe('editions', () => {
  it('the configured event is the first edition: current from the start, applications closed after its deadline', async () => {
    const em = t.orm.em.fork();
    const first = await editionOfYear(em, 2026);
    expect(first).toMatchObject({
      name: 'Schlosstreffen 2026',
      place: 'Schlosspark, Sachsen',
      applicationDeadline: '2026-03-31',
      parkingZones: [
        { name: 'A', capacity: 30 },
        { name: 'B', capacity: 25 },
        { name: 'C', capacity: 15 },
      ],
      confirmDays: 14,
      cutoffDays: 14,
      reminderDays: 3,
    });
    expect(first.startsAt.toISOString()).toBe('2026-06-20T08:00:00.000Z');
    expect(first.endsAt.toISOString()).toBe('2026-06-20T18:00:00.000Z');
    expect(first.gateOpensAt.toISOString()).toBe('2026-06-19T22:00:00.000Z');
    expect((await currentEdition(em, at('2026-11-25T12:00:00Z'))).year).toBe(2026);
    expect(await phaseOf(em, first, at('2026-03-31T21:59:00Z'))).toBe('open');
    expect(await phaseOf(em, first, at('2026-03-31T22:00:00Z'))).toBe('closed');
  });

  it('creates the next edition a year later, opens it and makes it current at set moments', async () => {
    const em = t.orm.em.fork();
    const next = await createEdition(em, { year: 2027 });
    expect(next).toMatchObject({
      name: 'Schlosstreffen 2027',
      applicationDeadline: '2027-03-31',
      applicationsOpenAt: null,
      currentFrom: null,
      parkingZones: [
        { name: 'A', capacity: 30 },
        { name: 'B', capacity: 25 },
        { name: 'C', capacity: 15 },
      ],
    });
    // The same day and time at the venue, a year later; the gate still opens at midnight before.
    expect(next.startsAt.toISOString()).toBe('2027-06-20T08:00:00.000Z');
    expect(next.endsAt.toISOString()).toBe('2027-06-20T18:00:00.000Z');
    expect(next.gateOpensAt.toISOString()).toBe('2027-06-19T22:00:00.000Z');
    expect(await phaseOf(em, next, at('2026-12-01T00:00:00Z'))).toBe('preparation');

    await openApplications(em, 2027, at('2026-12-01T09:00:00Z'));
    await makeCurrent(em, 2027, at('2026-12-01T10:00:00Z'));
    const first = await editionOfYear(em, 2026);
    expect(await phaseOf(em, next, at('2026-12-01T08:59:59Z'))).toBe('scheduled');
    expect(await phaseOf(em, next, at('2026-12-01T09:00:00Z'))).toBe('open');
    expect((await currentEdition(em, at('2026-12-01T09:59:59Z'))).year).toBe(2026);
    expect(await phaseOf(em, first, at('2026-12-01T09:59:59Z'))).toBe('over');
    expect((await currentEdition(em, at('2026-12-01T10:00:00Z'))).year).toBe(2027);
    expect(await phaseOf(em, first, at('2026-12-01T10:00:00Z'))).toBe('archived');
    expect(await phaseOf(em, next, at('2027-04-01T00:00:00+02:00'))).toBe('closed');
    expect((await listEditions(em)).map((edition) => edition.year)).toEqual([2027, 2026]);
  });

  it('takes given dates and refuses wrong ones in German', async () => {
    const em = t.orm.em.fork();
    const custom = await createEdition(em, {
      year: 2028,
      from: 2026,
      start: at('2028-06-17T08:00:00Z'),
      end: at('2028-06-18T16:00:00Z'),
      deadline: '2028-04-15',
    });
    expect(custom.endsAt.toISOString()).toBe('2028-06-18T16:00:00.000Z');
    expect(custom.applicationDeadline).toBe('2028-04-15');
    expect(custom.gateOpensAt.toISOString()).toBe('2028-06-16T22:00:00.000Z');

    expect(await refusal(createEdition(em, { year: 2027 }))).toEqual({
      code: 'conflict',
      message: 'Die Ausgabe 2027 gibt es bereits.',
    });
    expect(await refusal(createEdition(em, { year: 2029, from: 2019 }))).toEqual({
      code: 'not_found',
      message: 'Eine Ausgabe 2019 gibt es nicht.',
    });
    expect(await refusal(createEdition(em, { year: 2029, start: at('2030-06-20T08:00:00Z') }))).toEqual({
      code: 'invalid',
      message: 'Der Beginn muss im Jahr 2029 liegen.',
    });
    expect(
      await refusal(
        createEdition(em, { year: 2029, start: at('2029-06-20T08:00:00Z'), end: at('2029-06-20T07:00:00Z') }),
      ),
    ).toEqual({ code: 'invalid', message: 'Das Ende muss nach dem Beginn liegen.' });
    expect(await refusal(createEdition(em, { year: 2029, deadline: '2029-07-01' }))).toEqual({
      code: 'invalid',
      message: 'Der Bewerbungsschluss muss vor dem Beginn liegen.',
    });
    expect(await refusal(createEdition(em, { year: 2029, deadline: '31.03.2029' }))).toEqual({
      code: 'invalid',
      message: 'Bitte gib den Bewerbungsschluss als Datum an (JJJJ-MM-TT).',
    });
    expect((await listEditions(em)).map((edition) => edition.year)).toEqual([2028, 2027, 2026]);
  });
});
