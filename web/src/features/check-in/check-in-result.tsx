import { forwardRef, type ReactNode } from 'react';
import { Spinner } from '../../components/ui/spinner';
import {
  AlreadyCheckedInIcon,
  CheckedInIcon,
  CheckInErrorIcon,
  FeeOpenIcon,
  UnknownCodeIcon,
} from './check-in-icons';
import { CHECK_IN_MESSAGES } from '@schlosstreffen/shared';
import type { CheckInView } from '@schlosstreffen/shared/api';
import {
  CHECK_IN_ERRORS,
  formatCheckInTime,
  ownerName,
  vehicleDetails,
  type CheckInOutcome,
  type VisitorOutcome,
} from './check-in-api';

/** How a verdict looks and feels (colour, icon, vibration): a visitor's as the car verdict it matches. */
export type VerdictLook = Exclude<CheckInOutcome['kind'], 'visitor'>;

/** Green for a visitor let in, out or back in, amber for one already inside, red otherwise. */
export function lookOf(outcome: CheckInOutcome): VerdictLook {
  if (outcome.kind !== 'visitor') return outcome.kind;
  if (outcome.result === 'duplicate') return 'already';
  if (outcome.result === 'refused' && outcome.reason === 'ticket_invalid') return 'unknown';
  if (outcome.result === 'refused' || outcome.result === 'not_inside') return 'not-confirmed';
  return 'checked-in';
}

/** A visitor verdict's headline: a sentence's part before its colon ('Ungültiges Besucherticket'). */
function visitorHeadline(outcome: VisitorOutcome): string {
  const colon = outcome.message.indexOf(': ');
  return colon > 0 ? outcome.message.slice(0, colon) : outcome.message;
}

const DIRECTION: Record<VisitorOutcome['direction'], string> = { in: 'Eingang', out: 'Ausgang' };

const ICONS: Record<VerdictLook, (props: { className?: string }) => ReactNode> = {
  'checked-in': CheckedInIcon,
  already: AlreadyCheckedInIcon,
  unknown: UnknownCodeIcon,
  'not-confirmed': CheckInErrorIcon,
  'fee-open': FeeOpenIcon,
  error: CheckInErrorIcon,
};

/** Solid colours that read in sunlight: green go, amber seen before, red stop. */
const TONES: Record<VerdictLook, { panel: string; muted: string; tile: string; button: string }> = {
  'checked-in': {
    panel: 'bg-emerald-700 text-white',
    muted: 'text-white',
    tile: 'bg-emerald-900/45',
    button: 'bg-white text-emerald-900 hover:bg-emerald-50',
  },
  already: {
    panel: 'bg-amber-400 text-night-950',
    muted: 'text-night-800',
    tile: 'bg-amber-200/60',
    button: 'bg-night-950 text-amber-200 hover:bg-night-800',
  },
  unknown: {
    panel: 'bg-red-700 text-white',
    muted: 'text-white',
    tile: 'bg-red-900/45',
    button: 'bg-white text-red-800 hover:bg-red-50',
  },
  'not-confirmed': {
    panel: 'bg-red-700 text-white',
    muted: 'text-white',
    tile: 'bg-red-900/45',
    button: 'bg-white text-red-800 hover:bg-red-50',
  },
  // Stop until paid: orange, apart from the red of a car that may not come in at all.
  'fee-open': {
    panel: 'bg-orange-700 text-white',
    muted: 'text-white',
    tile: 'bg-orange-950/40',
    button: 'bg-white text-orange-900 hover:bg-orange-50 disabled:cursor-not-allowed disabled:opacity-60',
  },
  error: {
    panel: 'border-2 border-red-400 bg-night-800 text-parchment',
    muted: 'text-ash-300',
    tile: 'bg-night-900',
    button: 'bg-gold-500 text-night-950 hover:bg-gold-400',
  },
};

const actionClass =
  'inline-flex min-h-14 w-full items-center justify-center gap-2 rounded-full px-6 text-lg font-bold tracking-wide transition-colors';

/** The headline a screen reader hears for a result, with its details (after what was booked before it). */
export function announcementOf(outcome: CheckInOutcome): string {
  const verdict = verdictText(outcome);
  return outcome.note ? `${outcome.note} ${verdict}` : verdict;
}

