import {
  AWARD_MESSAGES,
  AWARD_STATE_LABELS,
  awardTitle,
  twoDigits,
  venueClock,
  venueInstant,
  type AwardState,
} from '@schlosstreffen/shared';
import type { AwardAdminView } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { formatIso } from '../../../lib/date-format';
import { DownloadIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { useChosenEdition } from '../edition-switch';
import { editionsQueryOptions } from '../editions-queries';
import { AwardCorrectionCard } from './award-correction';
import { useAwardAction, useAwardMoments } from './award-mutations';
import { awardQueryOptions } from './award-queries';

const STATE_TONES: Record<AwardState, string> = {
  not_open: 'border-white/15 bg-white/5 text-ash-300',
  open: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  closed: 'border-gold-500/40 bg-gold-500/10 text-gold-200',
};

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';
const cardClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6';

/** A `datetime-local` value (venue time) as an ISO instant; null when empty. */
function venueMoment(local: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return venueInstant({ year, month, day, hour, minute, second: 0 }).toISOString();
}

/** An instant as a `datetime-local` value at the venue. */
function localAtVenue(iso: string | null): string {
  if (!iso) return '';
  const clock = venueClock(new Date(iso));
  return `${clock.year}-${twoDigits(clock.month)}-${twoDigits(clock.day)}T${twoDigits(clock.hour)}:${twoDigits(clock.minute)}`;
}

const votesText = (count: number) => (count === 1 ? '1 Stimme' : `${count} Stimmen`);
const percent = (share: number) => `${Math.round(share * 100)} %`;

/** /admin/publikumsliebling: the visitors' award of the chosen edition (admins only). */
export function AdminAwardPage() {
  return (
    <AdminOnly>
      <AwardScreen />
    </AdminOnly>
  );
}

function AwardScreen() {
  const editions = useQuery(editionsQueryOptions);
  const chosen = useChosenEdition();
  const year = chosen ?? editions.data?.editions.find((edition) => edition.current)?.year;

  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Publikumsliebling</h1>
        <p className="mt-3 text-sm text-ash-300">
          Besucherinnen und Besucher stimmen auf den Seiten der Fahrzeuge ab: jede bestätigte E-Mail-Adresse
          mit je einer Stimme für bis zu drei Autos. Eine Stimme zählt erst, wenn ihre Adresse bestätigt ist.
          Spätestens mit dem Ende des Treffens endet die Abstimmung; dann steht das Ergebnis fest und die
          ersten drei bekommen ihre Urkunde.
        </p>
      </header>
      <div className="mt-8">
        {year ? (
          <AwardView year={year} />
        ) : editions.isError ? (
          <LoadError
            title="Ausgaben konnten nicht geladen werden"
            query={editions}
            headingLevel="h2"
            compact
          />
        ) : (
          <LoadingBlock label="Abstimmung wird geladen..." className="h-64 rounded-2xl" />
        )}
      </div>
    </section>
  );
}

function AwardView({ year }: { year: number }) {
  const view = useQuery(awardQueryOptions(year));
  if (view.isPending) return <LoadingBlock label="Abstimmung wird geladen..." className="h-64 rounded-2xl" />;
  if (view.isError)
    return (
      <LoadError title="Abstimmung konnte nicht geladen werden" query={view} headingLevel="h2" compact />
    );
  const data = view.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <StateCard view={data} />
        <MomentsCard view={data} />
      </div>
      <Figures view={data} />
      <Ranking view={data} />
      {data.final ? <AwardCorrectionCard view={data} className={cardClass} /> : null}
      <Networks view={data} />
    </div>
  );
}

