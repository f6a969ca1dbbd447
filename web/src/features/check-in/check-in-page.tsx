import { CheckInSchema, VISITOR_GATE_MESSAGES } from '@schlosstreffen/shared';
import { useForm, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { GATE_PAGE_CACHE } from './gate-page-cache';
import type { CheckInOutcome, FeeOpenOutcome, VisitorDirection } from './check-in-api';
import { GateStatus } from './gate-status';
import { useGate } from './use-gate';
import { CheckInCamera } from './check-in-camera';
import { RecentCheckIns, scanKey, useRecentCheckIns } from './check-in-recent';
import { announcementOf, CheckInPending, CheckInResult, lookOf, type VerdictLook } from './check-in-result';

/** A code the camera keeps seeing is sent once; it counts as new after this long out of sight. */
const SAME_CODE_WINDOW_MS = 4000;

const INPUT_ID = 'check-in-code';
const STAGE_ID = 'check-in-stage';

/** How long '+1 Tageskasse' shows that it counted. */
const WALK_IN_NOTICE_MS = 2500;

const VIBRATION: Record<VerdictLook, number | number[]> = {
  'checked-in': 120,
  already: [90, 60, 90],
  unknown: [250, 100, 250],
  'not-confirmed': [250, 100, 250],
  'fee-open': [250, 100, 250],
  error: [250, 100, 250],
};

/**
 * A code to check in (a visitor ticket scanned in or out by `direction`), or 'Bar bezahlt' on its
 * 'Startgeld offen' verdict (then checked in).
 */
interface GateAction {
  code: string;
  cash?: FeeOpenOutcome;
  direction?: VisitorDirection;
}

function vibrate(look: VerdictLook): void {
  if (typeof navigator.vibrate !== 'function') return;
  try {
    navigator.vibrate(VIBRATION[look]);
  } catch {
    // Some browsers refuse without a recent tap; the colour says it all the same.
  }
}

function focusById(id: string): void {
  document.getElementById(id)?.focus();
}

/** Whether an outcome found what was scanned (the box clears for the next one), rather than a typo. */
function found(outcome: CheckInOutcome): boolean {
  if (outcome.kind === 'visitor') return outcome.reason !== 'ticket_invalid';
  return outcome.kind === 'checked-in' || outcome.kind === 'already' || outcome.kind === 'fee-open';
}

/**
 * Event-day check-in at the gate (staff): scan the invitation's or the visitor ticket's QR code or
 * type the code or start number; the answer fills the camera stage in green, amber or red, and the
 * last check-ins of this session are listed below. Where the edition has visitor tickets, walk-ins
 * are counted here ('+1 Tageskasse'), and where they are scanned at the exit too, a switch sets
 * which way a ticket is scanned.
 */
export function AdminCheckInPage() {
  const gate = useGate();
  const tickets = gate.meta?.tickets ?? null;
  const [chosenDirection, setDirection] = useState<VisitorDirection>('in');
  // Cars always come in; tickets go out only where the edition scans the exit.
  const direction: VisitorDirection = tickets?.exitScanning ? chosenDirection : 'in';
  const directionRef = useRef(direction);
  directionRef.current = direction;
  const recent = useRecentCheckIns();
  const addRecent = recent.add;
  const [announcement, setAnnouncement] = useState('');
  const resultRef = useRef<HTMLDivElement>(null);
  const cameraRunning = useRef(false);
  const pending = useRef(false);
  const lastScan = useRef<{ code: string; seenAt: number } | null>(null);

  const checkIn = useMutation({
    mutationFn: ({ code, cash, direction: way }: GateAction) =>
      cash ? gate.payCash(cash) : gate.checkIn(code, { direction: way ?? directionRef.current }),
    networkMode: 'always',
    onMutate: () => {
      pending.current = true;
      setAnnouncement('');
    },
    onSuccess: (outcome) => {
      vibrate(lookOf(outcome));
      setAnnouncement(announcementOf(outcome));
      if (outcome.kind === 'checked-in') addRecent(outcome.view);
    },
    onSettled: () => {
      pending.current = false;
    },
  });
  const { mutate, mutateAsync, reset: resetResult } = checkIn;

  const form = useForm({
    defaultValues: { code: '' },
    validators: { onChange: CheckInSchema },
    onSubmit: async ({ value, formApi }) => {
      const { code } = v.parse(CheckInSchema, value);
      const outcome = await mutateAsync({ code });
      // A typo stays in the box to be corrected; a found car or ticket clears it for the next one.
      if (found(outcome)) formApi.reset();
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  const busy = submitting || checkIn.isPending;

  const handleScan = useCallback(
    (raw: string) => {
      const code = raw.trim();
      if (!code) return;
      const now = Date.now();
      const last = lastScan.current;
      const seenJustNow = last?.code === code && now - last.seenAt < SAME_CODE_WINDOW_MS;
      if (pending.current) {
        if (seenJustNow) lastScan.current = { code, seenAt: now };
        return;
      }
      lastScan.current = { code, seenAt: now };
      if (!seenJustNow) mutate({ code });
    },
    [mutate],
  );

  const onRunningChange = useCallback((running: boolean) => {
    cameraRunning.current = running;
  }, []);

  const next = () => {
    resetResult();
    setAnnouncement('');
    form.reset();
    focusById(cameraRunning.current ? STAGE_ID : INPUT_ID);
  };

  // The service worker keeps this screen's code on the device, and the page itself goes into its
  // cache at once (the worker only sees the next navigation), so it opens again without network.
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open(GATE_PAGE_CACHE))
      .then((cache) => cache.add(window.location.pathname))
      .catch(() => undefined);
  }, []);

  // A keyboard or a hand scanner at a desk types straight away; phones keep their keyboard closed.
  useEffect(() => {
    if (window.matchMedia?.('(pointer: fine)').matches) focusById(INPUT_ID);
  }, []);

  const outcome = checkIn.data;
  useEffect(() => {
    if (outcome) resultRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [outcome]);

  const overlay = checkIn.isPending ? (
    <CheckInPending
      code={checkIn.variables.code}
      label={checkIn.variables.cash ? 'Bar bezahlt wird gebucht...' : undefined}
    />
  ) : outcome ? (
    <CheckInResult
      ref={resultRef}
      outcome={outcome}
      online={gate.online}
      onNext={next}
      onRetry={() => mutate({ code: outcome.code })}
      onPayCash={
        outcome.kind === 'fee-open' ? () => mutate({ code: outcome.code, cash: outcome }) : undefined
      }
    />
  ) : null;

  return (
    <section className="flex flex-1 flex-col gap-5">
      <header>
        <h1 className="font-display text-3xl text-parchment sm:text-4xl">Check-in</h1>
        <p className="mt-1 text-sm text-ash-300 sm:text-base">
          QR-Code aus der Einladung oder vom Besucherticket scannen oder Check-in-Code bzw. Startnummer
          eingeben.
        </p>
      </header>
      <p aria-live="assertive" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
      {tickets ? (
        <VisitorControls
          exitScanning={tickets.exitScanning}
          direction={direction}
          onDirection={setDirection}
          onWalkIn={gate.walkIn}
        />
      ) : null}
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
        <CheckInCamera
          stageId={STAGE_ID}
          onCode={handleScan}
          overlay={overlay}
          onRunningChange={onRunningChange}
        />
        <div className="flex min-w-0 flex-col gap-5">
          <form
            noValidate
            aria-label="Code eingeben"
            className="flex flex-col gap-3 rounded-3xl border border-white/10 bg-night-900/80 p-5"
            onSubmit={(event) => {
              event.preventDefault();
              event.stopPropagation();
              void form.handleSubmit();
            }}
          >
            <form.Field name="code">
              {(field) => (
                <TextField
                  field={field}
                  id={INPUT_ID}
                  label="Check-in-Code oder Startnummer"
                  type="text"
                  inputMode="text"
                  enterKeyHint="go"
                  autoComplete="off"
                  autoCapitalize="none"
                  autoCorrect="off"
                  spellCheck={false}
                  className="min-h-14 text-lg"
                />
              )}
            </form.Field>
            <Button type="submit" disabled={busy} className="min-h-14 w-full text-base">
              {busy ? (
                <>
                  <Spinner />
                  Prüfe...
                </>
              ) : (
                'Einchecken'
              )}
            </Button>
          </form>
          <GateStatus gate={gate} />
          <RecentCheckIns
            items={recent.items}
            refused={
              new Set(
                gate.scans
                  .filter((scan) => scan.state === 'refused')
                  .map((scan) => scanKey(scan.startNumber, scan.scannedAt)),
              )
            }
          />
        </div>
      </div>
    </section>
  );
}

/** The two ways a ticket scan counts, each with its colour while chosen. */
const DIRECTIONS: Array<{ value: VisitorDirection; label: string; active: string }> = [
  { value: 'in', label: 'Eingang', active: 'bg-emerald-700 text-white ring-4 ring-emerald-300/60' },
  { value: 'out', label: 'Ausgang', active: 'bg-sky-700 text-white ring-4 ring-sky-300/60' },
];

const directionClass =
  'inline-flex min-h-16 flex-1 items-center justify-center rounded-2xl px-4 text-xl font-black tracking-wide transition-colors';

/**
 * The visitors' controls: 'Eingang' / 'Ausgang' (where tickets are scanned at the exit too) for the
 * way ticket scans count, and '+1 Tageskasse' for one visitor who paid at the till.
 */
function VisitorControls({
  exitScanning,
  direction,
  onDirection,
  onWalkIn,
}: {
  exitScanning: boolean;
  direction: VisitorDirection;
  onDirection: (direction: VisitorDirection) => void;
  onWalkIn: () => Promise<void>;
}) {
  const [notice, setNotice] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const walkIn = async () => {
    if (timer.current) clearTimeout(timer.current);
    try {
      await onWalkIn();
      vibrate('checked-in');
      setNotice(VISITOR_GATE_MESSAGES.walkIn);
    } catch {
      setNotice('Nicht gezählt: Dieses Gerät kann keine Besucher speichern.');
    }
    timer.current = setTimeout(() => setNotice(''), WALK_IN_NOTICE_MS);
  };
  return (
    <div
      data-testid="visitor-controls"
      className="flex flex-col gap-3 rounded-3xl border border-white/10 bg-night-900/80 p-4 sm:flex-row sm:items-center"
    >
      {exitScanning ? (
        <div role="group" aria-label="Besuchertickets scannen am" className="flex flex-1 gap-3">
          {DIRECTIONS.map(({ value, label, active }) => (
            <button
              key={value}
              type="button"
              aria-pressed={direction === value}
              onClick={() => onDirection(value)}
              className={`${directionClass} ${
                direction === value ? active : 'border-2 border-white/20 text-ash-300 hover:bg-white/5'
              }`}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
      <div className="flex flex-col gap-1 sm:w-56">
        <Button
          type="button"
          variant="secondary"
          className="min-h-16 w-full text-lg"
          onClick={() => void walkIn()}
        >
          {VISITOR_GATE_MESSAGES.walkInButton}
        </Button>
        <p
          role="status"
          data-testid="walk-in-notice"
          className="min-h-5 text-center text-sm font-semibold text-emerald-200"
        >
          {notice}
        </p>
      </div>
    </div>
  );
}
