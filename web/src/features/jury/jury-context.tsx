import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { isApiError } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { juryModel, type JuryModel } from './jury-model';
import {
  clearJury,
  dismissRefused,
  expireJury,
  juryQueue,
  jurySupported,
  queueJuryEntry,
  queueJuryRecusal,
  rememberJuryJudge,
  storedJuryView,
  type JuryQueue,
  type StoredJuryView,
} from './jury-store';
import { refreshJuryView, syncJury } from './jury-sync';

/** While values wait, they are sent again this often (and at once when the network returns). */
export const JURY_SYNC_MS = 30_000;
/** While the screens stay open and online, the view (classes closed meanwhile) is read again this often. */
const JURY_REFRESH_MS = 120_000;

export const OFFLINE_TEXT =
  'Keine Verbindung. Ihre Bewertungen bleiben auf diesem Gerät und werden gesendet, sobald das Netz wieder da ist.';

interface JuryState {
  supported: boolean;
  /** The device's copy has been read (there may be none). */
  loaded: boolean;
  stored: StoredJuryView | null;
  queue: JuryQueue;
  /** The browser says so, and the last request reached the server. */
  online: boolean;
  /** GET /api/jury is running. */
  fetching: boolean;
  /** Why the view could not be loaded: the status (0: no connection) and what to tell the judge. */
  loadError: { status: number; message: string } | null;
  /** What the server said to a sync it refused whole (a connection failure is no error). */
  syncError: string | null;
}

export interface JuryDevice extends JuryState {
  model: JuryModel | null;
  /** Values and declarations waiting for the server. */
  pending: number;
  setScore: (classId: string, startNumber: number, criterion: string, value: number) => Promise<void>;
  recuse: (startNumber: number) => Promise<void>;
  dismissRefused: () => Promise<void>;
  reload: () => Promise<void>;
  sync: () => Promise<void>;
}

const EMPTY_QUEUE: JuryQueue = { entries: [], recusals: [] };

function loadErrorOf(error: unknown): JuryState['loadError'] {
  if (!isApiError(error)) return { status: 0, message: OFFLINE_TEXT };
  if (error.status === 401) return { status: 401, message: 'Bitte melden Sie sich erneut an.' };
  return {
    status: error.status,
    message: error.fromBody ? error.serverMessage : 'Die Jury-Daten konnten nicht geladen werden.',
  };
}

/**
 * The jury on this device: the copy in IndexedDB, the queue and the connection. Every value goes into
 * the queue first and is sent at once while online, again when the network returns and every
 * JURY_SYNC_MS while something waits.
 */
function useJuryDevice(): JuryDevice {
  const [state, setState] = useState<JuryState>(() => ({
    supported: jurySupported(),
    loaded: false,
    stored: null,
    queue: EMPTY_QUEUE,
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    fetching: false,
    loadError: null,
    syncError: null,
  }));
  const { data: user } = useCurrentUser();
  const userRef = useRef(user);
  userRef.current = user;
  const alive = useRef(true);
  const syncing = useRef<Promise<void> | null>(null);
  const again = useRef(false);

  const update = useCallback((patch: Partial<JuryState>) => {
    if (alive.current) setState((current) => ({ ...current, ...patch }));
  }, []);

  /** Reads the device's copy into the screen. */
  const show = useCallback(async () => {
    const [stored, queue] = await Promise.all([storedJuryView(), juryQueue()]);
    update({ stored, queue, loaded: true });
  }, [update]);

  const sync = useCallback((): Promise<void> => {
    if (syncing.current) {
      again.current = true;
      return syncing.current;
    }
    const run = (async () => {
      do {
        again.current = false;
        try {
          if (await syncJury()) update({ syncError: null, online: true });
        } catch (error) {
          // Unreachable (no answer at all): it stays queued for the next try. Refused whole: say why.
          if (isApiError(error) && error.status !== 0)
            update({ syncError: error.fromBody ? error.serverMessage : null });
          else update({ online: false });
          again.current = false;
        }
        await show().catch(() => undefined);
      } while (again.current);
    })().finally(() => {
      syncing.current = null;
    });
    syncing.current = run;
    return run;
  }, [show, update]);

  const reload = useCallback(async () => {
    update({ fetching: true });
    try {
      const stored = await refreshJuryView();
      const current = userRef.current;
      if (current?.email && current.id === stored.view.judge.id) {
        await rememberJuryJudge({
          id: current.id,
          firstName: current.firstName,
          lastName: current.lastName,
          role: current.role,
        });
      }
      update({ loadError: null, online: true });
    } catch (error) {
      const loadError = loadErrorOf(error);
      if (loadError?.status === 0) update({ online: false });
      // No longer a judge of this edition: nothing of the jury stays on the device.
      if (loadError?.status === 403) await clearJury();
      update({ loadError });
    } finally {
      update({ fetching: false });
    }
    await show().catch(() => undefined);
  }, [show, update]);

  useEffect(() => {
    alive.current = true;
    if (!jurySupported()) {
      update({ loaded: true });
      return undefined;
    }
    void (async () => {
      await expireJury();
      await show();
      if (navigator.onLine) {
        await reload();
        await sync();
      }
    })().catch(() => update({ loaded: true }));
    const onOnline = () => {
      update({ online: true });
      void reload().then(sync);
    };
    const onOffline = () => update({ online: false });
    const onVisible = () => {
      if (document.visibilityState === 'visible' && navigator.onLine) void reload().then(sync);
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    const syncTimer = setInterval(() => {
      if (navigator.onLine) void sync();
    }, JURY_SYNC_MS);
    const refreshTimer = setInterval(() => {
      if (navigator.onLine) void reload();
    }, JURY_REFRESH_MS);
    return () => {
      alive.current = false;
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      document.removeEventListener('visibilitychange', onVisible);
      clearInterval(syncTimer);
      clearInterval(refreshTimer);
    };
  }, [reload, show, sync, update]);

  const setScore = useCallback(
    async (classId: string, startNumber: number, criterion: string, value: number) => {
      await queueJuryEntry({ classId, startNumber, criterion, value });
      await show();
      // The browser knows it has no network (its 'offline' event may come late, or not at all).
      if (navigator.onLine) void sync();
      else update({ online: false });
    },
    [show, sync, update],
  );

  const recuse = useCallback(
    async (startNumber: number) => {
      await queueJuryRecusal(startNumber);
      await show();
      // The browser knows it has no network (its 'offline' event may come late, or not at all).
      if (navigator.onLine) void sync();
      else update({ online: false });
    },
    [show, sync, update],
  );

  const dismiss = useCallback(async () => {
    await dismissRefused();
    await show();
  }, [show]);

  const view = state.stored?.view ?? null;
  const model = useMemo(
    () => (view ? juryModel(view, state.queue.entries, state.queue.recusals) : null),
    [view, state.queue],
  );
  const pending =
    state.queue.entries.filter((entry) => entry.state === 'pending').length +
    state.queue.recusals.filter((recusal) => recusal.state === 'pending').length;

  return { ...state, model, pending, setScore, recuse, dismissRefused: dismiss, reload, sync };
}

const JuryContext = createContext<JuryDevice | null>(null);

/** Holds the jury's device state for every jury screen below it (one queue, one timer). */
export function JuryProvider({ children }: { children: ReactNode }) {
  const jury = useJuryDevice();
  return <JuryContext.Provider value={jury}>{children}</JuryContext.Provider>;
}

export function useJury(): JuryDevice {
  const jury = useContext(JuryContext);
  if (!jury) throw new Error('useJury outside JuryProvider');
  return jury;
}
