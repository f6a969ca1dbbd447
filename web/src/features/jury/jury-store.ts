import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CurrentUser, JuryEntryState, JuryJudgeView, JurySyncResult } from '@schlosstreffen/shared/api';
import { scoreKey, type QueuedEntry, type QueuedRecusal } from './jury-model';

/**
 * A judge's copy of their classes, cars and scores in IndexedDB, for a day at the cars without
 * network: the last view the server sent, the device's id, the judge (for the offline sign-in), and
 * the queue of values and bias declarations the server has not acknowledged yet. Every change is
 * written here first, so a reload or an hour offline loses nothing. Deleted at sign-out and once the
 * jury's deadline has passed. The calls to the server that fill it are in jury-sync.ts.
 */

const DB_NAME = 'schlosstreffen-jury';

export interface StoredJuryView {
  view: JuryJudgeView;
  /** When the server sent the view (ISO). */
  fetchedAt: string;
  /** The last sync's answer time (ISO); null before the first. */
  syncedAt: string | null;
}

/** Who loaded the view: lets the jury screens open again offline, with no email kept. */
export interface JuryJudgeUser {
  id: string;
  firstName: string | null;
  lastName: string | null;
  role: CurrentUser['role'];
}

interface JuryDb extends DBSchema {
  view: { key: 'view'; value: StoredJuryView };
  device: { key: 'device'; value: { deviceId: string } };
  judge: { key: 'judge'; value: JuryJudgeUser };
  entries: { key: string; value: QueuedEntry; indexes: { state: string } };
  recusals: { key: string; value: QueuedRecusal; indexes: { state: string } };
}

let opened: Promise<IDBPDatabase<JuryDb>> | null = null;

function db(): Promise<IDBPDatabase<JuryDb>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('no IndexedDB'));
  opened ??= openDB<JuryDb>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('view');
      database.createObjectStore('device');
      database.createObjectStore('judge');
      database.createObjectStore('entries', { keyPath: 'id' }).createIndex('state', 'state');
      database.createObjectStore('recusals', { keyPath: 'id' }).createIndex('state', 'state');
    },
    blocking() {
      // Another tab deletes the copy (sign-out): let it.
      void opened?.then((database) => database.close());
      opened = null;
    },
  });
  return opened;
}

/** Whether this browser can keep the jury's data on the device. */
export const jurySupported = (): boolean => typeof indexedDB !== 'undefined';

/** Deletes everything the jury kept on this device (sign-out, after the deadline, another judge). */
export async function clearJury(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const current = opened;
  opened = null;
  if (current) (await current.catch(() => null))?.close();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DB_NAME);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/** This device's id, made on first use. */
export async function juryDevice(): Promise<{ deviceId: string }> {
  const database = await db();
  const existing = await database.get('device', 'device');
  if (existing) return existing;
  const device = { deviceId: crypto.randomUUID() };
  await database.put('device', device, 'device');
  return device;
}

export async function storedJuryView(): Promise<StoredJuryView | null> {
  return (await (await db()).get('view', 'view')) ?? null;
}

/**
 * Keeps a view the server sent. One of another judge replaces everything on the device first: a
 * queue is only ever sent by the judge who filled it.
 */
export async function storeJuryView(view: JuryJudgeView, now = new Date()): Promise<StoredJuryView> {
  const before = await storedJuryView();
  if (before && before.view.judge.id !== view.judge.id) await clearJury();
  const stored: StoredJuryView = {
    view,
    fetchedAt: now.toISOString(),
    syncedAt: before && before.view.judge.id === view.judge.id ? before.syncedAt : null,
  };
  await (await db()).put('view', stored, 'view');
  return stored;
}

export async function rememberJuryJudge(judge: JuryJudgeUser): Promise<void> {
  await (await db()).put('judge', judge, 'judge');
}

/** The judge who loaded the view on this device, while the jury's deadline has not passed. */
export async function juryJudge(now = new Date()): Promise<JuryJudgeUser | null> {
  if (typeof indexedDB === 'undefined') return null;
  const database = await db();
  const stored = await database.get('view', 'view');
  if (!stored || new Date(stored.view.closesBy) < now) return null;
  const judge = await database.get('judge', 'judge');
  return judge && judge.id === stored.view.judge.id ? judge : null;
}

export interface JuryQueue {
  entries: QueuedEntry[];
  recusals: QueuedRecusal[];
}

