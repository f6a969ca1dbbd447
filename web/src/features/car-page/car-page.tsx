import { driveTypeLabel, quartettCardValues, vehicleSubline } from '@schlosstreffen/shared';
import type { CarPage, PublicMedia, PublicVehicle } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { CarPlaceholderIcon, InstagramIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui/button';
import { LoadError, Loading } from '../../components/ui/query-states';
import { useCurrentUser } from '../../lib/current-user';
import { formatDate } from '../../lib/date-format';
import { announcePageLive } from '../../lib/page-live';
import { getSiteConfig } from '../../lib/site-config';
import { cropStyle } from '../media/crop';
import { JuryPlaceBadges } from '../results/jury-results-block';
import { carPageQueryOptions, carPageTitle } from './car-page-queries';
import { CarVote } from './car-vote';

/** The worker writes a 480 px and a 1280 px WebP rendition side by side (thumbs/{id}/{width}.webp). */
const largeOf = (media: PublicMedia) =>
  media.thumbnailUrl?.replace(/\/480\.webp$/, '/1280.webp') ?? media.url;

/**
 * What the page offers its visitors below the car: the vote for the visitors' award, whose state the
 * browser reads after the page loaded (the page itself is kept and shared, so nothing personal in it).
 */
export function CarPageActions({ page }: { page: CarPage }): ReactNode {
  return (
    <>
      <JudgeLink page={page} />
      <CarVote page={page} />
    </>
  );
}

/** A judge of the current edition opens the car's scorecard from its page. */
function JudgeLink({ page }: { page: CarPage }) {
  const { data: user } = useCurrentUser();
  const currentYear = new Date(getSiteConfig().eventStart).getUTCFullYear();
  if (!user?.judge || page.edition.year !== currentYear) return null;
  return (
    <Link
      to="/jury/$startNumber"
      params={{ startNumber: String(page.startNumber) }}
      className={buttonClass('primary', 'mt-8 min-h-12')}
    >
      Bewerten
    </Link>
  );
}

/**
 * '/fahrzeuge/{Jahr}/{Startnummer}': a confirmed car at one meeting, as the landing page shows it, with
 * all its photos, its technical data, its story and (if the owner allows it) their Instagram name. A
 * car whose owner did not consent to showing it: its start number, brand and model only.
 */
export function CarPageView({ year, startNumber }: { year: number; startNumber: number }) {
  const page = useQuery(carPageQueryOptions(year, startNumber));
  useEffect(announcePageLive, []);
  if (page.isPending) {
    return (
      <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-12 sm:px-6">
        <Loading label="Fahrzeug wird geladen...">
          <div aria-hidden="true" className="h-96 animate-pulse rounded-3xl bg-night-900/80" />
        </Loading>
      </section>
    );
  }
  if (page.isError) {
    return (
      <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-12 sm:px-6">
        <h1 className="sr-only">Fahrzeug</h1>
        <LoadError title="Fahrzeug nicht verfügbar" query={page} headingLevel="h2" />
      </section>
    );
  }
  const data = page.data;
  const title = carPageTitle(data);
  return (
    <article className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 sm:py-12">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-3xl">
          <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">
            {data.edition.name} · {formatDate(data.edition.startsAt)}
          </p>
          <h1 className="mt-2 font-display text-4xl text-parchment sm:text-5xl">{title}</h1>
          {data.vehicle ? <p className="mt-2 text-ash-300">{vehicleSubline(data.vehicle)}</p> : null}
          <JuryPlaceBadges places={data.juryPlaces} className="mt-4" />
        </div>
        <StartNumber value={data.startNumber} />
      </header>
      {data.vehicle ? (
        <ListedCar page={data} vehicle={data.vehicle} title={title} />
      ) : (
        <p className="mt-8 max-w-2xl rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-8 text-ash-300">
          Dieses Fahrzeug ist beim {data.edition.name} dabei. Bilder und Daten zeigen wir hier nur, wenn die
          Besitzerin oder der Besitzer es erlaubt.
        </p>
      )}
      <CarPageActions page={data} />
      <Link to="/" className={buttonClass('secondary', 'mt-10')}>
        Zur Startseite
      </Link>
    </article>
  );
}

function StartNumber({ value }: { value: number }) {
  return (
    <p className="flex flex-col items-center rounded-2xl border border-gold-500/40 bg-night-900 px-5 py-3 text-center shadow-lg shadow-black/30">
      <span className="text-xs tracking-[0.2em] text-ash-400 uppercase">Startnummer</span>
      <span className="font-display text-4xl text-gold-200 tabular-nums">{value}</span>
    </p>
  );
}

function ListedCar({ page, vehicle, title }: { page: CarPage; vehicle: PublicVehicle; title: string }) {
  const hero = vehicle.hero;
  const others = vehicle.media.filter((item) => item !== hero && item.url !== hero?.url);
  const values = quartettCardValues(vehicle);
  const hasWords = Boolean(
    vehicle.descriptionShort || page.story || vehicle.tuningCategories.length || page.instagramHandle,
  );
  return (
    <>
      <div className="mt-8 overflow-hidden rounded-3xl border border-gold-500/25 bg-night-950 shadow-2xl shadow-black/50">
        <div className="relative aspect-[16/9]">
          {hero ? (
            <img
              src={largeOf(hero)}
              alt={title}
              fetchPriority="high"
              decoding="async"
              className="absolute inset-0 size-full"
              style={cropStyle(hero.cropX, hero.cropY, hero.scale)}
            />
          ) : (
            <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
              <CarPlaceholderIcon className="size-20" />
            </div>
          )}
        </div>
      </div>
      <div className={`mt-10 grid gap-10 ${hasWords ? 'lg:grid-cols-[1.4fr_1fr]' : 'lg:grid-cols-2'}`}>
        <div className={hasWords ? '' : 'hidden'}>
          {vehicle.descriptionShort ? (
            <p className="font-display text-2xl text-parchment">{vehicle.descriptionShort}</p>
          ) : null}
          {page.story ? (
            <section aria-labelledby="car-story" className="mt-6">
              <h2 id="car-story" className="font-display text-2xl text-gold-200">
                Die Geschichte
              </h2>
              <p className="mt-3 whitespace-pre-line text-ash-200">{page.story}</p>
            </section>
          ) : null}
          {vehicle.tuningCategories.length ? (
            <ul aria-label="Tuning" className="mt-6 flex flex-wrap gap-2">
              {vehicle.tuningCategories.map((category) => (
                <li
                  key={category}
                  className="rounded-full border border-gold-500/30 px-3 py-1 text-sm text-gold-200"
                >
                  {category}
                </li>
              ))}
            </ul>
          ) : null}
          {page.instagramHandle ? (
            <p className="mt-6">
              <a
                href={`https://www.instagram.com/${encodeURIComponent(page.instagramHandle.slice(1))}/`}
                rel="noopener noreferrer"
                target="_blank"
                className="inline-flex items-center gap-2 text-gold-200 underline-offset-4 hover:underline"
              >
                <InstagramIcon className="size-5" aria-hidden="true" />
                {page.instagramHandle}
              </a>
            </p>
          ) : null}
        </div>
        <section aria-labelledby="car-data">
          <h2 id="car-data" className="font-display text-2xl text-gold-200">
            Technische Daten
          </h2>
          <dl className="mt-4 grid grid-cols-2 gap-3">
            {values.map((item) => (
              <Value key={item.label} label={item.label} value={item.value} />
            ))}
            <Value label="Baujahr" value={vehicle.year ? String(vehicle.year) : 'N/A'} />
            <Value label="Antrieb" value={vehicle.driveType ? driveTypeLabel(vehicle.driveType) : 'N/A'} />
          </dl>
        </section>
      </div>
      {others.length ? (
        <section aria-labelledby="car-photos" className="mt-12">
          <h2 id="car-photos" className="font-display text-2xl text-gold-200">
            Weitere Bilder
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {others.map((item, index) => (
              <li
                key={item.url}
                className="overflow-hidden rounded-2xl border border-gold-500/20 bg-night-950"
              >
                <div className="relative aspect-[16/10]">
                  <img
                    src={item.thumbnailUrl ?? item.url}
                    alt={`${title}, Bild ${index + 2}`}
                    loading="lazy"
                    decoding="async"
                    className="absolute inset-0 size-full"
                    style={cropStyle(item.cropX, item.cropY, item.scale)}
                  />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-gold-500/20 bg-night-900/80 px-4 py-3">
      <dt className="text-xs text-ash-400">{label}</dt>
      <dd className="mt-0.5 text-lg text-parchment tabular-nums">{value}</dd>
    </div>
  );
}
