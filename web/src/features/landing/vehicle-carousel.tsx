import { Carousel } from '@ark-ui/react/carousel';
import { CAROUSEL_INTERVAL_MS, formatSpec, vehicleDisplayName, vehicleSubline } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  CarPlaceholderIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  PauseIcon,
  PlayIcon,
} from '../../components/icons';
import type { PublicMedia, PublicVehicle } from '@schlosstreffen/shared/api';
import { cropStyle } from '../media/crop';
import { publicVehiclesQueryOptions } from '../vehicles/vehicle-queries';
import { SectionHeading } from './section-heading';

/** The worker writes a 480 px and a 1280 px WebP rendition side by side (thumbs/{id}/{width}.webp). */
function largeRendition(thumbnailUrl: string): string | undefined {
  return /\/480\.webp$/.test(thumbnailUrl) ? thumbnailUrl.replace(/480\.webp$/, '1280.webp') : undefined;
}

function SlideImage({ hero, title, eager }: { hero: PublicMedia | null; title: string; eager: boolean }) {
  const [failed, setFailed] = useState(false);
  const src = hero ? (hero.thumbnailUrl ?? hero.url) : null;
  const large = hero?.thumbnailUrl ? largeRendition(hero.thumbnailUrl) : undefined;

  return (
    <div className="relative aspect-[16/10] overflow-hidden bg-night-950 md:aspect-auto md:h-full md:min-h-[22rem]">
      {src && !failed ? (
        <img
          src={src}
          srcSet={large ? `${src} 480w, ${large} 1280w` : undefined}
          sizes={large ? '(min-width: 768px) 640px, 100vw' : undefined}
          alt={title}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          draggable={false}
          onError={() => setFailed(true)}
          className="absolute inset-0 size-full"
          style={cropStyle(hero?.cropX, hero?.cropY, hero?.scale)}
        />
      ) : (
        <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
          <CarPlaceholderIcon className="size-20" />
        </div>
      )}
      <div className="pointer-events-none absolute inset-0 bg-linear-to-t from-night-950/70 via-transparent to-transparent md:bg-linear-to-r md:from-transparent md:via-transparent md:to-night-900/60" />
    </div>
  );
}

const slideClass =
  'grid h-full overflow-hidden rounded-3xl border border-gold-500/25 bg-night-900 shadow-2xl shadow-black/50 md:grid-cols-[1.35fr_1fr]';

