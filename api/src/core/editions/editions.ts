/**
 * Editions as data: which one is current at a moment, creating the next from the last, opening its
 * applications and making it current (both at a set moment, so either can be scheduled).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  applicationsCloseAt,
  awardTitle,
  EDITION_MESSAGES,
  EDITION_YEARS,
  editionPhaseAt,
  eventYear,
  isOverPhase,
  vehicleDisplayName,
  venueYearsLater,
  type EditionPhase,
} from '@schlosstreffen/shared';
import type { AwardLookBack, LookBack } from '@schlosstreffen/shared/api';
import type { EditionFee, VisitorTickets } from '@schlosstreffen/shared';
import { Award } from '../model/award.entity.js';
import { conflict, invalid, notFound } from '../errors.js';
import { Edition } from '../model/edition.entity.js';
import { ReviewCategory } from '../model/review-assignment.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { JuryClass } from '../model/jury.entity.js';
import { PublicText } from '../model/public-text.entity.js';
import { MailTemplate, versionsInUse } from '../model/mail-template.entity.js';
import { checkedInOf, listedOf, listedStartNumbersOf, visitorsAdmittedOf } from './editions.queries.js';
import { currentOf, meetingName } from './edition-events.js';
import type { PendingAudit } from '../pending-audit.js';

/** The edition the public site shows at `at`: the one whose `currentFrom` came last. */
export async function currentEdition(em: EntityManager, at: Date): Promise<Edition> {
  return currentOf(await em.find(Edition, {}), at);
}

/** The edition an application belongs to; null when it is gone. */
export async function editionIdOfVehicle(em: EntityManager, vehicleId: string): Promise<string | null> {
  const vehicle = await em.fork().findOne(Vehicle, { id: vehicleId }, { fields: ['edition'] });
  return vehicle?.edition.id ?? null;
}

/** The newest edition (there is always one: the migration creates the first). */
async function newestEdition(em: EntityManager): Promise<Edition> {
  const [edition] = await em.find(Edition, {}, { orderBy: { year: 'desc' }, limit: 1 });
  if (!edition) throw new Error('No edition: the database is not migrated');
  return edition;
}

export async function editionOfYear(em: EntityManager, year: number): Promise<Edition> {
  const edition = await em.findOne(Edition, { year });
  if (!edition) throw notFound(EDITION_MESSAGES.unknown(year));
  return edition;
}

/** Every edition, the newest first. */
export function listEditions(em: EntityManager): Promise<Edition[]> {
  return em.find(Edition, {}, { orderBy: { year: 'desc' } });
}

/** An edition's moments as `editionPhaseAt` reads them; `current` is the edition current at that moment. */
export const momentsOf = (
  edition: Pick<Edition, 'year' | 'applicationsOpenAt' | 'applicationDeadline' | 'startsAt' | 'endsAt'>,
  current: { year: number },
) => ({
  applicationsOpenAt: edition.applicationsOpenAt ?? null,
  applicationDeadline: edition.applicationDeadline,
  startsAt: edition.startsAt,
  endsAt: edition.endsAt,
  superseded: current.year > edition.year,
});

/** The phases of several editions at `at` (one lookup of the current edition), by edition id. */
export async function phasesOf(
  em: EntityManager,
  editions: Edition[],
  at: Date,
): Promise<Map<string, EditionPhase>> {
  const current = await currentEdition(em, at);
  return new Map(editions.map((edition) => [edition.id, editionPhaseAt(momentsOf(edition, current), at)]));
}

/** An edition's phase at `at`. */
export async function phaseOf(em: EntityManager, edition: Edition, at: Date): Promise<EditionPhase> {
  return (await phasesOf(em, [edition], at)).get(edition.id)!;
}

/** Refuses (409) a change of an edition whose meeting is over. */
async function assertNotOver(em: EntityManager, edition: Edition, at: Date): Promise<void> {
  const phase = await phaseOf(em, edition, at);
  if (phase === 'archived') throw conflict(EDITION_MESSAGES.archived(edition.year));
  if (phase === 'over') throw conflict(EDITION_MESSAGES.over(edition.name));
}

