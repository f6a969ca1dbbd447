/** The jury's SQL: the cars that compete, who may score them, the values, the record's reads. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from '../db/db.queries.js';

/** A PostgreSQL array literal of the values, each quoted (the driver would spread a JS array). */
const pgArray = (values: readonly (string | number)[]): string =>
  `{${values.map((value) => `"${String(value).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/** A confirmed car of the edition holding a start number, with what the classes' scopes ask. */
export interface JuryCarRow {
  vehicle_id: string;
  user_id: string;
  start_number: number;
  parking_zone: string;
  brand: string;
  model: string;
  name: string | null;
  year: number;
  tuning_categories: string[];
  /** The public list's photo (only with the media consent): its thumbnail, else its full rendition. */
  image_url: string | null;
}

/** Every confirmed car of the edition that holds a start number (a released place holds none). */
export function juryCars(em: EntityManager, editionId: string): Promise<JuryCarRow[]> {
  return selectRows<JuryCarRow>(
    em,
    `select v.id as vehicle_id, v.user_id, i.start_number, i.parking_zone, v.brand, v.model, v.name, v.year,
            v.tuning_categories,
            coalesce(pv.data->'hero'->>'thumbnailUrl', pv.data->'hero'->>'url') as image_url
       from vehicle v
       join invitation i on i.vehicle_id = v.id and i.released_at is null
       left join public_vehicle pv on pv.vehicle_id = v.id
      where v.edition_id = ? and v.status = 'confirmed'
      order by i.start_number`,
    [editionId],
  );
}

/** The classes' judges of an edition: (class, judge) pairs. */
export function classJudges(
  em: EntityManager,
  editionId: string,
): Promise<{ jury_class_id: string; user_id: string }[]> {
  return selectRows(
    em,
    `select cj.jury_class_id, cj.user_id from jury_class_judge cj
       join jury_class c on c.id = cj.jury_class_id where c.edition_id = ?`,
    [editionId],
  );
}

/** The judges of an edition with their names and addresses. */
export function editionJudges(
  em: EntityManager,
  editionId: string,
): Promise<{ user_id: string; first_name: string | null; last_name: string | null; email: string }[]> {
  return selectRows(
    em,
    `select j.user_id, u.first_name, u.last_name, u.email from jury_judge j join users u on u.id = j.user_id
      where j.edition_id = ? order by u.last_name nulls last, u.first_name nulls last, u.email`,
    [editionId],
  );
}

/**
 * Who may not score which car: the owner never; a judge who declared a bias towards the car
 * ('Befangen'), or, as a reviewer, towards its owner. Pairs of (judge, vehicle) for the given judges.
 */
export async function juryExclusions(
  em: EntityManager,
  editionId: string,
  judgeIds: string[],
): Promise<{ judge_id: string; vehicle_id: string; kind: 'biased' }[]> {
  if (judgeIds.length === 0) return [];
  return selectRows(
    em,
    `select r.judge_id, r.vehicle_id, 'biased' as kind from jury_recusal r
      where r.edition_id = ? and r.judge_id = any(?::uuid[])
     union
     select rc.reviewer_id as judge_id, v.id as vehicle_id, 'biased' as kind from review_conflict rc
       join vehicle v on v.user_id = rc.person_id and v.edition_id = ?
      where rc.reviewer_id = any(?::uuid[])`,
    [editionId, pgArray(judgeIds), editionId, pgArray(judgeIds)],
  );
}

export interface ScoreRow {
  jury_class_id: string;
  judge_id: string;
  vehicle_id: string;
  criterion: string;
  value: number;
  entered_at: Date;
}

/** The values of the given classes (every judge's), or of one judge. */
export function juryScores(
  em: EntityManager,
  filter: { classIds: string[]; judgeId?: string },
): Promise<ScoreRow[]> {
  if (filter.classIds.length === 0) return Promise.resolve([]);
  return selectRows<ScoreRow>(
    em,
    `select jury_class_id, judge_id, vehicle_id, criterion, value, entered_at from jury_score
      where jury_class_id = any(?::uuid[])${filter.judgeId ? ' and judge_id = ?' : ''}`,
    filter.judgeId ? [pgArray(filter.classIds), filter.judgeId] : [pgArray(filter.classIds)],
  );
}