function StateCard({ view }: { view: AwardAdminView }) {
  const action = useAwardAction(view.year);
  const [confirming, setConfirming] = useState(false);
  const run = (which: 'open' | 'close') =>
    action.mutate(which, {
      onSuccess: (answer) => {
        setConfirming(false);
        notify.success(answer.message);
      },
      onError: (error) => notify.error('Das hat nicht geklappt', error, RETRY_HINT),
    });
  return (
    <article aria-labelledby="award-state" className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">{view.editionName}</p>
          <h2 id="award-state" className="mt-1 font-display text-xl text-parchment">
            {awardTitle(view.year)}
          </h2>
        </div>
        <span className={`${badgeClass} ${STATE_TONES[view.state]}`}>{AWARD_STATE_LABELS[view.state]}</span>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <Fact term="Geöffnet" value={formatIso(view.openedAt, 'dateTime')} />
        <Fact term="Beendet" value={formatIso(view.closedAt, 'dateTime')} />
      </dl>
      {view.over ? (
        <p className="mt-4 text-sm text-ash-400">
          Das Treffen ist vorbei: Zeitplan, Öffnen und Beenden bleiben, wie sie waren. Einen Fehler im
          Endergebnis korrigiert ein Admin mit Begründung.
        </p>
      ) : null}
      <div className="mt-5 flex flex-col gap-3 sm:flex-row">
        {view.state === 'not_open' && !view.over ? (
          <Button onClick={() => run('open')} disabled={action.isPending}>
            {action.isPending ? <Spinner /> : null}
            Abstimmung jetzt öffnen
          </Button>
        ) : null}
        {view.state === 'open' && !view.over ? (
          <Button variant="danger" onClick={() => setConfirming(true)} disabled={action.isPending}>
            Abstimmung jetzt beenden
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Abstimmung beenden?"
        confirmLabel="Abstimmung beenden"
        pendingLabel="Wird beendet..."
        pending={action.isPending}
        destructive
        onConfirm={() => run('close')}
      >
        Danach zählt keine Stimme mehr; das Ergebnis wird festgeschrieben und die Urkunden der ersten drei
        werden erstellt. Öffnen lässt sich die Abstimmung nicht wieder.
      </ConfirmDialog>
    </article>
  );
}

function MomentsCard({ view }: { view: AwardAdminView }) {
  const save = useAwardMoments(view.year);
  const [opensAt, setOpensAt] = useState(localAtVenue(view.opensAt));
  const [closesAt, setClosesAt] = useState(localAtVenue(view.closesAt));
  const [error, setError] = useState<string | null>(null);
  const closed = view.state === 'closed' || view.over;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const moments = { opensAt: venueMoment(opensAt), closesAt: venueMoment(closesAt) };
    if (moments.opensAt && moments.closesAt && moments.closesAt <= moments.opensAt) {
      setError(AWARD_MESSAGES.moments);
      return;
    }
    setError(null);
    save.mutate(moments, {
      onSuccess: (answer) => notify.success(answer.message),
      onError: (failure) => notify.error('Zeitpunkte nicht gespeichert', failure, RETRY_HINT),
    });
  };
  return (
    <form noValidate onSubmit={submit} aria-labelledby="award-moments" className={cardClass}>
      <h2 id="award-moments" className="font-display text-xl text-parchment">
        Zeitplan
      </h2>
      <p className="mt-1 text-sm text-ash-400">
        Zu diesen Zeitpunkten (Ortszeit) öffnet und beendet der Server die Abstimmung von selbst. Leer: nur
        von Hand; beendet wird sie spätestens mit dem Ende des Treffens.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <MomentInput label="Öffnet am" value={opensAt} onChange={setOpensAt} disabled={closed} />
        <MomentInput label="Endet am" value={closesAt} onChange={setClosesAt} disabled={closed} />
      </div>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" className="mt-4" disabled={closed || save.isPending}>
        {save.isPending ? <Spinner /> : null}
        Zeitplan speichern
      </Button>
    </form>
  );
}

function MomentInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {props.label}
      </label>
      <input
        id={id}
        type="datetime-local"
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value)}
        className={inputClass}
      />
    </div>
  );
}