export interface NewEdition {
  year: number;
  /** The edition to copy (zones, periods, place, times of day); the newest one without it. */
  from?: number;
  start?: Date;
  end?: Date;
  /** `YYYY-MM-DD` at the venue. */
  deadline?: string;
}

const DEADLINE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The next edition from an earlier one: its dates the same number of years later (same day and time
 * at the venue), zones and periods copied, in preparation (neither open nor current). Each given
 * value replaces the copied one.
 */
export async function createEdition(
  em: EntityManager,
  input: NewEdition,
  audit?: PendingAudit,
): Promise<Edition> {
  return em.transactional(async (tx) => {
    const edition = await insertEdition(tx, input);
    audit?.record(tx, { target: edition.year });
    return edition;
  });
}

async function insertEdition(em: EntityManager, input: NewEdition): Promise<Edition> {
  const { year } = input;
  if (!Number.isInteger(year) || year < EDITION_YEARS.min || year > EDITION_YEARS.max)
    throw invalid(EDITION_MESSAGES.year);
  if (await em.findOne(Edition, { year })) throw conflict(EDITION_MESSAGES.exists(year));
  const template = input.from === undefined ? await newestEdition(em) : await editionOfYear(em, input.from);
  const years = year - template.year;
  const start = input.start ?? venueYearsLater(template.startsAt, years);
  const end =
    input.end ?? new Date(start.getTime() + (template.endsAt.getTime() - template.startsAt.getTime()));
  const gateOpensAt = new Date(
    start.getTime() - (template.startsAt.getTime() - template.gateOpensAt.getTime()),
  );
  const deadline =
    input.deadline ??
    `${Number(template.applicationDeadline.slice(0, 4)) + years}${template.applicationDeadline.slice(4)}`;
  assertMoments(year, start, end, deadline);
  const edition = em.create(Edition, {
    year,
    name: `${meetingName(template)} ${year}`,
    startsAt: start,
    endsAt: end,
    gateOpensAt,
    place: template.place,
    applicationsOpenAt: null,
    applicationDeadline: deadline,
    parkingZones: template.parkingZones.map((zone) => ({ ...zone })),
    confirmDays: template.confirmDays,
    cutoffDays: template.cutoffDays,
    reminderDays: template.reminderDays,
    currentFrom: null,
    reviewersPerApplication: template.reviewersPerApplication,
    fee: template.fee ? structuredClone(template.fee) : null,
    visitorTickets: template.visitorTickets ? { ...template.visitorTickets } : null,
  });
  await em.flush();
  // The review's categories and weights carry over from the template edition.
  const categories = await em.find(
    ReviewCategory,
    { editionId: template.id },
    { orderBy: { position: 'asc' } },
  );
  for (const c of categories)
    em.create(ReviewCategory, {
      editionId: edition.id,
      name: c.name,
      weight: c.weight,
      position: c.position,
    });
  // So do the jury's classes (name, scope, scorecard, places; judges are chosen anew). A zone the new
  // edition does not have leaves the scope.
  const zones = new Set(edition.parkingZones.map((zone) => zone.name));
  for (const c of await em.find(JuryClass, { edition: template.id }, { orderBy: { position: 'asc' } }))
    em.create(JuryClass, {
      edition: edition.id,
      name: c.name,
      position: c.position,
      scope: { ...c.scope, zones: c.scope.zones.filter((zone) => zones.has(zone)) },
      criteria: c.criteria.map((criterion) => ({ ...criterion })),
      places: c.places,
    });
  await em.flush();
  // So do the public texts (introduction, event details, FAQ).
  const texts = await em.findOne(PublicText, { editionId: template.id });
  if (texts) {
    em.create(PublicText, {
      editionId: edition.id,
      introduction: texts.introduction ?? null,
      eventDetails: texts.eventDetails ?? null,
      faq: texts.faq?.map((entry) => ({ ...entry })) ?? null,
      updatedBy: texts.updatedBy ?? null,
      updatedAt: texts.updatedAt,
    });
    await em.flush();
  }
  // And the mails' texts: the version each uses now becomes the new edition's version 1.
  const versions = await em.find(MailTemplate, { editionId: template.id });
  for (const row of versionsInUse(versions).values())
    if (!row.isDefault)
      em.create(MailTemplate, {
        editionId: edition.id,
        mail: row.mail,
        version: 1,
        subject: row.subject,
        body: row.body,
        isDefault: false,
        createdBy: row.createdBy ?? null,
        createdAt: new Date(),
      });
  await em.flush();
  return edition;
}

