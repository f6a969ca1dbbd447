import { CHECK_IN_MESSAGES, isVisitorTicketCode, ONLINE_GATE } from '@schlosstreffen/shared';
import type { CheckInView, GateEntryData } from '@schlosstreffen/shared/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCurrentUser } from '../../lib/current-user';
import {
  alreadyCheckedInText,
  bookCashPayment,
  CHECK_IN_ERRORS,
  feeOpenOutcome,
  submitCheckIn,
  submitVisitorScan,
  visitorOutcome,
  type CheckInOutcome,
  type FeeOpenOutcome,
  type VisitorDirection,
} from './check-in-api';
import {
  checkInOnDevice,
  countWalkIn,
  expireGate,
  gateDevice,
  gateMeta,
  GateListError,
  gateSupported,
  queuedScans,
  queuedVisitorScans,
  rememberGateStaff,
  renameGate,
  visitorOnDevice,
  type GateDevice,
  type GateMeta,
  type QueuedScan,
  type QueuedVisitorScan,
} from './gate-store';
import { refreshGateList, syncScans } from './gate-sync';

/** While online the list is brought up to date (changes only) and scans' fates fetched this often. */
const REFRESH_MS = 20_000;
const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

interface GateState {
  /** Whether this device holds a list and checks codes against it. */
  ready: boolean;
  online: boolean;
  meta: GateMeta | null;
  device: GateDevice | null;
  scans: QueuedScan[];
  /** This device's visitor scans (tickets in and out, walk-ins), the newest first. */
  visitorScans: QueuedVisitorScan[];
  /** Why the list could not be loaded, in German; null when it could. */
  listError: string | null;
}

function viewOf(entry: GateEntryData, checkedInAt: string | null): CheckInView {
  return {
    startNumber: entry.startNumber,
    parkingZone: entry.zone,
    checkedIn: checkedInAt !== null,
    checkedInAt,
    vehicle: {
      id: entry.id,
      title: entry.name,
      brand: entry.brand,
      model: entry.model,
      year: null,
      color: entry.color,
      status: entry.confirmed ? 'confirmed' : 'invited',
    },
    owner: null,
  };
}

/**
 * The gate on this device: its list, its queue of scans and its connection. Checking in uses the
 * list when there is one (online or not) and the server directly when there is none.
 */