export interface ScoreInsert {
  entryId: string;
  classId: string;
  judgeId: string;
  vehicleId: string;
  criterion: string;
  value: number;
  enteredAt: Date;
  receivedAt: Date;
  deviceId: string;
}

/** Of entries for the same value (class, judge, car, criterion), the one entered last. */
function latestOf(entries: ScoreInsert[]): ScoreInsert[] {
  const latest = new Map<string, ScoreInsert>();
  for (const entry of entries) {
    const key = `${entry.classId}/${entry.judgeId}/${entry.vehicleId}/${entry.criterion}`;
    const kept = latest.get(key);
    const later =
      !kept ||
      entry.enteredAt.getTime() > kept.enteredAt.getTime() ||
      (entry.enteredAt.getTime() === kept.enteredAt.getTime() && entry.entryId > kept.entryId);
    if (later) latest.set(key, entry);
  }
  return [...latest.values()];
}

/**
 * Writes values in one statement, only into classes still open: their rows are share-locked by the
 * statement (closing a class takes its row exclusively, so a value either lands before the ranking
 * or finds the class closed). Per (class, judge, car, criterion) the one entered last counts (at
 * equal moments the greater entry id, so every order of arrival ends the same); a resend of an
 * entry already held, or an older one, changes nothing. Returns the classes that were open.
 */
export async function writeScores(
  em: EntityManager,
  classIds: string[],
  entries: ScoreInsert[],
): Promise<Set<string>> {
  const rows = latestOf(entries);
  if (classIds.length === 0) return new Set();
  const [result] = await selectRows<{ open_ids: string[] }>(
    em,
    `with open as (
       select id from jury_class where id = any(?::uuid[]) and closed_at is null order by id for share
     ), written as (
       insert into jury_score (jury_class_id, judge_id, vehicle_id, criterion, value, entry_id, entered_at,
                               received_at, device_id)
       select t.class_id, t.judge_id, t.vehicle_id, t.criterion, t.value, t.entry_id, t.entered_at,
              t.received_at, t.device_id
         from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::int[], ?::uuid[], ?::timestamptz[],
                     ?::timestamptz[], ?::uuid[])
              as t(class_id, judge_id, vehicle_id, criterion, value, entry_id, entered_at, received_at, device_id)
         join open on open.id = t.class_id
       on conflict (jury_class_id, judge_id, vehicle_id, criterion) do update
          set value = excluded.value, entry_id = excluded.entry_id, entered_at = excluded.entered_at,
              received_at = excluded.received_at, device_id = excluded.device_id
        where (excluded.entered_at, excluded.entry_id) > (jury_score.entered_at, jury_score.entry_id)
       returning 1
     )
     select array(select id::text from open) as open_ids, (select count(*) from written) as written`,
    [
      pgArray(classIds),
      pgArray(rows.map((r) => r.classId)),
      pgArray(rows.map((r) => r.judgeId)),
      pgArray(rows.map((r) => r.vehicleId)),
      pgArray(rows.map((r) => r.criterion)),
      pgArray(rows.map((r) => r.value)),
      pgArray(rows.map((r) => r.entryId)),
      pgArray(rows.map((r) => r.enteredAt.toISOString())),
      pgArray(rows.map((r) => r.receivedAt.toISOString())),
      pgArray(rows.map((r) => r.deviceId)),
    ],
  );
  return new Set(result?.open_ids ?? []);
}

