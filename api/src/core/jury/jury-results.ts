/**
 * Results that add up and stay: closing a class ranks it (the mean of its judges' weighted totals;
 * the higher mean in the heaviest criterion, then the head judge's choice with a reason), publishing
 * makes the places public, and once the jury's deadline passed only an admin's correction with a
 * reason changes them. What the public, the car pages, the owners and the ceremony read of them.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  JURY_MESSAGES,
  rankJuryClass,
  vehicleDisplayName,
  type JuryCloseInput,
  type JuryCorrectionInput,
} from '@schlosstreffen/shared';
import type {
  CarPage,
  LookBack,
  JuryCeremony,
  JuryClassPlaces,
  JuryCloseRefusal,
  JuryPlace,
  JuryResults,
} from '@schlosstreffen/shared/api';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { editionOfYear, lookBack } from '../editions/editions.js';
import { carPage } from '../public-list/car-page.js';
import { Award } from '../model/award.entity.js';
import { Edition } from '../model/edition.entity.js';
import { Jury, JuryClass } from '../model/jury.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import type { PendingAudit } from '../pending-audit.js';
import { isJuryFrozen, juryField, progressOf, rankInput } from './jury-field.js';
import { classForLead } from './jury-scoring.js';
import {
  classesNaming,
  ensureJuryRow,
  lockClasses,
  publishedPlaces,
  publishedPlacesOfPage,
} from './jury.queries.js';

/** A refusal of closing, with what blocks it (409). */
const refusal = (body: JuryCloseRefusal) => conflict(body.message, { ...body, message: undefined });

/**
 * Closes a class: its head judge or an admin, before the jury's deadline. Missing scores block it
 * (named by judge and car) unless an admin closes anyway with a reason; a tie for an awarded place
 * that the heaviest criterion does not decide waits for the head judge's order with a reason.
 */
export async function closeJuryClass(
  em: EntityManager,
  classId: string,
  user: { id: string; role: string },
  input: JuryCloseInput,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const { juryClass, edition } = await classForLead(tx, classId, user);
    await lockClasses(tx, [juryClass.id], 'update');
    await tx.refresh(juryClass);
    if (juryClass.closedAt) throw conflict(JURY_MESSAGES.classClosed(juryClass.name));
    if (isJuryFrozen(edition, at)) throw conflict(JURY_MESSAGES.frozen(edition.name));
    if (input.forceReason && user.role !== 'admin') throw forbidden(JURY_MESSAGES.forceAdminOnly);
    const { classes, judges } = await juryField(tx, edition, { classIds: [juryClass.id] });
    const field = classes[0]!;
    if (field.cars.length === 0) throw conflict(JURY_MESSAGES.noCars(juryClass.name));
    const { missing } = progressOf(field, judges);
    if (missing.length > 0 && !input.forceReason)
      throw refusal({
        message: `${JURY_MESSAGES.missingScores(missing.length)} ${missing
          .slice(0, 5)
          .map((m) => JURY_MESSAGES.missingLine(m.judgeName, m.startNumber, m.car))
          .join('; ')}${missing.length > 5 ? ' …' : ''}`,
        missing,
      });
    const tieBreaks = input.tieBreaks ?? [];
    const numbers = new Set(field.cars.map((car) => car.start_number));
    if (tieBreaks.some((tb) => tb.startNumbers.some((n) => !numbers.has(n))))
      throw invalid(JURY_MESSAGES.tieChoiceInvalid);
    const { rows, ties } = rankJuryClass(juryClass.criteria, juryClass.places, rankInput(field), tieBreaks);
    if (ties.length > 0) {
      const nameOf = new Map(field.cars.map((car) => [car.start_number, car.title]));
      throw refusal({
        message: ties.map((tie) => JURY_MESSAGES.tieNeedsChoice(tie.place, tie.startNumbers)).join(' '),
        ties: ties.map((tie) => ({
          ...tie,
          cars: tie.startNumbers.map((n) => ({ startNumber: n, name: nameOf.get(n) ?? '' })),
        })),
      });
    }
    const used = tieBreaks.filter((tb) => rows.some((row) => row.tieBreak === tb.reason));
    juryClass.closedAt = at;
    juryClass.closedBy = tx.getReference(User, user.id);
    juryClass.forceReason = missing.length > 0 ? (input.forceReason ?? null) : null;
    juryClass.record = {
      rows,
      tieBreaks: used.map((tb) => ({ startNumbers: tb.startNumbers, reason: tb.reason })),
    };
    audit?.record(tx, {
      target: edition.year,
      details: {
        classId,
        cars: rows.length,
        missing: missing.length,
        forced: missing.length > 0,
        ...(missing.length > 0 ? { reason: input.forceReason } : {}),
        tieBreaks: used.length,
      },
    });
    await tx.flush();
  });
}

