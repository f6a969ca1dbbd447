import { carPagePath, juryPlaceTitle } from '@schlosstreffen/shared';
import type { JuryClassPlaces, JuryPlace, JuryResults } from '@schlosstreffen/shared/api';
import { CarPlaceholderIcon } from '../../components/icons';

const placeTone: Record<number, string> = {
  1: 'border-gold-400/70 bg-gold-500/20 text-gold-200',
  2: 'border-ash-300/50 bg-night-950/85 text-parchment',
  3: 'border-amber-600/60 bg-night-950/85 text-amber-200',
};

function TrophyIcon({ className = 'size-4' }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      className={className}
    >
      <path d="M8 4h8v5a4 4 0 0 1-8 0V4Z" strokeLinejoin="round" />
      <path d="M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4M12 13v4M8.5 20h7M10 17h4" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The jury's places of each class, the first place first: start number, name, photo (with the
 * media consent) and a link to the car's page where it has one. `Heading` is each class's heading.
 */
export function JuryClassesList({
  classes,
  year,
  headingLevel: Heading = 'h2',
}: {
  classes: readonly JuryClassPlaces[];
  year: number;
  headingLevel?: 'h2' | 'h3';
}) {
  const Place = Heading === 'h2' ? 'h3' : 'h4';
  return (
    <div className="flex flex-col gap-10">
      {classes.map((juryClass) => (
        <section key={juryClass.id} aria-labelledby={`jury-class-${juryClass.id}`}>
          <Heading id={`jury-class-${juryClass.id}`} className="font-display text-2xl text-gold-200">
            {juryClass.name}
          </Heading>
          {juryClass.places.length === 0 ? (
            <p className="mt-3 text-sm text-ash-400">In dieser Klasse wurde kein Platz vergeben.</p>
          ) : (
            <ol aria-label={juryClass.name} className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {[...juryClass.places]
                .sort((a, b) => a.place - b.place)
                .map((entry) => (
                  <li
                    key={`${entry.place}-${entry.startNumber}`}
                    className="overflow-hidden rounded-2xl border border-gold-500/30 bg-night-900 shadow-xl shadow-black/30"
                  >
                    <div className="relative aspect-[16/10] overflow-hidden bg-night-950">
                      {entry.imageUrl ? (
                        <img
                          src={entry.imageUrl}
                          alt={entry.name}
                          loading="lazy"
                          decoding="async"
                          className="absolute inset-0 size-full object-cover"
                        />
                      ) : (
                        <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
                          <CarPlaceholderIcon className="size-16" />
                        </div>
                      )}
                      <span
                        className={`absolute top-3 left-3 rounded-full border px-3 py-1 text-xs font-semibold ${
                          placeTone[entry.place] ?? placeTone[3]
                        }`}
                      >
                        {entry.place}. Platz
                      </span>
                    </div>
                    <div className="p-5">
                      <Place className="font-display text-xl text-parchment">
                        {entry.hasPage ? (
                          <a
                            href={carPagePath(year, entry.startNumber)}
                            className="underline-offset-4 hover:underline"
                          >
                            {entry.name}
                          </a>
                        ) : (
                          entry.name
                        )}
                      </Place>
                      <p className="mt-1 text-sm text-ash-300">Startnummer {entry.startNumber}</p>
                    </div>
                  </li>
                ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  );
}

/** The visitors' award's first three as the results page lists them. */
export function AwardPlacesList({ award, year }: { award: NonNullable<JuryResults['award']>; year: number }) {
  return (
    <ol aria-label={`Publikumsliebling ${year}`} className="mt-4 flex flex-col divide-y divide-white/5">
      {award.map((row) => (
        <li key={row.startNumber} className="flex flex-wrap items-center gap-4 py-3">
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-full border border-gold-500/50 bg-gold-500/10 font-display text-lg text-gold-200"
          >
            {row.rank}
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-parchment">
              <span className="sr-only">{row.rank}. Platz: </span>
              <a href={carPagePath(year, row.startNumber)} className="underline-offset-4 hover:underline">
                {row.name}
              </a>
            </p>
            <p className="text-xs text-ash-400">Startnummer {row.startNumber}</p>
          </div>
          <p className="text-sm text-ash-300 tabular-nums">
            {row.votes === 1 ? '1 Stimme' : `${row.votes} Stimmen`}
          </p>
        </li>
      ))}
    </ol>
  );
}

/** A car's published places as badges: '1. Platz – Bester Umbau 2026' (car page, dashboard). */
export function JuryPlaceBadges({
  places,
  className = '',
  compact = false,
}: {
  places?: readonly JuryPlace[];
  className?: string;
  /** Smaller, for a car's card. */
  compact?: boolean;
}) {
  if (!places?.length) return null;
  return (
    <ul aria-label="Jury-Platzierungen" className={`flex flex-wrap gap-2 ${className}`}>
      {places.map((entry) => {
        const title = juryPlaceTitle(entry.place, entry.className, entry.year);
        return (
          <li
            key={title}
            className={`inline-flex items-center gap-1.5 rounded-full border font-semibold ${
              compact ? 'px-2.5 py-0.5 text-xs' : 'px-3 py-1 text-sm'
            } ${placeTone[entry.place] ?? placeTone[3]}`}
          >
            <TrophyIcon className={compact ? 'size-3.5' : 'size-4'} />
            {title}
          </li>
        );
      })}
    </ul>
  );
}
