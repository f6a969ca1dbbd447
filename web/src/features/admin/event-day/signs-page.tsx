import {
  SIGN_EXPORT_STATUS_LABELS,
  SIGN_FORMAT_LABELS,
  SIGN_FORMATS,
  type SignExportStatus,
  type SignFormat,
} from '@schlosstreffen/shared';
import type { SignExport } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Button, buttonClass } from '../../../components/ui/button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { formatIso } from '../../../lib/date-format';
import { DownloadIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { useFinishedToasts } from './finished-toasts';
import { useStartSignSet } from './signs-mutations';
import { isSignExportRunning, signSetsQueryOptions } from './signs-queries';

const STATUS_TONES: Record<SignExportStatus, string> = {
  queued: 'border-white/15 bg-white/5 text-ash-300',
  rendering: 'border-gold-500/40 bg-gold-500/10 text-gold-200',
  ready: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  failed: 'border-red-400/40 bg-red-500/10 text-red-200',
};

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

/** What each format prints, for choosing. */
const FORMAT_FACTS: Record<SignFormat, string> = {
  a4: 'Ein großes Schild (267 × 180 mm) je A4-Seite im Querformat, für die Frontscheibe.',
  a5: 'Zwei Schilder im Hochformat (128 × 184 mm) nebeneinander auf einem A4-Bogen, dazwischen Schnittmarken.',
};

/** /admin/windschilder: the windshield signs of the current edition, one PDF per format (admins only). */
export function AdminSignsPage() {
  return (
    <AdminOnly>
      <SignsScreen />
    </AdminOnly>
  );
}

function SignsScreen() {
  const sets = useQuery(signSetsQueryOptions);
  useFinishedToasts(sets.data, isSignExportRunning, announceFinished);

  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Windschilder</h1>
        <p className="mt-3 text-sm text-ash-300">
          Ein Schild je bestätigtem Fahrzeug mit Startnummer: groß die Startnummer, darunter Name und
          Parkzone, dazu ein QR-Code zur Seite des Fahrzeugs mit seinen Daten und der Abstimmung. Fahrzeuge
          ohne Startnummer oder mit abgegebenem Platz bekommen kein Schild. Jede Erstellung übernimmt die
          Namen und Zonen, wie sie gerade sind.
        </p>
        <ul aria-label="Druckhinweise" className="mt-4 flex flex-wrap gap-2 text-xs text-ash-300">
          {['A4-Bögen mit Schnittmarken', '3 mm Beschnitt', 'In tatsächlicher Größe (100 %) drucken'].map(
            (fact) => (
              <li key={fact} className="rounded-full border border-white/10 bg-night-900/80 px-3 py-1">
                {fact}
              </li>
            ),
          )}
        </ul>
      </header>

      <div className="mt-8">
        {sets.isPending ? (
          <Loading label="Windschilder werden geladen...">
            <div className="grid gap-6 lg:grid-cols-2">
              {[0, 1].map((index) => (
                <div
                  key={index}
                  aria-hidden="true"
                  className="h-64 animate-pulse rounded-2xl border border-white/10 bg-night-900/80 motion-reduce:animate-none"
                />
              ))}
            </div>
          </Loading>
        ) : sets.isError ? (
          <LoadError
            title="Windschilder konnten nicht geladen werden"
            query={sets}
            headingLevel="h2"
            compact
          />
        ) : (
          <ul aria-label="Formate" className="grid gap-6 lg:grid-cols-2">
            {SIGN_FORMATS.map((format) => (
              <li key={format}>
                <FormatCard format={format} sign={sets.data.find((sign) => sign.format === format)} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function announceFinished(sign: SignExport) {
  if (sign.status === 'ready') {
    notify.success(
      'Windschilder fertig',
      `${sign.formatLabel}: ${signCountText(sign.signCount)} zum Herunterladen.`,
    );
  } else if (sign.status === 'failed') {
    notify.error('Windschilder fehlgeschlagen', undefined, sign.error ?? RETRY_HINT);
  }
}

const signCountText = (count: number) => (count === 1 ? '1 Schild' : `${count} Schilder`);

function FormatCard({ format, sign }: { format: SignFormat; sign: SignExport | undefined }) {
  const start = useStartSignSet();
  const running = sign ? isSignExportRunning(sign) : false;
  const headingId = `windschilder-${format}`;
  const label = SIGN_FORMAT_LABELS[format];

  const onStart = () =>
    start.mutate(format, {
      onSuccess: () => notify.success('Windschilder werden erstellt', label),
      onError: (error) => notify.error('Windschilder konnten nicht erstellt werden', error, RETRY_HINT),
    });

  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">Format</p>
          <h2 id={headingId} className="mt-1 font-display text-xl text-parchment">
            {label}
          </h2>
        </div>
        {sign ? (
          <span className={`${badgeClass} ${STATUS_TONES[sign.status]}`}>
            {sign.status === 'rendering' ? <Spinner className="size-3" /> : null}
            {SIGN_EXPORT_STATUS_LABELS[sign.status]}
          </span>
        ) : null}
      </div>
      <p className="mt-2 text-sm text-ash-300">{FORMAT_FACTS[format]}</p>

      {sign ? (
        <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
          <Fact term="Schilder" value={sign.status === 'ready' ? String(sign.signCount) : '–'} />
          <Fact term="Angefordert" value={formatIso(sign.createdAt, 'dateTime')} />
          <Fact term="Fertiggestellt" value={formatIso(sign.finishedAt, 'dateTime')} />
        </dl>
      ) : (
        <p className="mt-4 text-sm text-ash-400">Noch nicht erstellt.</p>
      )}

      {sign && running ? (
        <ProgressBar
          className="mt-5"
          value={sign.status === 'queued' ? 0 : sign.progress}
          max={100}
          label={`Fortschritt ${label}`}
          valueText={sign.status === 'queued' ? 'Wartet auf den Start' : `${sign.progress} %`}
        />
      ) : null}

      {sign?.status === 'failed' ? (
        <div className="mt-5 rounded-xl border border-red-400/30 bg-red-950/40 px-4 py-3 text-sm">
          <p className="font-semibold text-red-100">Die Erstellung ist fehlgeschlagen.</p>
          <p className="mt-1 break-words text-red-100/90">{sign.error ?? 'Ein Fehler ist aufgetreten.'}</p>
        </div>
      ) : null}

      <div className="mt-auto flex flex-col gap-3 pt-5 sm:flex-row sm:flex-wrap">
        {sign?.status === 'ready' && sign.downloadUrl ? (
          <a href={sign.downloadUrl} download={sign.downloadName} className={buttonClass('primary')}>
            <DownloadIcon className="size-4" />
            PDF herunterladen<span className="sr-only"> ({label})</span>
          </a>
        ) : null}
        <Button
          variant={sign?.status === 'ready' ? 'secondary' : 'primary'}
          disabled={running || start.isPending}
          onClick={onStart}
        >
          {start.isPending ? (
            <>
              <Spinner />
              Wird gestartet...
            </>
          ) : running ? (
            'Wird erstellt...'
          ) : sign ? (
            <>
              Neu erstellen<span className="sr-only"> ({label})</span>
            </>
          ) : (
            <>
              Erstellen<span className="sr-only"> ({label})</span>
            </>
          )}
        </Button>
      </div>
    </article>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-ash-400">{term}</dt>
      <dd className="mt-0.5 text-parchment tabular-nums">{value}</dd>
    </div>
  );
}