/** 'Ergebnisse veröffentlichen': every class closed, before the jury's deadline; the certificates follow. */
export async function publishJuryResults(
  em: EntityManager,
  year: number,
  userId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    if (isJuryFrozen(edition, at)) throw conflict(JURY_MESSAGES.frozen(edition.name));
    const classes = await tx.find(JuryClass, { edition: edition.id }, { orderBy: { position: 'asc' } });
    if (classes.length === 0) throw conflict(JURY_MESSAGES.noClasses);
    await lockClasses(
      tx,
      classes.map((c) => c.id),
      'update',
    );
    const open = classes.filter((c) => !c.closedAt);
    if (open.length > 0) throw conflict(JURY_MESSAGES.notAllClosed(open.map((c) => c.name)));
    await ensureJuryRow(tx, edition.id);
    const jury = await tx.findOneOrFail(Jury, { edition: edition.id });
    if (jury.publishedAt) throw conflict(JURY_MESSAGES.alreadyPublished);
    jury.publishedAt = at;
    jury.publishedBy = tx.getReference(User, userId);
    jury.version += 1;
    enqueue(tx, 'jury.certificates', { editionId: edition.id, version: jury.version });
    audit?.record(tx, { target: year, details: { classes: classes.length } });
    await tx.flush();
  });
}

/**
 * An admin's correction of a class's places once the results belong to the record (after the
 * jury's deadline): the new places by start number, a reason; kept in the jury's corrections and
 * the audit log. The certificates are rendered anew.
 */
export async function correctJuryResult(
  em: EntityManager,
  year: number,
  input: JuryCorrectionInput,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    if (!isJuryFrozen(edition, at)) throw conflict(JURY_MESSAGES.correctionOnlyPast);
    const juryClass = await tx.findOne(JuryClass, { id: input.classId, edition: edition.id });
    if (!juryClass) throw notFound(JURY_MESSAGES.unknownClass);
    await lockClasses(tx, [juryClass.id], 'update');
    await tx.refresh(juryClass);
    if (!juryClass.closedAt || !juryClass.record) throw conflict(JURY_MESSAGES.classOpen(juryClass.name));
    const rows = juryClass.record.rows;
    const known = new Set(rows.map((row) => row.startNumber));
    if (
      input.places.length > juryClass.places ||
      new Set(input.places).size !== input.places.length ||
      input.places.some((n) => !known.has(n))
    )
      throw invalid(JURY_MESSAGES.correctionOrder);
    const from = [...rows]
      .filter((row) => row.place !== null)
      .sort((a, b) => a.place! - b.place!)
      .map((r) => r.startNumber);
    juryClass.record = {
      ...juryClass.record,
      rows: rows.map((row) => {
        const index = input.places.indexOf(row.startNumber);
        return { ...row, place: index >= 0 ? index + 1 : null };
      }),
    };
    await ensureJuryRow(tx, edition.id);
    const jury = await tx.findOneOrFail(Jury, { edition: edition.id });
    jury.corrections = [
      ...(jury.corrections ?? []),
      { at: at.toISOString(), classId: juryClass.id, from, to: input.places, reason: input.reason },
    ];
    jury.version += 1;
    if (jury.publishedAt) enqueue(tx, 'jury.certificates', { editionId: edition.id, version: jury.version });
    audit?.record(tx, {
      target: year,
      details: { classId: juryClass.id, from, to: input.places, reason: input.reason },
    });
    await tx.flush();
  });
}

/** The places of the edition's closed classes, as the public sees them (a deleted car is left out). */
async function placesOf(em: EntityManager, edition: Edition): Promise<JuryClassPlaces[]> {
  const classes = await em.find(
    JuryClass,
    { edition: edition.id },
    { orderBy: { position: 'asc', name: 'asc' } },
  );
  const rows = classes.flatMap((c) => c.record?.rows.filter((row) => row.place !== null) ?? []);
  // A deleted account's car keeps its place by start number, without its id.
  const ids = [...new Set(rows.map((row) => row.vehicleId).filter(Boolean))];
  const listed = new Map(
    (ids.length ? await em.find(PublicVehicle, { vehicle: { $in: ids } }) : []).map((row) => [
      row.vehicle.id,
      row.data,
    ]),
  );
  const vehicles = new Map(
    (ids.length
      ? await em.find(Vehicle, { id: { $in: ids } }, { fields: ['brand', 'model', 'status'] })
      : []
    ).map((v) => [v.id, v]),
  );
  return classes
    .filter((c) => c.closedAt && c.record)
    .map((c) => ({
      id: c.id,
      name: c.name,
      places: c
        .record!.rows.filter((row) => row.place !== null && vehicles.has(row.vehicleId))
        .sort((a, b) => a.place! - b.place!)
        .map((row) => {
          const shown = listed.get(row.vehicleId);
          const vehicle = vehicles.get(row.vehicleId)!;
          return {
            place: row.place!,
            startNumber: row.startNumber,
            name: shown ? vehicleDisplayName(shown) : `${vehicle.brand} ${vehicle.model}`,
            imageUrl: shown?.hero ? (shown.hero.url ?? null) : null,
            hasPage: vehicle.status === 'confirmed',
          };
        }),
    }));
}

