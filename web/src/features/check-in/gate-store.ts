import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { ONLINE_GATE, startNumberOf, VISITOR_GATE_MESSAGES } from '@schlosstreffen/shared';
import type { VisitorScanKind, VisitorScanRefusal } from '@schlosstreffen/shared';
import type {
  GateEntryData,
  GateList,
  GateRefusal,
  GateScanState,
  GateTicketEntry,
  GateTicketsData,
  GateVisitorScanState,
} from '@schlosstreffen/shared/api';
import { alreadyCheckedInText } from './check-in-api';

/**
 * The gate's own copy of the check-in list, in IndexedDB, for the event day's weak network: per
 * invitation only what the gate needs, each entry signed by the server (Ed25519) and checked before
 * it is used; the check-in code only as its SHA-256. The edition's visitor tickets likewise (their
 * part of the list signed as a whole, checked before it is stored), each ticket only as the hash of
 * its code. Scans made here, of cars and of visitors, wait in queues until the server has them. Everything is deleted at logout and once the list has expired. The calls to the
 * server that fill it are in gate-sync.ts.
 */

const DB_NAME = 'schlosstreffen-gate';

export interface GateMeta {
  publicKey: string;
  cursor: string;
  /** When the list was last brought up to date (ISO). */
  fetchedAt: string;
  expiresAt: string;
  /** Cars on the list. */
  count: number;
  /** The edition's visitor tickets on this device; null where it has none. */
  tickets: GateTicketsMeta | null;
}

/** The visitor tickets' part of the list on this device. */
export interface GateTicketsMeta {
  editionId: string;
  /** Tickets are scanned on the way out too: the gate offers 'Eingang' and 'Ausgang'. */
  exitScanning: boolean;
  capacity: number;
  /** Tickets on the device. */
  count: number;
  validUntil: string;
}

export interface GateDevice {
  deviceId: string;
  gate: string;
  /** The cursor of the last sync's answer: the next sync asks only for what changed since. */
  syncCursor?: string;
}

interface StoredEntry {
  id: string;
  codeHash: string;
  startNumber: number;
  data: string;
  sig: string;
}

export interface QueuedScan {
  id: string;
  invitationId: string;
  scannedAt: string;
  startNumber: number;
  name: string;
  zone: string;
  /** pending until the server has it; then what it made of it. */
  state: 'pending' | GateScanState['result'];
  message: string | null;
  /** For a refused scan: why (outside_window: dated outside the gate window; fee_open: its fee was open). */
  reason?: GateRefusal | null;
  /** For a duplicate: the first scan's gate and time. */
  firstGate: string | null;
  firstAt: string | null;
}

/** A visitor scan made here: a ticket in or out, or a walk-in counted at the day's till (no ticket). */
export interface QueuedVisitorScan {
  id: string;
  ticketId: string | null;
  kind: VisitorScanKind;
  scannedAt: string;
  /** pending until the server has it; then what it made of it (refused: not kept, not sent again). */
  state: 'pending' | GateVisitorScanState['result'];
  message: string | null;
  reason: VisitorScanRefusal | null;
  firstIn: string | null;
  firstGate: string | null;
}

/** Who opened the gate: lets the screen open again offline, with no email kept. */
export interface GateStaff {
  id: string;
  firstName: string | null;
  lastName: string | null;
  role: 'admin' | 'reviewer';
}

interface GateDb extends DBSchema {
  meta: { key: 'list'; value: GateMeta };
  staff: { key: 'staff'; value: GateStaff };
  device: { key: 'device'; value: GateDevice };
  entries: { key: string; value: StoredEntry; indexes: { codeHash: string; startNumber: number } };
  scans: { key: string; value: QueuedScan; indexes: { state: string } };
  tickets: { key: string; value: GateTicketEntry; indexes: { hash: string } };
  visitorScans: { key: string; value: QueuedVisitorScan; indexes: { state: string } };
}

let opened: Promise<IDBPDatabase<GateDb>> | null = null;