/** The whole queue (pending and refused), the oldest first. */
export async function juryQueue(): Promise<JuryQueue> {
  const database = await db();
  const [entries, recusals] = await Promise.all([database.getAll('entries'), database.getAll('recusals')]);
  const byTime = (a: { enteredAt: string }, b: { enteredAt: string }) =>
    a.enteredAt.localeCompare(b.enteredAt);
  return { entries: entries.sort(byTime), recusals: recusals.sort(byTime) };
}

/** What waits for the server, the oldest first. */
export async function pendingJury(): Promise<JuryQueue> {
  const queue = await juryQueue();
  return {
    entries: queue.entries.filter((entry) => entry.state === 'pending'),
    recusals: queue.recusals.filter((recusal) => recusal.state === 'pending'),
  };
}

/**
 * Queues one value of a card. An older pending value of the same criterion goes: only the last
 * counts (one of them already on its way is acknowledged by id, and this later one still wins).
 */
export async function queueJuryEntry(
  input: Pick<QueuedEntry, 'classId' | 'startNumber' | 'criterion' | 'value'>,
  now = new Date(),
): Promise<QueuedEntry> {
  const entry: QueuedEntry = {
    id: crypto.randomUUID(),
    ...input,
    enteredAt: now.toISOString(),
    state: 'pending',
    message: null,
  };
  const tx = (await db()).transaction('entries', 'readwrite');
  const key = scoreKey(input.classId, input.startNumber, input.criterion);
  for (const other of await tx.store.index('state').getAll('pending')) {
    if (scoreKey(other.classId, other.startNumber, other.criterion) === key) await tx.store.delete(other.id);
  }
  await tx.store.put(entry);
  await tx.done;
  return entry;
}

/** Queues 'Befangen' for a car. */
export async function queueJuryRecusal(startNumber: number, now = new Date()): Promise<QueuedRecusal> {
  const recusal: QueuedRecusal = {
    id: crypto.randomUUID(),
    startNumber,
    enteredAt: now.toISOString(),
    state: 'pending',
    message: null,
  };
  await (await db()).put('recusals', recusal);
  return recusal;
}

const refused = <T extends QueuedEntry | QueuedRecusal>(queued: T, state: JuryEntryState): T => ({
  ...queued,
  state: 'refused',
  message: state.message,
});

/**
 * Merges a sync's answer, in one transaction: the entries and bias declarations it names leave the
 * queue (taken) or stay as refused with the server's reason; the view takes the server's values and
 * declarations as they are now.
 */
export async function storeJurySync(answer: JurySyncResult): Promise<void> {
  const tx = (await db()).transaction(['entries', 'recusals', 'view'], 'readwrite');
  const entries = tx.objectStore('entries');
  for (const state of answer.entries) {
    const queued = await entries.get(state.id);
    if (!queued) continue;
    if (state.result === 'taken') await entries.delete(state.id);
    else await entries.put(refused(queued, state));
  }
  const recusals = tx.objectStore('recusals');
  for (const state of answer.recusals) {
    const queued = await recusals.get(state.id);
    if (!queued) continue;
    if (state.result === 'taken') await recusals.delete(state.id);
    else await recusals.put(refused(queued, state));
  }
  const views = tx.objectStore('view');
  const stored = await views.get('view');
  if (stored) {
    const recused = new Set(answer.recusedStartNumbers);
    await views.put(
      {
        ...stored,
        syncedAt: answer.syncedAt,
        view: {
          ...stored.view,
          scores: answer.scores,
          recusals: answer.recusedStartNumbers,
          cars: stored.view.cars.map((car) =>
            car.excluded === null && recused.has(car.startNumber) ? { ...car, excluded: 'biased' } : car,
          ),
        },
      },
      'view',
    );
  }
  await tx.done;
}

/** Forgets the refused entries and declarations once the judge has read why. */
export async function dismissRefused(): Promise<void> {
  const tx = (await db()).transaction(['entries', 'recusals'], 'readwrite');
  for (const name of ['entries', 'recusals'] as const) {
    const store = tx.objectStore(name);
    for (const key of await store.index('state').getAllKeys('refused')) await store.delete(key);
  }
  await tx.done;
}

/** Deletes the copy once the jury's deadline has passed; true when it did. */
export async function expireJury(now = new Date()): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  const stored = await storedJuryView().catch(() => null);
  if (!stored || new Date(stored.view.closesBy) > now) return false;
  await clearJury();
  return true;
}