function verdictText(outcome: CheckInOutcome): string {
  if (outcome.kind === 'visitor') {
    const sentence = /[.!?]$/.test(outcome.message) ? outcome.message : `${outcome.message}.`;
    return `${sentence} Besucherticket, ${DIRECTION[outcome.direction]}.`;
  }
  if (outcome.kind === 'unknown') return `Unbekannter Code. ${outcome.message}`;
  if (outcome.kind === 'error') return `${outcome.title}. ${outcome.message}`;
  if (outcome.kind === 'not-confirmed') {
    const car = outcome.view
      ? ` Startnummer ${outcome.view.startNumber}, ${outcome.view.vehicle.title}.`
      : '';
    return `${CHECK_IN_MESSAGES.notConfirmedHeadline}. ${outcome.message}${car}`;
  }
  if (outcome.kind === 'fee-open') {
    const problem = outcome.cashError ? ` ${outcome.cashError}` : '';
    return `${CHECK_IN_MESSAGES.fee_open}. ${outcome.message}${problem} Startnummer ${outcome.view.startNumber}, ${outcome.view.vehicle.title}.`;
  }
  const { view } = outcome;
  const owner = view.owner ? `, ${ownerName(view.owner)}` : '';
  return `${outcome.message}. Startnummer ${view.startNumber}, Parkzone ${view.parkingZone}. ${view.vehicle.title}${owner}.`;
}