function db(): Promise<IDBPDatabase<GateDb>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('no IndexedDB'));
  opened ??= openDB<GateDb>(DB_NAME, 2, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        database.createObjectStore('meta');
        database.createObjectStore('device');
        database.createObjectStore('staff');
        const entries = database.createObjectStore('entries', { keyPath: 'id' });
        entries.createIndex('codeHash', 'codeHash', { unique: true });
        entries.createIndex('startNumber', 'startNumber', { unique: true });
        const scans = database.createObjectStore('scans', { keyPath: 'id' });
        scans.createIndex('state', 'state');
      }
      if (oldVersion < 2) {
        // Visitor tickets: a device of version 1 keeps its list, queue and name.
        const tickets = database.createObjectStore('tickets', { keyPath: 'id' });
        tickets.createIndex('hash', 'hash', { unique: true });
        const visitorScans = database.createObjectStore('visitorScans', { keyPath: 'id' });
        visitorScans.createIndex('state', 'state');
      }
    },
    blocking() {
      // Another tab deletes the list (logout): let it.
      void opened?.then((database) => database.close());
      opened = null;
    },
  });
  return opened;
}

/** Whether this browser can hold a gate list at all (IndexedDB and Ed25519 in Web Crypto). */
export function gateSupported(): boolean {
  return typeof indexedDB !== 'undefined' && typeof crypto !== 'undefined' && !!crypto.subtle;
}

/** Deletes the gate list, the queues and the device's name (logout, expiry). */
export async function clearGate(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const current = opened;
  opened = null;
  if (current) (await current.catch(() => null))?.close();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DB_NAME);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const keys = new Map<string, Promise<CryptoKey>>();

function verifyKey(publicKey: string): Promise<CryptoKey> {
  let key = keys.get(publicKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', base64ToBytes(publicKey), { name: 'Ed25519' }, false, ['verify']);
    keys.set(publicKey, key);
  }
  return key;
}

async function verified<T = GateEntryData>(
  publicKey: string,
  entry: { data: string; sig: string },
): Promise<T | null> {
  const ok = await crypto.subtle.verify(
    { name: 'Ed25519' },
    await verifyKey(publicKey),
    base64ToBytes(entry.sig),
    new TextEncoder().encode(entry.data),
  );
  return ok ? (JSON.parse(entry.data) as T) : null;
}