export function useGate() {
  const [state, setState] = useState<GateState>({
    ready: false,
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    meta: null,
    device: null,
    scans: [],
    visitorScans: [],
    listError: null,
  });
  // Read when the list has loaded, without starting the gate's effects again when it changes.
  const { data: user } = useCurrentUser();
  const userRef = useRef(user);
  userRef.current = user;
  const retryDelay = useRef(RETRY_MIN_MS);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const alive = useRef(true);

  const update = useCallback((patch: Partial<GateState>) => {
    if (alive.current) setState((current) => ({ ...current, ...patch }));
  }, []);

  const showScans = useCallback((scans: QueuedScan[]) => update({ scans }), [update]);
  const showVisitorScans = useCallback(
    async () => update({ visitorScans: await queuedVisitorScans().catch(() => []) }),
    [update],
  );

  const sync = useCallback(async (): Promise<void> => {
    if (retryTimer.current) clearTimeout(retryTimer.current);
    retryTimer.current = null;
    try {
      showScans(await syncScans());
      await showVisitorScans();
      retryDelay.current = RETRY_MIN_MS;
    } catch {
      const scans = await queuedScans().catch(() => []);
      const visitorScans = await queuedVisitorScans().catch(() => []);
      update({ scans, visitorScans });
      const waiting = [...scans, ...visitorScans].some((scan) => scan.state === 'pending');
      if (waiting && alive.current) {
        // Backoff: 2 s, 4 s, 8 s … up to a minute, until the server has them.
        retryTimer.current = setTimeout(() => void sync(), retryDelay.current);
        retryDelay.current = Math.min(retryDelay.current * 2, RETRY_MAX_MS);
      }
    }
  }, [showScans, showVisitorScans, update]);

  const refresh = useCallback(async (): Promise<void> => {
    try {
      const meta = await refreshGateList();
      const user = userRef.current;
      if (user?.email && (user.role === 'admin' || user.role === 'reviewer')) {
        await rememberGateStaff({
          id: user.id,
          firstName: user.firstName,
          lastName: user.lastName,
          role: user.role,
        });
      }
      update({ meta, ready: true, listError: null });
    } catch (error) {
      const meta = await gateMeta().catch(() => null);
      update({
        meta,
        ready: meta !== null,
        listError:
          error instanceof GateListError
            ? 'Die Einlassliste ist beschädigt und wurde nicht übernommen.'
            : 'Die Einlassliste konnte nicht geladen werden.',
      });
    }
    await sync();
  }, [sync, update]);

  useEffect(() => {
    alive.current = true;
    if (!gateSupported()) return;
    void (async () => {
      await expireGate();
      const [meta, device] = await Promise.all([gateMeta(), gateDevice()]);
      update({ meta, device, ready: meta !== null });
      showScans(await queuedScans());
      await showVisitorScans();
      if (navigator.onLine) await refresh();
    })().catch(() => update({ ready: false }));
    const onOnline = () => {
      update({ online: true });
      retryDelay.current = RETRY_MIN_MS;
      void refresh();
    };
    const onOffline = () => update({ online: false });
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    const timer = setInterval(() => {
      if (navigator.onLine) void refresh();
    }, REFRESH_MS);
    return () => {
      alive.current = false;
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      clearInterval(timer);
      if (retryTimer.current) clearTimeout(retryTimer.current);
    };
  }, [refresh, showScans, showVisitorScans, update]);

  /** A code this device's list does not hold, at the server: a visitor ticket's, else a car's. */
  const askServer = useCallback(
    async (code: string, direction: VisitorDirection): Promise<CheckInOutcome> => {
      // Checked in at the server before this device's list knew it: read it again, so the list
      // knows it and a second scan says 'already' instead of queueing a duplicate.
      if (isVisitorTicketCode(code)) {
        const answer = await submitVisitorScan(code, direction, state.device?.gate);
        if (answer.kind === 'visitor' && answer.result !== 'refused') void refresh();
        return answer;
      }
      const answer = await submitCheckIn(code);
      if (answer.kind === 'checked-in') void refresh();
      return answer;
    },
    [refresh, state.device],
  );

  /**
   * Checks a code in: against the list on this device when it holds one (a code it does not know is
   * asked at the server while online), else at the server. A car's code or start number first, then
   * a visitor ticket, scanned in or (where exit scanning is on) out by `direction`. `feePaid`: the
   * server has just booked the car's fee, whatever this device's copy of the list still says.
   */
  const checkIn = useCallback(
    async (
      code: string,
      options: { feePaid?: boolean; direction?: VisitorDirection } = {},
    ): Promise<CheckInOutcome> => {
      const direction = options.direction ?? 'in';
      if (!state.ready) return askServer(code, direction);
      const verdict = await checkInOnDevice(code, new Date(), options);
      showScans(await queuedScans());
      if (verdict.kind === 'checked-in') {
        void sync();
        return {
          kind: 'checked-in',
          code,
          message: CHECK_IN_MESSAGES.checked_in,
          view: viewOf(verdict.entry, verdict.at),
        };
      }
      if (verdict.kind === 'already') {
        return {
          kind: 'already',
          code,
          message: alreadyCheckedInText(verdict.at),
          view: viewOf(verdict.entry, verdict.at),
        };
      }
      if (verdict.kind === 'not-confirmed') {
        return {
          kind: 'not-confirmed',
          code,
          message: CHECK_IN_MESSAGES.not_confirmed,
          view: viewOf(verdict.entry, null),
        };
      }
      if (verdict.kind === 'fee-open') {
        return feeOpenOutcome(code, viewOf(verdict.entry, null), verdict.openCents);
      }
      const visitor = await visitorOnDevice(code, direction);
      if (visitor.kind === 'visitor') {
        await showVisitorScans();
        if (visitor.result === 'admitted' || visitor.result === 'readmitted' || visitor.result === 'exited') {
          void sync();
        }
        return visitorOutcome(code, direction, visitor);
      }
      // Not on this device's list: the server may know it (a code of another edition, or one issued
      // since the list was read). Unreachable, the device's verdict stands.
      if (navigator.onLine) {
        const answer = await askServer(code, direction);
        if (answer.kind !== 'error' || !answer.retry) return answer;
      }
      return isVisitorTicketCode(code)
        ? visitorOutcome(code, direction, {
            result: 'refused',
            reason: 'ticket_invalid',
            message: '',
            firstIn: null,
            firstGate: null,
          })
        : { kind: 'unknown', code, message: CHECK_IN_MESSAGES.unknown_code };
    },
    [askServer, showScans, showVisitorScans, state.ready, sync],
  );

  /** '+1 Tageskasse': one walk-in counted on this device, sent with the next sync (also offline). */
  const walkIn = useCallback(async (): Promise<void> => {
    await countWalkIn();
    await showVisitorScans();
    if (navigator.onLine) void sync();
  }, [showVisitorScans, sync]);

  /**
   * 'Bar bezahlt' on a 'Startgeld offen' verdict (online only): books the open fee at the server
   * under this gate's name, reads the list again and checks the car in as usual; the booking's
   * words stand above the new verdict. A booking that fails leaves the verdict, with the reason.
   */
  const payCash = useCallback(
    async (outcome: FeeOpenOutcome): Promise<CheckInOutcome> => {
      if (!navigator.onLine) return { ...outcome, cashError: CHECK_IN_ERRORS.cashOffline };
      const booking = await bookCashPayment(outcome.code, state.device?.gate ?? ONLINE_GATE);
      if (booking.kind === 'failed') return { ...outcome, cashError: booking.message };
      // Booked now, or nothing open at the server (paid meanwhile): either way the fee no longer
      // keeps the car out, even where this device's list has not caught up yet.
      if (state.ready) await refresh();
      const answer = await checkIn(outcome.code, { feePaid: true });
      return answer.kind === 'fee-open'
        ? { ...answer, cashError: booking.message }
        : { ...answer, note: booking.message };
    },
    [checkIn, refresh, state.device, state.ready],
  );

  const rename = useCallback(async (gate: string) => update({ device: await renameGate(gate) }), [update]);

  const pending = state.scans.filter((scan) => scan.state === 'pending').length;
  const pendingVisitors = state.visitorScans.filter((scan) => scan.state === 'pending').length;
  return { ...state, pending, pendingVisitors, checkIn, payCash, rename, walkIn };
}