function Slide({ vehicle, index }: { vehicle: PublicVehicle; index: number }) {
  const title = vehicleDisplayName(vehicle);
  const stats = [
    { label: 'Leistung', value: formatSpec(vehicle.ps, 'PS') },
    { label: '0-100 km/h', value: formatSpec(vehicle.zeroToHundredS, 's') },
    { label: 'V-Max', value: formatSpec(vehicle.topSpeedKmh, 'km/h') },
  ];

  return (
    <article className={slideClass}>
      <SlideImage hero={vehicle.hero} title={title} eager={index === 0} />
      <div className="flex flex-col gap-5 p-6 sm:p-8">
        <div className="flex flex-col gap-2">
          <p className="text-xs font-semibold tracking-[0.25em] text-gold-400 uppercase">Bestätigt</p>
          <h3 className="font-display text-3xl leading-tight text-parchment sm:text-4xl">{title}</h3>
          <p className="text-sm text-ash-300">{vehicleSubline(vehicle)}</p>
        </div>
        <dl className="grid grid-cols-3 gap-2">
          {stats.map((stat) => (
            <div
              key={stat.label}
              className="flex flex-col gap-1 rounded-xl border border-white/5 bg-night-950/60 px-3 py-3"
            >
              <dt className="text-[0.7rem] tracking-wide text-ash-400 uppercase">{stat.label}</dt>
              <dd className="font-display text-lg whitespace-nowrap text-gold-200 tabular-nums sm:text-xl">
                {stat.value}
              </dd>
            </div>
          ))}
        </dl>
        {vehicle.descriptionShort ? (
          <p className="line-clamp-3 text-sm leading-relaxed text-ash-300">{vehicle.descriptionShort}</p>
        ) : null}
        {vehicle.tuningCategories.length > 0 ? (
          <ul className="mt-auto flex flex-wrap gap-2" aria-label="Tuning">
            {vehicle.tuningCategories.map((category) => (
              <li
                key={category}
                className="rounded-full border border-gold-500/25 px-3 py-1 text-xs text-gold-200"
              >
                {category}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </article>
  );
}

/** Whether a slide is the current one or next to it (around the ends too). */
function isNear(index: number, current: number, count: number): boolean {
  const distance = Math.abs(index - current);
  return Math.min(distance, count - distance) <= 1;
}

/**
 * Stands in for a slide that is not on screen or next to it: only the card's frame, so a list of
 * 70 vehicles costs three slides' worth of rendering; a slide gets its content when it comes near.
 */
function SlideFrame() {
  return <div className={slideClass} />;
}

const controlClass =
  'inline-flex size-11 items-center justify-center rounded-full border border-gold-500/35 text-gold-200 transition-colors hover:border-gold-400 hover:bg-gold-500/10 disabled:opacity-40';

/**
 * Confirmed vehicles: nothing for an empty list; previous/next buttons
 * and dots only with more than one vehicle; advances every 90 s and wraps around. The timer starts
 * over after each change and holds while the pointer or focus is inside, or when paused.
 */
export function VehicleCarousel({ vehicles }: { vehicles: readonly PublicVehicle[] }) {
  const count = vehicles.length;
  const [page, setPage] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const current = Math.min(page, Math.max(0, count - 1));
  const rotating = count > 1 && !paused && !hovered && !focused;

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = window.setTimeout(() => setPage((current + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [rotating, current, count]);

  if (count === 0) return null;
  const multiple = count > 1;

  return (
    <Carousel.Root
      slideCount={count}
      page={current}
      onPageChange={(details) => setPage(details.page)}
      loop
      spacing="24px"
      translations={{
        prevTrigger: 'Vorheriges Fahrzeug',
        nextTrigger: 'Nächstes Fahrzeug',
        indicator: (index) => `Fahrzeug ${index + 1} anzeigen`,
        item: (index, total) => `${index + 1} von ${total}`,
      }}
      aria-label="Karussell der bestätigten Fahrzeuge"
      className="flex flex-col gap-6"
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <Carousel.ItemGroup className="rounded-3xl [scrollbar-width:none] [&::-webkit-scrollbar]:hidden">
        {vehicles.map((vehicle, index) => (
          <Carousel.Item key={vehicle.id} index={index}>
            {isNear(index, current, count) ? <Slide vehicle={vehicle} index={index} /> : <SlideFrame />}
          </Carousel.Item>
        ))}
      </Carousel.ItemGroup>

      {multiple ? (
        <div className="flex flex-col items-center gap-4 sm:flex-row sm:justify-between">
          <Carousel.IndicatorGroup className="flex min-w-0 flex-1 flex-wrap items-center justify-center gap-0.5 sm:justify-start">
            {vehicles.map((vehicle, index) => (
              <Carousel.Indicator
                key={vehicle.id}
                index={index}
                className="group flex size-6 items-center justify-center rounded-full"
              >
                <span className="block h-1.5 w-1.5 rounded-full bg-ash-400/60 transition-all group-hover:bg-gold-300 group-data-current:w-5 group-data-current:bg-gold-400" />
              </Carousel.Indicator>
            ))}
          </Carousel.IndicatorGroup>

          <div className="flex shrink-0 items-center gap-2">
            <p className="mr-2 font-display text-sm text-ash-400 tabular-nums" aria-hidden="true">
              {String(current + 1).padStart(2, '0')} / {String(count).padStart(2, '0')}
            </p>
            <button
              type="button"
              className={controlClass}
              aria-pressed={paused}
              aria-label="Automatischen Wechsel anhalten"
              title={paused ? 'Automatischen Wechsel fortsetzen' : 'Automatischen Wechsel anhalten'}
              onClick={() => setPaused((value) => !value)}
            >
              {paused ? <PlayIcon className="size-4" /> : <PauseIcon className="size-4" />}
            </button>
            <Carousel.PrevTrigger className={controlClass}>
              <ChevronLeftIcon />
            </Carousel.PrevTrigger>
            <Carousel.NextTrigger className={controlClass}>
              <ChevronRightIcon />
            </Carousel.NextTrigger>
          </div>
        </div>
      ) : null}
    </Carousel.Root>
  );
}

/**
 * Whether the element is within `margin` of the viewport, or has been (always true without
 * IntersectionObserver).
 */
function useNearViewport<T extends Element>(margin: string) {
  // A callback ref: the element appears only once the list has loaded.
  const [element, ref] = useState<T | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near, margin]);
  return { ref, near };
}

/** The landing section around the carousel; skipped entirely while empty or when the list fails. */
export function ConfirmedVehiclesSection() {
  const { data, isPending } = useQuery(publicVehiclesQueryOptions);
  // The carousel (one item and dot per vehicle, measured by its machine) is built when the section
  // comes near the screen, not while the page is still loading below the first screen.
  const { ref, near } = useNearViewport<HTMLElement>('50%');

  if (isPending) {
    return (
      <section aria-label="Bestätigte Fahrzeuge werden geladen" aria-busy="true" className="py-20 sm:py-28">
        <div className="mx-auto max-w-6xl px-5 sm:px-6">
          <div className="mb-10 h-24 w-72 max-w-full animate-pulse rounded-xl bg-night-800/70" />
          <div className="aspect-[16/10] animate-pulse rounded-3xl border border-white/5 bg-night-900 md:aspect-[21/9]" />
        </div>
      </section>
    );
  }
  if (!data || data.length === 0) return null;

  return (
    <section ref={ref} aria-labelledby="vehicles-title" className="py-20 sm:py-28">
      <div className="mx-auto flex max-w-6xl flex-col gap-10 px-5 sm:px-6">
        <SectionHeading id="vehicles-title" eyebrow="Mit dabei" title="Bestätigte Fahrzeuge">
          <p>
            Diese Fahrzeuge haben ihre Einladung bestätigt – ein erster Blick auf das, was dich am Schloss
            erwartet.
          </p>
        </SectionHeading>
        {near ? (
          <VehicleCarousel vehicles={data} />
        ) : (
          <div className="aspect-[16/10] rounded-3xl border border-gold-500/25 bg-night-900 md:aspect-[21/9]" />
        )}
      </div>
    </section>
  );
}