/** SHA-256 of a check-in code, hex, as the list holds it. */
export async function codeHash(code: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function gateMeta(): Promise<GateMeta | null> {
  const meta = await (await db()).get('meta', 'list');
  // A list stored before visitor tickets has no part for them.
  return meta ? { ...meta, tickets: meta.tickets ?? null } : null;
}

/** This device's id and the gate's name (editable; 'Einlass' until named). */
export async function gateDevice(): Promise<GateDevice> {
  const database = await db();
  const existing = await database.get('device', 'device');
  if (existing) return existing;
  const device = { deviceId: crypto.randomUUID(), gate: ONLINE_GATE };
  await database.put('device', device, 'device');
  return device;
}

export async function renameGate(gate: string): Promise<GateDevice> {
  const device = { ...(await gateDevice()), gate };
  await (await db()).put('device', device, 'device');
  return device;
}

export async function rememberGateStaff(staff: GateStaff): Promise<void> {
  await (await db()).put('staff', staff, 'staff');
}

/** The staff member who opened this gate, while its list is valid; null otherwise. */
export async function gateStaff(now = new Date()): Promise<GateStaff | null> {
  if (typeof indexedDB === 'undefined') return null;
  const database = await db();
  const meta = await database.get('meta', 'list');
  if (!meta || new Date(meta.expiresAt) < now) return null;
  return (await database.get('staff', 'staff')) ?? null;
}

/** A list whose signatures do not hold: refused whole. */
export class GateListError extends Error {}

/** The list's entries, each checked against its signature; throws GateListError when one fails. */
export async function verifyGateList(list: GateList): Promise<GateEntryData[]> {
  const checked = await Promise.all(list.entries.map((entry) => verified(list.publicKey, entry)));
  if (checked.some((entry) => entry === null)) throw new GateListError('Signatur ungültig');
  return checked as GateEntryData[];
}

/**
 * The list's visitor tickets' part, checked against its signature (null where the edition has
 * none); throws GateListError when it fails, so the list is refused whole.
 */
export async function verifyGateTickets(list: GateList): Promise<GateTicketsData | null> {
  if (!list.tickets) return null;
  const data = await verified<GateTicketsData>(list.publicKey, list.tickets);
  if (!data) throw new GateListError('Signatur ungültig');
  return data;
}

/**
 * Stores a list the server sent (its entries and its tickets' part verified): whole, replacing the
 * copy here, or as the changes since this copy. Returns the new state: how many cars and tickets
 * the device now holds. Without a tickets' part (the edition has none) the tickets here go.
 */
export async function storeGateList(
  list: GateList,
  entries: GateEntryData[],
  tickets: GateTicketsData | null,
): Promise<GateMeta> {
  const tx = (await db()).transaction(['entries', 'tickets', 'meta'], 'readwrite');
  const store = tx.objectStore('entries');
  if (!list.delta) await store.clear();
  for (const id of list.removed) await store.delete(id);
  for (const [index, data] of entries.entries()) {
    // A start number or code that moved to another invitation leaves its old entry first.
    for (const indexName of ['codeHash', 'startNumber'] as const) {
      const value = indexName === 'codeHash' ? data.codeHash : data.startNumber;
      const other = await store.index(indexName).getKey(value);
      if (other && other !== data.id) await store.delete(other);
    }
    const signed = list.entries[index]!;
    await store.put({ id: data.id, codeHash: data.codeHash, startNumber: data.startNumber, ...signed });
  }
  const ticketStore = tx.objectStore('tickets');
  const before = (await tx.objectStore('meta').get('list'))?.tickets ?? null;
  // A delta adds to the tickets here only when they are the same edition's.
  const cleared = !tickets || !list.delta || before?.editionId !== tickets.editionId;
  if (cleared) await ticketStore.clear();
  if (tickets) {
    for (const id of tickets.removed) await ticketStore.delete(id);
    for (const ticket of tickets.entries) {
      // Merged into a kept copy: a code held by another entry leaves it first (a whole list starts empty).
      const other = cleared ? undefined : await ticketStore.index('hash').getKey(ticket.hash);
      if (other && other !== ticket.id) await ticketStore.delete(other);
      await ticketStore.put({
        id: ticket.id,
        hash: ticket.hash,
        firstIn: ticket.firstIn,
        firstGate: ticket.firstGate,
        inside: ticket.inside,
        last: ticket.last,
      });
    }
  }
  const next: GateMeta = {
    publicKey: list.publicKey,
    cursor: list.cursor,
    fetchedAt: new Date().toISOString(),
    expiresAt: list.expiresAt,
    count: await store.count(),
    tickets: tickets && {
      editionId: tickets.editionId,
      exitScanning: tickets.exitScanning,
      capacity: tickets.capacity,
      count: await ticketStore.count(),
      validUntil: tickets.validUntil,
    },
  };
  await tx.objectStore('meta').put(next, 'list');
  await tx.done;
  return next;
}

export type GateVerdict =
  | { kind: 'checked-in'; entry: GateEntryData; at: string }
  | { kind: 'already'; entry: GateEntryData; at: string }
  | { kind: 'not-confirmed'; entry: GateEntryData }
  /** Confirmed, but its fee is open: not let in, nothing queued, until 'Bar bezahlt' is booked. */
  | { kind: 'fee-open'; entry: GateEntryData; openCents: number }
  | { kind: 'unknown' };

/** The entry for a typed start number or a scanned code, checked against its signature and expiry. */
async function findEntry(code: string, now: Date): Promise<GateEntryData | null> {
  const database = await db();
  const meta = await database.get('meta', 'list');
  if (!meta) return null;
  const startNumber = startNumberOf(code);
  const stored =
    startNumber === null
      ? await database.getFromIndex('entries', 'codeHash', await codeHash(code))
      : await database.getFromIndex('entries', 'startNumber', startNumber);
  if (!stored) return null;
  const data = await verified(meta.publicKey, stored);
  if (!data || new Date(data.validUntil) < now) return null;
  return data;
}

/**
 * Checks a code against the list on this device, without the network: a confirmed car not yet in
 * whose fee is not open is admitted here and its scan queued for the server. `feePaid`: the fee
 * was just booked at the server ('Bar bezahlt'), so an open fee on this device's older copy of the
 * list no longer keeps the car out.
 */
export async function checkInOnDevice(
  code: string,
  now = new Date(),
  { feePaid = false }: { feePaid?: boolean } = {},
): Promise<GateVerdict> {
  const entry = await findEntry(code, now);
  if (!entry) return { kind: 'unknown' };
  const database = await db();
  const tx = database.transaction('scans', 'readwrite');
  const scans = await tx.store.getAll();
  const mine = scans
    .filter((scan) => scan.invitationId === entry.id && scan.state !== 'refused')
    .sort((a, b) => a.scannedAt.localeCompare(b.scannedAt))[0];
  if (entry.checkedInAt || mine) {
    await tx.done;
    const times = [entry.checkedInAt, mine?.scannedAt].filter((time): time is string => !!time).sort();
    return { kind: 'already', entry, at: times[0]! };
  }
  if (!entry.confirmed) {
    await tx.done;
    return { kind: 'not-confirmed', entry };
  }
  const openCents = entry.feeOpenCents ?? 0;
  if (openCents > 0 && !feePaid) {
    await tx.done;
    return { kind: 'fee-open', entry, openCents };
  }
  const scan: QueuedScan = {
    id: crypto.randomUUID(),
    invitationId: entry.id,
    scannedAt: now.toISOString(),
    startNumber: entry.startNumber,
    name: entry.name,
    zone: entry.zone,
    state: 'pending',
    message: null,
    firstGate: null,
    firstAt: null,
  };
  await tx.store.put(scan);
  await tx.done;
  return { kind: 'checked-in', entry, at: scan.scannedAt };
}

/** A queue's scans by the time they were made: the newest first for the screen, else the oldest. */
const byTime = <T extends { scannedAt: string }>(scans: T[], newestFirst: boolean): T[] =>
  scans.sort((a, b) => (newestFirst ? -1 : 1) * a.scannedAt.localeCompare(b.scannedAt));

export async function queuedScans(): Promise<QueuedScan[]> {
  return byTime(await (await db()).getAll('scans'), true);
}

/** The scans still waiting for the server, the oldest first (a car's earliest scan reaches it first). */
export async function pendingScans(): Promise<QueuedScan[]> {
  return byTime(await (await db()).getAllFromIndex('scans', 'state', 'pending'), false);
}

/**
 * Merges a sync's answer into the queues, by scan id: what the server made of each scan it names,
 * of cars and of visitors (the others keep their state), and the answer's cursor for the next
 * sync, in one transaction.
 */
export async function storeSyncAnswer(
  states: GateScanState[],
  cursor: string,
  visitorStates: GateVisitorScanState[] = [],
): Promise<void> {
  const tx = (await db()).transaction(['scans', 'visitorScans', 'device'], 'readwrite');
  const scans = tx.objectStore('scans');
  for (const state of states) {
    const scan = await scans.get(state.id);
    if (!scan) continue;
    await scans.put({
      ...scan,
      state: state.result,
      message: state.result === 'admitted' ? null : state.message,
      reason: state.reason,
      firstGate: state.gate,
      firstAt: state.checkedInAt,
    });
  }
  const visitorScans = tx.objectStore('visitorScans');
  for (const state of visitorStates) {
    const scan = await visitorScans.get(state.id);
    if (!scan) continue;
    const plain = state.result === 'admitted' || state.result === 'readmitted' || state.result === 'exited';
    await visitorScans.put({
      ...scan,
      state: state.result,
      message: plain ? null : state.message,
      reason: state.reason,
      firstIn: state.firstIn,
      firstGate: state.firstGate,
    });
  }
  const devices = tx.objectStore('device');
  const device = await devices.get('device');
  if (device) await devices.put({ ...device, syncCursor: cursor }, 'device');
  await tx.done;
}

/**
 * The device's verdict on a visitor ticket: its result as the server would count it (`duplicate`:
 * already on the grounds), the gate's words for it, and the ticket's first entry.
 */
export type VisitorVerdict =
  | {
      kind: 'visitor';
      ticketId: string;
      result: GateVisitorScanState['result'];
      reason: VisitorScanRefusal | null;
      message: string;
      firstIn: string | null;
      firstGate: string | null;
    }
  | { kind: 'unknown' };

/**
 * Checks a scanned code against the visitor tickets on this device, without the network. Where the
 * ticket stands is the list's (`inside`, as of `last`) with this device's own later scans replayed
 * on top. In: a ticket not on the grounds is let in (admitted, or readmitted after an exit) and
 * its scan queued; one on the grounds is 'Bereits eingecheckt um … Uhr', nothing queued. Out
 * (where exit scanning is on): a ticket on the grounds leaves and its scan is queued; one not on
 * them is not_inside, nothing queued.
 */
export async function visitorOnDevice(
  code: string,
  kind: 'in' | 'out',
  now = new Date(),
): Promise<VisitorVerdict> {
  const database = await db();
  const tickets = (await database.get('meta', 'list'))?.tickets;
  if (!tickets || new Date(tickets.validUntil) < now) return { kind: 'unknown' };
  const entry = await database.getFromIndex('tickets', 'hash', await codeHash(code));
  if (!entry) return { kind: 'unknown' };
  const gate = (await database.get('device', 'device'))?.gate ?? ONLINE_GATE;
  const tx = database.transaction('visitorScans', 'readwrite');
  const mine = (await tx.store.getAll())
    .filter((scan) => scan.ticketId === entry.id && scan.state !== 'refused')
    .sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
  let inside = entry.inside;
  for (const scan of mine) {
    if (entry.last !== null && scan.scannedAt <= entry.last) continue;
    if (scan.kind === 'in') inside = true;
    else if (scan.kind === 'out') inside = false;
  }
  // The first entry: the list's, or this device's first scan in when that was earlier.
  const myFirst = mine.find((scan) => scan.kind === 'in')?.scannedAt ?? null;
  const listFirst = entry.firstIn !== null && (myFirst === null || entry.firstIn <= myFirst);
  const firstIn = listFirst ? entry.firstIn : myFirst;
  const firstGate = listFirst ? entry.firstGate : myFirst ? gate : null;
  const verdict = (
    result: GateVisitorScanState['result'],
    message: string,
    first: { firstIn: string | null; firstGate: string | null } = { firstIn, firstGate },
    reason: VisitorScanRefusal | null = null,
  ): VisitorVerdict => ({ kind: 'visitor', ticketId: entry.id, result, reason, message, ...first });
  const queue = async (scanKind: 'in' | 'out') => {
    await tx.store.put({
      id: crypto.randomUUID(),
      ticketId: entry.id,
      kind: scanKind,
      scannedAt: now.toISOString(),
      state: 'pending',
      message: null,
      reason: null,
      firstIn: null,
      firstGate: null,
    });
    await tx.done;
  };
  if (kind === 'out') {
    if (!tickets.exitScanning) {
      await tx.done;
      return verdict('refused', VISITOR_GATE_MESSAGES.exit_off, undefined, 'exit_off');
    }
    if (!inside) {
      await tx.done;
      return verdict('not_inside', VISITOR_GATE_MESSAGES.not_inside);
    }
    await queue('out');
    return verdict('exited', VISITOR_GATE_MESSAGES.exited);
  }
  if (inside) {
    await tx.done;
    return verdict('duplicate', alreadyCheckedInText(firstIn));
  }
  await queue('in');
  return firstIn === null
    ? verdict('admitted', VISITOR_GATE_MESSAGES.admitted, { firstIn: now.toISOString(), firstGate: gate })
    : verdict('readmitted', VISITOR_GATE_MESSAGES.readmitted);
}

/** '+1 Tageskasse': one visitor who paid at the day's till, counted here and queued for the server. */
export async function countWalkIn(now = new Date()): Promise<QueuedVisitorScan> {
  const scan: QueuedVisitorScan = {
    id: crypto.randomUUID(),
    ticketId: null,
    kind: 'walk_in',
    scannedAt: now.toISOString(),
    state: 'pending',
    message: null,
    reason: null,
    firstIn: null,
    firstGate: null,
  };
  await (await db()).put('visitorScans', scan);
  return scan;
}

/** This device's visitor scans, the newest first. */
export async function queuedVisitorScans(): Promise<QueuedVisitorScan[]> {
  return byTime(await (await db()).getAll('visitorScans'), true);
}

/** The visitor scans still waiting for the server, the oldest first. */
export async function pendingVisitorScans(): Promise<QueuedVisitorScan[]> {
  return byTime(await (await db()).getAllFromIndex('visitorScans', 'state', 'pending'), false);
}

/** Deletes the list when it has expired (the day after the event); true when it did. */
export async function expireGate(now = new Date()): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  const meta = await gateMeta().catch(() => null);
  if (!meta || new Date(meta.expiresAt) > now) return false;
  await clearGate();
  return true;
}