/** Records bias declarations (a second one of the same car changes nothing) and drops that judge's values of the car. */
export async function insertRecusals(
  em: EntityManager,
  editionId: string,
  judgeId: string,
  rows: { id: string; vehicleId: string; enteredAt: Date }[],
  receivedAt: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await runStatement(
    em,
    `insert into jury_recusal (id, edition_id, judge_id, vehicle_id, entered_at, received_at)
     select t.id, ?, ?, t.vehicle_id, t.entered_at, ? from unnest(?::uuid[], ?::uuid[], ?::timestamptz[])
            as t(id, vehicle_id, entered_at)
     on conflict do nothing`,
    [
      editionId,
      judgeId,
      receivedAt.toISOString(),
      pgArray(rows.map((r) => r.id)),
      pgArray(rows.map((r) => r.vehicleId)),
      pgArray(rows.map((r) => r.enteredAt.toISOString())),
    ],
  );
  await runStatement(
    em,
    `delete from jury_score s using jury_class c
      where c.id = s.jury_class_id and c.edition_id = ? and s.judge_id = ? and s.vehicle_id = any(?::uuid[])`,
    [editionId, judgeId, pgArray(rows.map((r) => r.vehicleId))],
  );
}

/** A judge's bias declarations of an edition, by vehicle id. */
export function recusalsOf(
  em: EntityManager,
  editionId: string,
): Promise<{ judge_id: string; vehicle_id: string; entered_at: Date }[]> {
  return selectRows(
    em,
    `select judge_id, vehicle_id, entered_at from jury_recusal where edition_id = ? order by entered_at`,
    [editionId],
  );
}

/** Whether the account judges the edition. */
export async function isJudgeOf(em: EntityManager, editionId: string, userId: string): Promise<boolean> {
  const rows = await selectRows(em, `select 1 from jury_judge where edition_id = ? and user_id = ?`, [
    editionId,
    userId,
  ]);
  return rows.length > 0;
}

/** Whether any value was entered in the class. */
export async function classHasScores(em: EntityManager, classId: string): Promise<boolean> {
  const rows = await selectRows(em, `select 1 from jury_score where jury_class_id = ? limit 1`, [classId]);
  return rows.length > 0;
}

/** Locks the classes (closing takes them exclusively, a sync shares them). */
export async function lockClasses(
  em: EntityManager,
  classIds: string[],
  mode: 'share' | 'update',
): Promise<void> {
  if (classIds.length === 0) return;
  await selectRows(em, `select id from jury_class where id = any(?::uuid[]) order by id for ${mode}`, [
    pgArray(classIds),
  ]);
}

/**
 * The published places of the confirmed car holding the start number at the meeting of `year`, in
 * one statement (a car page asks it on every visit; an edition without published results ends at
 * its jury row).
 */
export function publishedPlacesOfPage(
  em: EntityManager,
  year: number,
  startNumber: number,
): Promise<{ place: number; name: string; year: number }[]> {
  return selectRows(
    em,
    `select (r->>'place')::int as place, c.name, e.year
       from edition e
       join jury j on j.edition_id = e.id and j.published_at is not null
       join invitation i on i.edition_id = e.id and i.start_number = ? and i.released_at is null
       join jury_class c on c.edition_id = e.id
       cross join lateral jsonb_array_elements(c.record->'rows') r
      where e.year = ? and r->>'vehicleId' = i.vehicle_id::text and jsonb_typeof(r->'place') = 'number'
      order by (r->>'place')::int, c.position`,
    [startNumber, year],
  );
}

/** The next position for a new class of the edition. */
export async function nextClassPosition(em: EntityManager, editionId: string): Promise<number> {
  const [row] = await selectRows<{ next: number }>(
    em,
    `select coalesce(max(position), 0) + 1 as next from jury_class where edition_id = ?`,
    [editionId],
  );
  return Number(row?.next ?? 1);
}

/** The ids of the edition's classes whose name is this one (ignoring case). */
export async function classesNamed(em: EntityManager, editionId: string, name: string): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    em,
    `select id from jury_class where edition_id = ? and lower(name) = lower(?)`,
    [editionId, name],
  );
  return rows.map((row) => row.id);
}

/** Makes the account a judge of the edition and of these classes (what it already is stays). */
export async function insertJudge(
  em: EntityManager,
  editionId: string,
  userId: string,
  classIds: string[],
): Promise<void> {
  await runStatement(
    em,
    `insert into jury_judge (id, edition_id, user_id, created_at) values (gen_random_uuid(), ?, ?, now())
     on conflict (edition_id, user_id) do nothing`,
    [editionId, userId],
  );
  if (classIds.length === 0) return;
  await runStatement(
    em,
    `insert into jury_class_judge (jury_class_id, user_id) select c, ? from unnest(?::uuid[]) as c
     on conflict do nothing`,
    [userId, pgArray(classIds)],
  );
}