function assertMoments(year: number, start: Date, end: Date, deadline: string): void {
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
    throw invalid(EDITION_MESSAGES.dateFormat);
  if (eventYear(start) !== year) throw invalid(EDITION_MESSAGES.startInYear(year));
  if (end <= start) throw invalid(EDITION_MESSAGES.endAfterStart);
  if (!DEADLINE.test(deadline) || Number.isNaN(Date.parse(deadline)))
    throw invalid(EDITION_MESSAGES.deadlineFormat);
  if (applicationsCloseAt(deadline) > start) throw invalid(EDITION_MESSAGES.deadlineBeforeStart);
}

/**
 * Changes an edition whose meeting is not over: its place, dates (the gate opens as long before the start
 * as it did), deadline, zones and periods; what is not given stays.
 */
export async function updateEdition(
  em: EntityManager,
  year: number,
  input: {
    name?: string;
    place?: string;
    start?: Date;
    end?: Date;
    deadline?: string;
    parkingZones?: Array<{ name: string; capacity: number }>;
    confirmDays?: number;
    cutoffDays?: number;
    reminderDays?: number;
    /** null removes the fee; absent leaves it. */
    fee?: EditionFee | null;
    /** null switches visitor tickets off; absent leaves them. */
    visitorTickets?: VisitorTickets | null;
  },
  at: Date,
  audit?: PendingAudit,
  hooks: {
    /** The name changed (the link previews of its cars name the meeting). */
    onRenamed?: (tx: EntityManager, editionId: string) => Promise<unknown>;
    /** The fee was set or removed: who takes part may change. */
    onFeeChanged?: (tx: EntityManager, edition: Edition) => Promise<unknown>;
    /**
     * The visitor capacity is about to change (before: the tickets as they were): the hook may refuse
     * it, and after the change gives places free to the waiting list.
     */
    onVisitorTicketsChanged?: (tx: EntityManager, edition: Edition) => Promise<unknown>;
  } = {},
): Promise<Edition> {
  return em.transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertNotOver(tx, edition, at);
    const renamed = input.name !== undefined && input.name !== edition.name;
    changeEdition(edition, input);
    if (renamed) await hooks.onRenamed?.(tx, edition.id);
    if (input.fee !== undefined) {
      await tx.flush();
      await hooks.onFeeChanged?.(tx, edition);
    }
    if (input.visitorTickets !== undefined) {
      await tx.flush();
      await hooks.onVisitorTicketsChanged?.(tx, edition);
    }
    audit?.record(tx);
    return edition;
  });
}

function changeEdition(edition: Edition, input: Parameters<typeof updateEdition>[2]): void {
  const { year } = edition;
  const start = input.start ?? edition.startsAt;
  const end = input.end ?? edition.endsAt;
  const deadline = input.deadline ?? edition.applicationDeadline;
  assertMoments(year, start, end, deadline);
  const gateLead = edition.startsAt.getTime() - edition.gateOpensAt.getTime();
  Object.assign(edition, {
    name: input.name ?? edition.name,
    place: input.place ?? edition.place,
    startsAt: start,
    endsAt: end,
    gateOpensAt: new Date(start.getTime() - gateLead),
    applicationDeadline: deadline,
    parkingZones: input.parkingZones ?? edition.parkingZones,
    confirmDays: input.confirmDays ?? edition.confirmDays,
    cutoffDays: input.cutoffDays ?? edition.cutoffDays,
    reminderDays: input.reminderDays ?? edition.reminderDays,
    fee: input.fee === undefined ? edition.fee : input.fee,
    visitorTickets: input.visitorTickets === undefined ? edition.visitorTickets : input.visitorTickets,
  });
}