async function awardPlaces(em: EntityManager, edition: Edition): Promise<JuryResults['award']> {
  const award = await em.findOne(Award, { edition: edition.id });
  if (!award?.closedAt || !award.results?.length) return null;
  return award.results
    .filter((row) => row.rank <= 3)
    .map((row) => ({ rank: row.rank, startNumber: row.startNumber, name: row.name, votes: row.votes }));
}

/** GET /api/editions/:year/results: the published results; null before publication (404). */
export async function juryResultsOf(em: EntityManager, year: number): Promise<JuryResults | null> {
  const edition = await em.findOne(Edition, { year });
  if (!edition) return null;
  const jury = await em.findOne(Jury, { edition: edition.id });
  if (!jury?.publishedAt) return null;
  return {
    edition: {
      year: edition.year,
      name: edition.name,
      startsAt: edition.startsAt.toISOString(),
      endsAt: edition.endsAt.toISOString(),
      place: edition.place,
    },
    publishedAt: jury.publishedAt.toISOString(),
    classes: await placesOf(em, edition),
    award: await awardPlaces(em, edition),
  };
}

/** The look back's block: the published places per class (empty before publication). */
export async function juryLookBack(em: EntityManager, edition: Edition): Promise<JuryClassPlaces[]> {
  const jury = await em.findOne(Jury, { edition: edition.id });
  return jury?.publishedAt ? placesOf(em, edition) : [];
}

/** The ceremony's slides: every closed class's places (before publication too) and the visitors' award. */
export async function juryCeremony(em: EntityManager, year: number): Promise<JuryCeremony> {
  const edition = await editionOfYear(em, year);
  const classes = await em.find(JuryClass, { edition: edition.id }, { orderBy: { position: 'asc' } });
  return {
    year,
    editionName: edition.name,
    classes: await placesOf(em, edition),
    award: await awardPlaces(em, edition),
    openClasses: classes.filter((c) => !c.closedAt).map((c) => c.name),
  };
}

/** The published places of the given cars (car page, dashboard), by vehicle id. */
export async function juryPlacesOf(
  em: EntityManager,
  vehicleIds: string[],
): Promise<Map<string, JuryPlace[]>> {
  const places = new Map<string, JuryPlace[]>();
  if (vehicleIds.length === 0) return places;
  const rows = await publishedPlaces(em, vehicleIds);
  for (const row of rows) {
    places.set(row.vehicle_id, [
      ...(places.get(row.vehicle_id) ?? []),
      { place: row.place, className: row.name, year: row.year },
    ]);
  }
  return places;
}

/** A deleted account's cars leave the record's names (their places stay, by start number). */
export async function forgetCarsInJury(em: EntityManager, vehicleIds: string[]): Promise<void> {
  if (vehicleIds.length === 0) return;
  const classes = await classesNaming(em, vehicleIds);
  for (const id of classes) {
    const juryClass = await em.findOneOrFail(JuryClass, id);
    juryClass.record = {
      ...juryClass.record!,
      rows: juryClass.record!.rows.map((row) =>
        vehicleIds.includes(row.vehicleId)
          ? { ...row, vehicleId: '', name: `Startnummer ${row.startNumber}` }
          : row,
      ),
    };
  }
  await em.flush();
}

/** A car's page with its published places ('1. Platz – Bester Umbau 2026'). */
export async function carPageWithPlaces(
  em: EntityManager,
  year: number,
  startNumber: number,
  at: Date,
): Promise<CarPage> {
  const page = await carPage(em, year, startNumber, at);
  const places = await publishedPlacesOfPage(em, year, startNumber);
  return {
    ...page,
    juryPlaces: places.map((row) => ({ place: row.place, className: row.name, year: row.year })),
  };
}

/** The look back with the jury's published places per class. */
export async function lookBackWithJury(em: EntityManager, year: number, at: Date): Promise<LookBack> {
  const page = await lookBack(em, year, at);
  const edition = await em.findOneOrFail(Edition, { year });
  return { ...page, jury: await juryLookBack(em, edition) };
}