/** The edition's classes that hold a value. */
export async function classesWithScores(em: EntityManager, editionId: string): Promise<Set<string>> {
  const rows = await selectRows<{ jury_class_id: string }>(
    em,
    `select distinct s.jury_class_id from jury_score s join jury_class c on c.id = s.jury_class_id
      where c.edition_id = ?`,
    [editionId],
  );
  return new Set(rows.map((row) => row.jury_class_id));
}

/** The classes of the edition the account judges. */
export async function classesOfJudge(
  em: EntityManager,
  editionId: string,
  userId: string,
): Promise<string[]> {
  const rows = await selectRows<{ jury_class_id: string }>(
    em,
    `select cj.jury_class_id from jury_class_judge cj join jury_class c on c.id = cj.jury_class_id
      where c.edition_id = ? and cj.user_id = ?`,
    [editionId, userId],
  );
  return rows.map((row) => row.jury_class_id);
}

/** The edition's jury row, made if missing, locked until the transaction ends. */
export async function ensureJuryRow(em: EntityManager, editionId: string): Promise<void> {
  await runStatement(
    em,
    `insert into jury (edition_id, version, updated_at) values (?, 0, now()) on conflict do nothing`,
    [editionId],
  );
  await selectRows(em, `select 1 from jury where edition_id = ? for update`, [editionId]);
}

/** The published places of these cars, in place order. */
export function publishedPlaces(
  em: EntityManager,
  vehicleIds: string[],
): Promise<{ vehicle_id: string; place: number; name: string; year: number }[]> {
  return selectRows(
    em,
    `select r->>'vehicleId' as vehicle_id, (r->>'place')::int as place, c.name, e.year
       from jury_class c
       join jury j on j.edition_id = c.edition_id and j.published_at is not null
       join edition e on e.id = c.edition_id
       cross join lateral jsonb_array_elements(c.record->'rows') r
      where r->>'vehicleId' = any(?::text[]) and jsonb_typeof(r->'place') = 'number'
      order by (r->>'place')::int, c.position`,
    [pgArray(vehicleIds)],
  );
}

/** The classes whose record names one of these cars. */
export async function classesNaming(em: EntityManager, vehicleIds: string[]): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    em,
    `select id from jury_class c where exists (
       select 1 from jsonb_array_elements(c.record->'rows') r where r->>'vehicleId' = any(?::text[]))`,
    [pgArray(vehicleIds)],
  );
  return rows.map((row) => row.id);
}

/** A class of the judge's as a sync needs it. */
export interface SyncClassRow {
  id: string;
  name: string;
  criteria: { id: string; name: string; weight: number; max: number }[];
  scope: { zones: string[]; categories: string[]; yearFrom: number | null; yearTo: number | null };
  closed_at: Date | null;
  published_at: Date | null;
}

/** The classes of the edition the account judges, with whether the edition's results are published. */
export function judgeClasses(em: EntityManager, editionId: string, userId: string): Promise<SyncClassRow[]> {
  return selectRows<SyncClassRow>(
    em,
    `select c.id, c.name, c.criteria, c.scope, c.closed_at,
            (select j.published_at from jury j where j.edition_id = c.edition_id) as published_at
       from jury_class c join jury_class_judge cj on cj.jury_class_id = c.id and cj.user_id = ?
      where c.edition_id = ?
      order by c.id`,
    [userId, editionId],
  );
}

/** The edition's confirmed cars holding a start number, with what a class's scope asks (no photo). */
export function juryCarsForSync(
  em: EntityManager,
  editionId: string,
): Promise<
  {
    vehicle_id: string;
    user_id: string;
    start_number: number;
    parking_zone: string;
    year: number;
    tuning_categories: string[];
  }[]
> {
  return selectRows(
    em,
    `select v.id as vehicle_id, v.user_id, i.start_number, i.parking_zone, v.year, v.tuning_categories
       from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and i.released_at is null and v.status = 'confirmed'`,
    [editionId],
  );
}
