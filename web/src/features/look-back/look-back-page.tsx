import {
  awardCorrectionLine,
  carPagePath,
  formatSpec,
  vehicleDisplayName,
  vehicleSubline,
} from '@schlosstreffen/shared';
import type { AwardLookBack, JuryClassPlaces, PublicVehicle } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link, notFound, useParams } from '@tanstack/react-router';
import { CarPlaceholderIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui/button';
import { LoadError, Loading } from '../../components/ui/query-states';
import { formatDate } from '../../lib/date-format';
import { cropStyle } from '../media/crop';
import { JuryClassesList } from '../results/jury-results-block';
import { resultsPath } from '../results/results-queries';
import { lookBackQueryOptions } from './look-back-queries';

/** /rueckblick/$year: four digits, else the page is not found. */
export function LookBackRoute() {
  const { year } = useParams({ from: '/rueckblick/$year' });
  if (!/^\d{4}$/.test(year)) throw notFound();
  return <LookBackPage year={Number(year)} />;
}

/**
 * 'Rückblick {Jahr}': an edition that has ended, with the cars that took part as the landing page
 * listed them (owners who withdrew the consent to show their images are not shown).
 */
export function LookBackPage({ year }: { year: number }) {
  const lookBack = useQuery(lookBackQueryOptions(year));
  return (
    <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Rückblick</p>
        <h1 className="mt-2 font-display text-4xl text-parchment sm:text-5xl">Rückblick {year}</h1>
        {lookBack.data ? (
          <p className="mt-3 text-ash-300">
            {lookBack.data.edition.name} am {formatDate(lookBack.data.edition.startsAt)} ·{' '}
            {lookBack.data.edition.place}
          </p>
        ) : null}
      </header>
      <div className="mt-8">
        {lookBack.isPending ? (
          <Loading label="Rückblick wird geladen...">
            <div aria-hidden="true" className="h-64 animate-pulse rounded-3xl bg-night-900/80" />
          </Loading>
        ) : lookBack.isError ? (
          <LoadError title="Rückblick nicht verfügbar" query={lookBack} headingLevel="h2" />
        ) : (
          <>
            <dl className="flex flex-wrap gap-3">
              <Figure label="Fahrzeuge dabei" value={lookBack.data.vehicles.length} />
              <Figure label="Am Einlass eingecheckt" value={lookBack.data.checkedIn} />
              {typeof lookBack.data.visitorsAdmitted === 'number' ? (
                <Figure label="Besucher eingelassen" value={lookBack.data.visitorsAdmitted} />
              ) : null}
            </dl>
            {lookBack.data.jury?.length ? <JuryBlock classes={lookBack.data.jury} year={year} /> : null}
            {lookBack.data.award ? <AwardBlock award={lookBack.data.award} year={year} /> : null}
            {lookBack.data.vehicles.length === 0 ? (
              <p className="mt-8 rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-10 text-center text-ash-300">
                Für diese Ausgabe zeigen wir keine Fahrzeuge.
              </p>
            ) : (
              <ul aria-label={`Fahrzeuge ${year}`} className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
                {lookBack.data.vehicles.map((vehicle) => (
                  <li key={vehicle.id}>
                    <LookBackCard
                      vehicle={vehicle}
                      year={year}
                      startNumber={lookBack.data.startNumbers?.[vehicle.id]}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <Link to="/" className={buttonClass('secondary', 'mt-10')}>
        Zur Startseite
      </Link>
    </section>
  );
}

const PLACES: Record<number, string> = { 1: '1. Platz', 2: '2. Platz', 3: '3. Platz' };

/** 'Jury-Ergebnisse': the jury's places per class, as the results page shows them. */
function JuryBlock({ classes, year }: { classes: readonly JuryClassPlaces[]; year: number }) {
  return (
    <section aria-labelledby="jury-ergebnisse" className="mt-10">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="jury-ergebnisse" className="font-display text-3xl text-parchment">
          Jury-Ergebnisse
        </h2>
        <a href={resultsPath(year)} className="text-sm text-gold-200 underline-offset-4 hover:underline">
          Alle Ergebnisse {year}
        </a>
      </div>
      <p className="mt-2 mb-5 text-sm text-ash-300">
        Die Plätze, die die Jury in ihren Klassen vergeben hat.
      </p>
      <JuryClassesList classes={classes} year={year} headingLevel="h3" />
    </section>
  );
}

/** 'Publikumsliebling {Jahr}': the visitors' first three, each with its votes, and any correction of the totals. */
function AwardBlock({ award, year }: { award: AwardLookBack; year: number }) {
  return (
    <section aria-labelledby="publikumsliebling" className="mt-10">
      <h2 id="publikumsliebling" className="font-display text-3xl text-parchment">
        {award.title}
      </h2>
      <p className="mt-2 text-sm text-ash-300">
        Die Lieblinge der Besucherinnen und Besucher, von ihnen gewählt.
      </p>
      <ol className="mt-5 grid gap-5 sm:grid-cols-3">
        {award.winners.map((winner) => {
          const src = winner.image ? (winner.image.thumbnailUrl ?? winner.image.url) : null;
          return (
            <li
              key={winner.startNumber}
              className="overflow-hidden rounded-2xl border border-gold-500/40 bg-night-900 shadow-xl shadow-black/30"
            >
              <div className="relative aspect-[16/10] overflow-hidden bg-night-950">
                {src ? (
                  <img
                    src={src}
                    alt={winner.name}
                    loading="lazy"
                    decoding="async"
                    className="absolute inset-0 size-full"
                    style={cropStyle(winner.image?.cropX, winner.image?.cropY, winner.image?.scale)}
                  />
                ) : (
                  <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
                    <CarPlaceholderIcon className="size-16" />
                  </div>
                )}
                <span className="absolute top-3 left-3 rounded-full bg-night-950/85 px-3 py-1 text-xs font-semibold text-gold-200">
                  {PLACES[winner.rank] ?? `${winner.rank}. Platz`}
                </span>
              </div>
              <div className="p-5">
                <h3 className="font-display text-xl text-parchment">
                  <a
                    href={carPagePath(year, winner.startNumber)}
                    className="underline-offset-4 hover:underline"
                  >
                    {winner.name}
                  </a>
                </h3>
                <p className="mt-1 text-sm text-ash-300">
                  Startnummer {winner.startNumber} ·{' '}
                  {winner.votes === 1 ? '1 Stimme' : `${winner.votes} Stimmen`}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
      {award.corrections.map((correction) => (
        <p key={correction.at} className="mt-4 text-sm text-ash-400">
          {awardCorrectionLine(correction)}
        </p>
      ))}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-gold-500/25 bg-night-900/80 px-4 py-3">
      <dt className="text-xs text-ash-400">{label}</dt>
      <dd className="font-display text-2xl text-gold-200 tabular-nums">{value.toLocaleString('de-DE')}</dd>
    </div>
  );
}

function LookBackCard({
  vehicle,
  year,
  startNumber,
}: {
  vehicle: PublicVehicle;
  year: number;
  /** Its start number then: the title links to the car's page. */
  startNumber?: number;
}) {
  const title = vehicleDisplayName(vehicle);
  const hero = vehicle.hero;
  const src = hero ? (hero.thumbnailUrl ?? hero.url) : null;
  return (
    <article className="overflow-hidden rounded-2xl border border-gold-500/20 bg-night-900 shadow-xl shadow-black/30">
      <div className="relative aspect-[16/10] overflow-hidden bg-night-950">
        {src ? (
          <img
            src={src}
            alt={title}
            loading="lazy"
            decoding="async"
            className="absolute inset-0 size-full"
            style={cropStyle(hero?.cropX, hero?.cropY, hero?.scale)}
          />
        ) : (
          <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
            <CarPlaceholderIcon className="size-16" />
          </div>
        )}
      </div>
      <div className="p-5">
        <h2 className="font-display text-2xl text-parchment">
          {startNumber ? (
            <a href={carPagePath(year, startNumber)} className="underline-offset-4 hover:underline">
              {title}
            </a>
          ) : (
            title
          )}
        </h2>
        <p className="mt-1 text-sm text-ash-300">{vehicleSubline(vehicle)}</p>
        <p className="mt-3 text-sm text-gold-200">
          {formatSpec(vehicle.ps, 'PS')} · {formatSpec(vehicle.topSpeedKmh, 'km/h')}
        </p>
      </div>
    </article>
  );
}
