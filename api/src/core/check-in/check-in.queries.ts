import type { EntityManager } from '@mikro-orm/postgresql';
import { startNumberOf, type VehicleStatus } from '@schlosstreffen/shared';
import { runStatement, selectRows } from '../db/db.queries.js';

/**
 * Every SQL statement of the gate: the admission of a scan, the scans a device is told about, the
 * signed list and the 'Einlass' board. Each runs in the transaction of the entity manager it is given.
 */

/** Which car a scan names: an invitation's id (a gate's list), or what was typed or scanned at the screen. */
export type CarLocator = { invitationId: string } | { code: string };

/** An invitation as the admission rule and the online screen read it: the car and its owner's name. */
export interface CarRow {
  id: string;
  /** The invitation's edition and its name: a code opens only its own edition's gate. */
  edition_id: string;
  edition_name: string;
  start_number: number;
  parking_zone: string;
  checked_in_at: Date | null;
  released_at: Date | null;
  vehicle_id: string;
  status: VehicleStatus;
  name: string | null;
  brand: string;
  model: string;
  year: number | null;
  color: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The participation fee still open (0 without a fee, paid or waived). */
  fee_open_cents: number;
}

/**
 * The invitation a scan names, locked until the transaction ends; null when there is none. An id or
 * a check-in code names one invitation of any edition (the rule refuses another edition's); a start
 * number is one of the gate's edition (`editionId`): numbers restart each year.
 */
const FEE_OPEN_CENTS = `(case when fp.id is null or fp.waived_at is not null
                               or not exists (select 1 from edition fe where fe.id = fp.edition_id and fe.fee is not null)
                             then 0 else greatest(0, fp.amount_cents - fp.paid_cents) end)::int`;

const CAR_COLUMNS = `i.id, i.edition_id, e.name as edition_name, i.start_number, i.parking_zone, i.checked_in_at,
            i.released_at, v.id as vehicle_id, v.status, v.name, v.brand, v.model, v.year, v.color,
            u.first_name, u.last_name, ${FEE_OPEN_CENTS} as fee_open_cents
       from invitation i
       join edition e on e.id = i.edition_id
       join vehicle v on v.id = i.vehicle_id
       join users u on u.id = v.user_id
       left join payment fp on fp.invitation_id = i.id`;

/** A uuid array as one bound literal: a bound array would be spread into a list. */
export const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

export async function lockCar(
  em: EntityManager,
  locator: CarLocator,
  editionId: string,
): Promise<CarRow | null> {
  let where: string;
  let values: Array<string | number>;
  if ('invitationId' in locator) {
    [where, values] = ['i.id = ?', [locator.invitationId]];
  } else {
    const startNumber = startNumberOf(locator.code);
    [where, values] =
      startNumber === null
        ? ['i.qr_code = ?', [locator.code]]
        : ['i.edition_id = ? and i.start_number = ?', [editionId, startNumber]];
  }
  const [row] = await selectRows<CarRow>(em, `select ${CAR_COLUMNS} where ${where} for update of i`, values);
  return row ?? null;
}

/**
 * The invitations of these ids, locked until the transaction ends in id order (two syncs naming the
 * same cars wait for each other instead of deadlocking), by id; ids of no invitation are absent.
 */
