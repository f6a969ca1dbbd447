import { chunked, GATE_SYNC_MAX_SCANS } from '@schlosstreffen/shared';
import type { GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { api } from '../../lib/api';
import {
  gateDevice,
  gateMeta,
  pendingScans,
  queuedScans,
  storeGateList,
  storeSyncAnswer,
  verifyGateList,
  type GateMeta,
  type QueuedScan,
} from './gate-store';

const loadList = (since?: string) =>
  api.get<GateList>(`/api/admin/check-in/list${since ? `?since=${encodeURIComponent(since)}` : ''}`);

/**
 * Loads the list from the server: only the changes when this device holds a list of the same key,
 * else the whole. Every entry's signature is checked before it is stored; a list that fails the
 * check is refused whole (GateListError). A failed call throws the API client's error.
 */
export async function refreshGateList(): Promise<GateMeta> {
  const meta = await gateMeta();
  let list = await loadList(meta?.cursor);
  if (list.delta && meta && meta.publicKey !== list.publicKey) list = await loadList();
  const stored = await storeGateList(list, await verifyGateList(list));
  if (list.delta && stored.count !== list.total) {
    // Something left the list unseen (an account deleted): load it whole.
    list = await loadList();
    return storeGateList(list, await verifyGateList(list));
  }
  return stored;
}

/**
 * Sends every scan the server does not have yet, in chunks of at most GATE_SYNC_MAX_SCANS (the
 * server's limit per request), with the cursor of the last answer: each answer names what the
 * server made of the scans sent and of those whose state changed since (a scan admitted here can
 * turn out a duplicate when another gate was earlier, or be refused with its reason: it stays on
 * the device as refused and is not sent again), and is merged into the queue with its new cursor.
 * A chunk the server took is not sent again. Throws when the server cannot be reached; what is
 * left stays queued.
 */
export async function syncScans(): Promise<QueuedScan[]> {
  const pending = await pendingScans();
  // Even with nothing waiting, one request fetches what became of the scans sent before.
  for (const chunk of pending.length ? chunked(pending, GATE_SYNC_MAX_SCANS) : [[]]) {
    const device = await gateDevice();
    const answer = await api.post<GateSyncResult>('/api/admin/check-in/sync', {
      deviceId: device.deviceId,
      gate: device.gate,
      since: device.syncCursor,
      scans: chunk.map(({ id, invitationId, scannedAt }) => ({ id, invitationId, scannedAt })),
    });
    await storeSyncAnswer(answer.scans, answer.cursor);
  }
  return queuedScans();
}