function Figures({ view }: { view: AwardAdminView }) {
  const figures = [
    { term: 'Gezählte Stimmen', value: String(view.totalVotes) },
    { term: 'Warten auf Bestätigung', value: String(view.pendingVotes) },
    { term: 'Bestätigte Adressen', value: String(view.confirmedVoters) },
    { term: 'Am Veranstaltungstag bestätigt', value: percent(view.confirmedOnMeetingDayShare) },
  ];
  return (
    <dl aria-label="Kennzahlen" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {figures.map((figure) => (
        <div key={figure.term} className={`${cardClass} !p-4`}>
          <dt className="text-xs tracking-wide text-ash-400 uppercase">{figure.term}</dt>
          <dd className="mt-1 font-display text-3xl text-parchment tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Ranking({ view }: { view: AwardAdminView }) {
  return (
    <article aria-labelledby="award-ranking" className={cardClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="award-ranking" className="font-display text-xl text-parchment">
          {view.final ? 'Endergebnis' : 'Rangliste'}
        </h2>
        <p className="text-xs text-ash-400">
          {view.final
            ? `Festgeschrieben am ${formatIso(view.closedAt, 'dateTime')}`
            : view.state === 'open'
              ? 'Live: wird alle paar Sekunden aktualisiert'
              : 'Noch keine Stimmen gezählt'}
        </p>
      </div>
      {view.ranking.length === 0 ? (
        <p className="mt-4 text-sm text-ash-400">Noch keine Stimmen.</p>
      ) : (
        <ol className="mt-4 flex flex-col divide-y divide-white/5">
          {view.ranking.map((row) => (
            <li key={row.vehicleId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              {/* A car with unconfirmed votes only has no place yet. */}
              <span
                className={`flex size-10 shrink-0 items-center justify-center rounded-full border font-display text-lg ${
                  row.votes > 0 && row.rank <= 3
                    ? 'border-gold-500/50 bg-gold-500/10 text-gold-200'
                    : 'border-white/10 text-ash-300'
                }`}
                aria-label={row.votes > 0 ? `Platz ${row.rank}` : 'Noch ohne Platz'}
              >
                {row.votes > 0 ? row.rank : '–'}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold text-parchment">{row.name}</p>
                <p className="text-xs text-ash-400">Startnummer {row.startNumber}</p>
              </div>
              <div className="text-right">
                <p className="font-semibold text-parchment tabular-nums">{votesText(row.votes)}</p>
                {row.pending ? (
                  <p className="text-xs text-ash-400 tabular-nums">+ {row.pending} unbestätigt</p>
                ) : null}
              </div>
              {row.certificateUrl ? (
                <a
                  href={row.certificateUrl}
                  download
                  className={buttonClass('secondary', 'w-full sm:w-auto')}
                >
                  <DownloadIcon className="size-4" />
                  Urkunde<span className="sr-only"> für {row.name}</span>
                </a>
              ) : view.final && row.rank <= 3 ? (
                <span className="inline-flex items-center gap-2 text-xs text-ash-400">
                  <Spinner className="size-3" /> Urkunde wird erstellt
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}

function Networks({ view }: { view: AwardAdminView }) {
  return (
    <article aria-labelledby="award-networks" className={cardClass}>
      <h2 id="award-networks" className="font-display text-xl text-parchment">
        Stimmen je Netzwerk
      </h2>
      <p className="mt-1 text-sm text-ash-400">
        Viele Stimmen aus einem Netz sind am Veranstaltungstag normal (das WLAN vor Ort). Gezeigt wird das
        Netz gekürzt (IPv4 /24, IPv6 /48).
      </p>
      {view.networks.length === 0 ? (
        <p className="mt-4 text-sm text-ash-400">Noch keine Stimmen.</p>
      ) : (
        <div className="mt-4">
          <table className="w-full text-left text-sm">
            <thead className="text-xs tracking-wide text-ash-400 uppercase">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Netzwerk
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Gezählt
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Unbestätigt
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Adressen
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/5">
              {view.networks.map((row) => (
                <tr key={row.network}>
                  <td className="py-2 pr-4 font-mono break-all text-parchment">{row.network}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{row.votes}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{row.pending}</td>
                  <td className="py-2 text-right tabular-nums">{row.voters}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-ash-400">{term}</dt>
      <dd className="text-parchment">{value}</dd>
    </div>
  );
}