export async function lockCars(
  em: EntityManager,
  invitationIds: readonly string[],
): Promise<Map<string, CarRow>> {
  const rows = await selectRows<CarRow>(
    em,
    `select ${CAR_COLUMNS} where i.id = any(?::uuid[]) order by i.id for update of i`,
    [uuidArray(invitationIds)],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

export async function scanKnown(em: EntityManager, scanId: string): Promise<boolean> {
  return (await selectRows(em, `select 1 from check_in_scan where id = ?`, [scanId])).length > 0;
}

/** Which of these scan ids are kept already. */
export async function knownScans(em: EntityManager, scanIds: readonly string[]): Promise<Set<string>> {
  const rows = await selectRows<{ id: string }>(
    em,
    `select id from check_in_scan where id = any(?::uuid[])`,
    [uuidArray(scanIds)],
  );
  return new Set(rows.map((row) => row.id));
}

export interface ScanInsert {
  id: string;
  invitationId: string;
  deviceId: string;
  gate: string;
  scannedAt: Date;
  receivedAt: Date;
  staffId: string | null;
}

export async function insertScan(em: EntityManager, scan: ScanInsert): Promise<void> {
  await runStatement(
    em,
    `insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at, received_at, staff_id)
     values (?, ?, ?, ?, ?, ?, ?)`,
    [scan.id, scan.invitationId, scan.deviceId, scan.gate, scan.scannedAt, scan.receivedAt, scan.staffId],
  );
}

/** Keeps these scans, in one statement. */
export async function insertScans(em: EntityManager, scans: readonly ScanInsert[]): Promise<void> {
  if (!scans.length) return;
  await runStatement(
    em,
    `insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at, received_at, staff_id)
     values ${scans.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    scans.flatMap((scan) => [
      scan.id,
      scan.invitationId,
      scan.deviceId,
      scan.gate,
      scan.scannedAt,
      scan.receivedAt,
      scan.staffId,
    ]),
  );
}

/** The scans that let their cars in (one per car): each one's time becomes its car's check-in, in one statement. */
export async function markCheckedInAll(
  em: EntityManager,
  marks: ReadonlyArray<{ invitationId: string; scanId: string; at: Date }>,
): Promise<void> {
  if (!marks.length) return;
  await runStatement(
    em,
    `update invitation i
        set checked_in = true, checked_in_at = m.at, checked_in_scan_id = m.scan_id
       from unnest(?::uuid[], ?::timestamptz[], ?::uuid[]) as m(id, at, scan_id)
      where i.id = m.id`,
    [
      uuidArray(marks.map((mark) => mark.invitationId)),
      `{${marks.map((mark) => `"${mark.at.toISOString()}"`).join(',')}}`,
      uuidArray(marks.map((mark) => mark.scanId)),
    ],
  );
}

/** The scan that lets the car in: its time becomes the check-in's. */
export async function markCheckedIn(
  em: EntityManager,
  invitationId: string,
  scanId: string,
  at: Date,
): Promise<void> {
  await runStatement(
    em,
    `update invitation set checked_in = true, checked_in_at = ?, checked_in_scan_id = ? where id = ?`,
    [at, scanId, invitationId],
  );
}

/** A scan of a device with what became of it: the winning scan of its car (maybe itself). */
export interface DeviceScanRow {
  id: string;
  invitation_id: string;
  scanned_at: Date;
  winner_id: string | null;
  checked_in_at: Date | null;
  winner_gate: string | null;
}

/**
 * A device's scans, oldest first: all of them, or only those whose state may have changed since a
 * cursor: received after it, or whose car another scan now wins, received after `winnerAfter` (the
 * cursor less an overlap for transactions that committed late). The scans named in `ids` come always.
 */
export async function deviceScans(
  em: EntityManager,
  deviceId: string,
  changed?: { after: Date; winnerAfter: Date; ids: string[] },
): Promise<DeviceScanRow[]> {
  return selectRows<DeviceScanRow>(
    em,
    `select s.id, s.invitation_id, s.scanned_at, i.checked_in_scan_id as winner_id,
            i.checked_in_at, w.gate as winner_gate
       from check_in_scan s
       join invitation i on i.id = s.invitation_id
       left join check_in_scan w on w.id = i.checked_in_scan_id
      where s.device_id = ?
        ${changed ? `and (s.id = any(?::uuid[]) or s.received_at > ? or (w.id <> s.id and w.received_at > ?))` : ''}
      order by s.scanned_at`,
    changed ? [deviceId, uuidArray(changed.ids), changed.after, changed.winnerAfter] : [deviceId],
  );
}

export interface GateListRow {
  id: string;
  start_number: number;
  parking_zone: string;
  qr_code: string;
  checked_in_at: Date | null;
  gate: string | null;
  name: string | null;
  brand: string;
  model: string;
  color: string | null;
  status: string;
  on_list: boolean;
  fee_open_cents: number;
}

/** Holding invitations of invited or confirmed cars are on the list; everything else is not. */
const ON_LIST = `(i.released_at is null and v.status in ('invited', 'confirmed'))`;

/** When anything a gate shows of this invitation last changed. */
const CHANGED_AT = `greatest(i.issued_at, v.updated_at, i.released_at, s.received_at, fp.updated_at)`;

/**
 * The edition's list in start-number order: the cars on it, or (with `changedAfter`) every one that
 * changed since.
 */
export function gateListRows(
  em: EntityManager,
  editionId: string,
  changedAfter: Date | null,
): Promise<GateListRow[]> {
  return selectRows<GateListRow>(
    em,
    `select i.id, i.start_number, i.parking_zone, i.qr_code, i.checked_in_at, s.gate,
            v.name, v.brand, v.model, v.color, v.status, ${ON_LIST} as on_list, ${FEE_OPEN_CENTS} as fee_open_cents
       from invitation i
       join vehicle v on v.id = i.vehicle_id
       left join check_in_scan s on s.id = i.checked_in_scan_id
       left join payment fp on fp.invitation_id = i.id
      where i.edition_id = ? and ${changedAfter ? `${CHANGED_AT} > ?` : ON_LIST}
      order by i.start_number`,
    changedAfter ? [editionId, changedAfter] : [editionId],
  );
}

export async function countOnList(em: EntityManager, editionId: string): Promise<number> {
  const [counted] = await selectRows<{ total: number }>(
    em,
    `select count(*)::int as total from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and ${ON_LIST}`,
    [editionId],
  );
  return counted?.total ?? 0;
}

/** Per zone of the edition: the cars expected (holding confirmed, or in already) and those in. */
export function arrivalsPerZone(
  em: EntityManager,
  editionId: string,
): Promise<Array<{ zone: string; expected: number; arrived: number }>> {
  return selectRows(
    em,
    `select i.parking_zone as zone,
            count(*) filter (where (i.released_at is null and v.status = 'confirmed') or i.checked_in_at is not null)::int as expected,
            count(*) filter (where i.checked_in_at is not null)::int as arrived
       from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ?
      group by i.parking_zone`,
    [editionId],
  );
}

/** Every check-in's time in the edition, earliest first. */
export function arrivalTimes(em: EntityManager, editionId: string): Promise<Array<{ at: Date }>> {
  return selectRows(
    em,
    `select checked_in_at as at from invitation
      where edition_id = ? and checked_in_at is not null order by checked_in_at`,
    [editionId],
  );
}

export interface RecentScanRow {
  start_number: number;
  name: string | null;
  brand: string;
  model: string;
  zone: string;
  gate: string;
  scanned_at: Date;
  admitted: boolean;
}

/** The edition's newest scans of all gates, with whether each let its car in. */
export function recentScans(em: EntityManager, editionId: string, limit: number): Promise<RecentScanRow[]> {
  return selectRows(
    em,
    `select i.start_number, v.name, v.brand, v.model, i.parking_zone as zone, s.gate, s.scanned_at,
            (i.checked_in_scan_id = s.id) as admitted
       from check_in_scan s
       join invitation i on i.id = s.invitation_id
       join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ?
      order by s.scanned_at desc, s.id
      limit ?`,
    [editionId, limit],
  );
}