function CarDetails({ view, muted, tile }: { view: CheckInView; muted: string; tile: string }) {
  const label = `text-xs font-bold uppercase tracking-[0.18em] ${muted}`;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-3">
      <div className={`rounded-2xl px-4 py-3 ${tile}`}>
        <dt className={label}>Startnummer</dt>
        <dd className="mt-1 text-6xl leading-none font-black tabular-nums sm:text-7xl">{view.startNumber}</dd>
      </div>
      <div className={`rounded-2xl px-4 py-3 ${tile}`}>
        <dt className={label}>Parkzone</dt>
        <dd className="mt-1 text-4xl leading-tight font-extrabold break-words sm:text-5xl">
          {view.parkingZone}
        </dd>
      </div>
      <div className="col-span-2">
        <dt className={label}>Fahrzeug</dt>
        <dd className="mt-0.5">
          <span className="block text-2xl leading-tight font-bold break-words">{view.vehicle.title}</span>
          <span className={`block text-base font-medium ${muted}`}>{vehicleDetails(view.vehicle)}</span>
        </dd>
      </div>
      {view.owner ? (
        <div className="col-span-2">
          <dt className={label}>Besitzer</dt>
          <dd className="mt-0.5 text-xl font-semibold break-words">{ownerName(view.owner)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** A visitor ticket's verdict: which way it was scanned, and when (and where) it first came in. */
function VisitorDetails({ outcome, muted, tile }: { outcome: VisitorOutcome; muted: string; tile: string }) {
  const label = `text-xs font-bold uppercase tracking-[0.18em] ${muted}`;
  const colon = outcome.message.indexOf(': ');
  const first = formatCheckInTime(outcome.firstIn);
  return (
    <>
      {colon > 0 ? <p className="text-xl leading-snug font-semibold sm:text-2xl">{outcome.message}</p> : null}
      <dl className="grid grid-cols-2 gap-3">
        <div className={`rounded-2xl px-4 py-3 ${tile}`}>
          <dt className={label}>Besucherticket</dt>
          <dd className="mt-1 text-4xl leading-tight font-extrabold sm:text-5xl">
            {DIRECTION[outcome.direction]}
          </dd>
        </div>
        {first && outcome.result !== 'refused' ? (
          <div className={`rounded-2xl px-4 py-3 ${tile}`}>
            <dt className={label}>Erster Einlass</dt>
            <dd className="mt-1 text-2xl leading-tight font-bold break-words">
              {first} Uhr
              {outcome.firstGate ? (
                <span className={`block text-base font-medium ${muted}`}>{outcome.firstGate}</span>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

/** Covers the camera stage while a code is checked (or, with its label, a cash payment booked). */
export function CheckInPending({ code, label = 'Prüfe Code...' }: { code: string; label?: string }) {
  return (
    <div className="flex w-full flex-col items-center justify-center gap-4 bg-night-800/95 p-6 text-center">
      <Spinner className="size-12 text-gold-300" />
      <p className="font-display text-2xl text-parchment">{label}</p>
      <p className="max-w-full text-sm break-all text-ash-300">{code}</p>
    </div>
  );
}

/** The gate's verdict, big enough to read at arm's length. */
export const CheckInResult = forwardRef<
  HTMLDivElement,
  {
    outcome: CheckInOutcome;
    onNext: () => void;
    onRetry: () => void;
    /** 'Bar bezahlt' on 'Startgeld offen'. */
    onPayCash?: () => void;
    /** Whether the device is online: booking a cash payment needs the server. */
    online?: boolean;
  }
>(function CheckInResult({ outcome, onNext, onRetry, onPayCash, online = true }, ref) {
  const look = lookOf(outcome);
  const tone = TONES[look];
  const VerdictIcon = ICONS[look];
  const headline =
    outcome.kind === 'visitor'
      ? visitorHeadline(outcome)
      : outcome.kind === 'unknown'
        ? CHECK_IN_MESSAGES.unknownHeadline
        : outcome.kind === 'not-confirmed'
          ? CHECK_IN_MESSAGES.notConfirmedHeadline
          : outcome.kind === 'fee-open'
            ? CHECK_IN_MESSAGES.fee_open
            : outcome.kind === 'error'
              ? outcome.title
              : outcome.message;
  // 'Bar bezahlt' leads; 'Nächstes Fahrzeug' steps back as it does behind 'Erneut versuchen'.
  const nextClass =
    outcome.kind === 'error' && outcome.retry
      ? 'border-2 border-gold-500/50 text-gold-200 hover:bg-gold-500/10'
      : outcome.kind === 'fee-open' && onPayCash
        ? 'border-2 border-white/70 text-white hover:bg-white/10'
        : tone.button;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      data-result={outcome.kind}
      data-visitor-result={outcome.kind === 'visitor' ? outcome.result : undefined}
      aria-labelledby="check-in-result-heading"
      role="group"
      className={`flex w-full scroll-mt-20 flex-col gap-5 p-5 outline-none sm:p-8 md:scroll-mt-24 ${tone.panel}`}
    >
      <div className="flex items-center gap-3 sm:gap-4">
        <VerdictIcon className="size-12 shrink-0 sm:size-16" />
        <h2
          id="check-in-result-heading"
          className="text-3xl leading-tight font-black tracking-tight break-words sm:text-5xl"
        >
          {headline}
        </h2>
      </div>
      {outcome.note ? (
        <p data-testid="check-in-note" className={`rounded-2xl px-4 py-3 text-xl font-bold ${tone.tile}`}>
          {outcome.note}
        </p>
      ) : null}
      {outcome.kind === 'visitor' ? (
        <VisitorDetails outcome={outcome} muted={tone.muted} tile={tone.tile} />
      ) : outcome.kind === 'checked-in' || outcome.kind === 'already' ? (
        <CarDetails view={outcome.view} muted={tone.muted} tile={tone.tile} />
      ) : outcome.kind === 'fee-open' ? (
        <>
          <p className="text-xl leading-snug font-semibold sm:text-2xl">{outcome.message}</p>
          {outcome.cashError ? (
            <p role="alert" className="rounded-2xl bg-night-950/45 px-4 py-3 text-base font-semibold">
              {outcome.cashError}
            </p>
          ) : null}
          <CarDetails view={outcome.view} muted={tone.muted} tile={tone.tile} />
        </>
      ) : outcome.kind === 'not-confirmed' && outcome.view ? (
        <>
          <p className="text-xl leading-snug font-semibold sm:text-2xl">{outcome.message}</p>
          <CarDetails view={outcome.view} muted={tone.muted} tile={tone.tile} />
        </>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-xl leading-snug font-semibold sm:text-2xl">{outcome.message}</p>
          <p className={`text-sm break-all ${tone.muted}`}>
            Eingabe: <span className="font-mono">{outcome.code}</span>
          </p>
        </div>
      )}
      <div className="mt-auto flex flex-col gap-3 pt-1">
        {outcome.kind === 'error' && outcome.retry ? (
          <button type="button" className={`${actionClass} ${tone.button}`} onClick={onRetry}>
            Erneut versuchen
          </button>
        ) : null}
        {outcome.kind === 'fee-open' && onPayCash ? (
          <>
            <button
              type="button"
              className={`${actionClass} ${tone.button}`}
              disabled={!online}
              aria-describedby={online ? undefined : 'check-in-cash-offline'}
              onClick={onPayCash}
            >
              Bar bezahlt
            </button>
            {online ? null : (
              <p id="check-in-cash-offline" className="text-base font-semibold">
                {CHECK_IN_ERRORS.cashOffline}
              </p>
            )}
          </>
        ) : null}
        <button type="button" className={`${actionClass} ${nextClass}`} onClick={onNext}>
          {outcome.kind === 'visitor' ? 'Nächster Scan' : 'Nächstes Fahrzeug'}
        </button>
      </div>
    </div>
  );
});