/** Applications of the edition open at `at` (now, or a set moment ahead). */
export async function openApplications(
  em: EntityManager,
  year: number,
  at: Date,
  audit?: PendingAudit,
): Promise<Edition> {
  return em.transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertNotOver(tx, edition, at);
    edition.applicationsOpenAt = at;
    audit?.record(tx);
    return edition;
  });
}

/** From `at` on (now, or a set moment ahead), the public site shows the edition. */
export async function makeCurrent(
  em: EntityManager,
  year: number,
  at: Date,
  audit?: PendingAudit,
): Promise<Edition> {
  return em.transactional(async (tx) => {
    // An archived edition may be made current again: the later one's moment is then the earlier.
    const edition = await editionOfYear(tx, year);
    edition.currentFrom = at;
    audit?.record(tx);
    return edition;
  });
}

/**
 * The look back on an edition whose meeting is over (phase 'over' or 'archived'): its facts, the cars that took part
 * as the public list showed them (owners who withdrew the consent to show their images are not on
 * it), and how many came through the gate. 404 before the end.
 */
export async function lookBack(em: EntityManager, year: number, at: Date): Promise<LookBack> {
  const edition = await em.findOne(Edition, { year });
  if (!edition || !isOverPhase(await phaseOf(em, edition, at)))
    throw notFound(EDITION_MESSAGES.noLookBack(year));
  const vehicles = await listedOf(em, edition.id);
  return {
    edition: {
      year: edition.year,
      name: edition.name,
      startsAt: edition.startsAt.toISOString(),
      endsAt: edition.endsAt.toISOString(),
      place: edition.place,
    },
    vehicles,
    checkedIn: await checkedInOf(em, edition.id),
    visitorsAdmitted: await visitorsAdmittedOf(em, edition.id),
    startNumbers: await listedStartNumbersOf(em, edition.id),
    award: await awardBlockOf(em, edition, vehicles),
  };
}

/**
 * The visitors' award's first three as the look back shows them, once voting closed: a listed car
 * with its name and hero image, one whose owner withdrew the image consent by start number, brand
 * and model only, a deleted car not at all; and the admins' corrections of the totals (no reasons).
 */
async function awardBlockOf(
  em: EntityManager,
  edition: Edition,
  listed: LookBack['vehicles'],
): Promise<AwardLookBack | null> {
  const award = await em.findOne(Award, { edition: edition.id });
  if (!award?.closedAt || !award.results?.length) return null;
  const winners: AwardLookBack['winners'] = [];
  for (const row of award.results.filter((result) => result.rank <= 3)) {
    const shown = listed.find((vehicle) => vehicle.id === row.vehicleId);
    const vehicle = shown ?? (await em.findOne(Vehicle, row.vehicleId, { fields: ['brand', 'model'] }));
    if (!vehicle) continue;
    winners.push({
      rank: row.rank,
      startNumber: row.startNumber,
      name: shown ? vehicleDisplayName(shown) : `${vehicle.brand} ${vehicle.model}`,
      brand: vehicle.brand,
      model: vehicle.model,
      votes: row.votes,
      image: shown?.hero ?? null,
    });
  }
  if (!winners.length) return null;
  const corrections = (award.corrections ?? []).map(({ at, startNumber, from, to }) => ({
    at,
    startNumber,
    from,
    to,
  }));
  return { title: awardTitle(edition.year), winners, corrections };
}
