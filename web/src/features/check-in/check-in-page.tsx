import { CheckInSchema } from '@schlosstreffen/shared';
import { useForm, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { GATE_PAGE_CACHE } from './gate-page-cache';
import type { CheckInOutcome, FeeOpenOutcome } from './check-in-api';
import { GateStatus } from './gate-status';
import { useGate } from './use-gate';
import { CheckInCamera } from './check-in-camera';
import { RecentCheckIns, scanKey, useRecentCheckIns } from './check-in-recent';
import { announcementOf, CheckInPending, CheckInResult } from './check-in-result';

/** A code the camera keeps seeing is sent once; it counts as new after this long out of sight. */
const SAME_CODE_WINDOW_MS = 4000;

const INPUT_ID = 'check-in-code';
const STAGE_ID = 'check-in-stage';

const VIBRATION: Record<CheckInOutcome['kind'], number | number[]> = {
  'checked-in': 120,
  already: [90, 60, 90],
  unknown: [250, 100, 250],
  'not-confirmed': [250, 100, 250],
  'fee-open': [250, 100, 250],
  error: [250, 100, 250],
};

/** A code to check in, or 'Bar bezahlt' on its 'Startgeld offen' verdict (then checked in). */
interface GateAction {
  code: string;
  cash?: FeeOpenOutcome;
}

function vibrate(kind: CheckInOutcome['kind']): void {
  if (typeof navigator.vibrate !== 'function') return;
  try {
    navigator.vibrate(VIBRATION[kind]);
  } catch {
    // Some browsers refuse without a recent tap; the colour says it all the same.
  }
}

function focusById(id: string): void {
  document.getElementById(id)?.focus();
}

/**
 * Event-day check-in at the gate (staff): scan the invitation's QR code or type the code or start
 * number; the answer fills the camera stage in green, amber or red, and the last check-ins of this
 * session are listed below.
 */
export function AdminCheckInPage() {
  const gate = useGate();
  const recent = useRecentCheckIns();
  const addRecent = recent.add;
  const [announcement, setAnnouncement] = useState('');
  const resultRef = useRef<HTMLDivElement>(null);
  const cameraRunning = useRef(false);
  const pending = useRef(false);
  const lastScan = useRef<{ code: string; seenAt: number } | null>(null);

  const checkIn = useMutation({
    mutationFn: ({ code, cash }: GateAction) => (cash ? gate.payCash(cash) : gate.checkIn(code)),
    networkMode: 'always',
    onMutate: () => {
      pending.current = true;
      setAnnouncement('');
    },
    onSuccess: (outcome) => {
      vibrate(outcome.kind);
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
      // A typo stays in the box to be corrected; a found car clears it for the next one.
      if (outcome.kind === 'checked-in' || outcome.kind === 'already' || outcome.kind === 'fee-open') {
        formApi.reset();
      }
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
          QR-Code aus der Einladung scannen oder Check-in-Code bzw. Startnummer eingeben.
        </p>
      </header>
      <p aria-live="assertive" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
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
