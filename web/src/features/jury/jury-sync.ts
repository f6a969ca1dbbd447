import { JURY_LIMITS } from '@schlosstreffen/shared';
import type { JuryJudgeView, JurySyncResult } from '@schlosstreffen/shared/api';
import { api } from '../../lib/api';
import { juryDevice, pendingJury, storeJurySync, storeJuryView, type StoredJuryView } from './jury-store';

/** GET /api/jury, kept on the device. A failed call throws the API client's error. */
export async function refreshJuryView(): Promise<StoredJuryView> {
  return storeJuryView(await api.get<JuryJudgeView>('/api/jury'));
}

/**
 * Sends what waits on the device, in chunks the server accepts (at most JURY_LIMITS.syncEntries
 * values and JURY_LIMITS.syncRecusals declarations), each answer merged before the next chunk goes.
 * Sending again is harmless: the server knows every entry by its id. Returns whether anything was
 * sent; throws when the server cannot be reached, and what is left stays queued.
 */
export async function syncJury(): Promise<boolean> {
  const { entries, recusals } = await pendingJury();
  if (entries.length === 0 && recusals.length === 0) return false;
  const { deviceId } = await juryDevice();
  const rounds = Math.max(
    Math.ceil(entries.length / JURY_LIMITS.syncEntries),
    Math.ceil(recusals.length / JURY_LIMITS.syncRecusals),
  );
  for (let round = 0; round < rounds; round += 1) {
    const answer = await api.post<JurySyncResult>('/api/jury/sync', {
      deviceId,
      entries: entries
        .slice(round * JURY_LIMITS.syncEntries, (round + 1) * JURY_LIMITS.syncEntries)
        .map(({ id, classId, startNumber, criterion, value, enteredAt }) => ({
          id,
          classId,
          startNumber,
          criterion,
          value,
          enteredAt,
        })),
      recusals: recusals
        .slice(round * JURY_LIMITS.syncRecusals, (round + 1) * JURY_LIMITS.syncRecusals)
        .map(({ id, startNumber, enteredAt }) => ({ id, startNumber, enteredAt })),
    });
    await storeJurySync(answer);
  }
  return true;
}
