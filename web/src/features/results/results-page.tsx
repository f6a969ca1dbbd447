import { awardTitle } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/ui/button';
import { LoadError, Loading } from '../../components/ui/query-states';
import { formatDate } from '../../lib/date-format';
import { AwardPlacesList, JuryClassesList } from './jury-results-block';
import { resultsQueryOptions } from './results-queries';

/**
 * '/ergebnisse/{Jahr}': the jury's published results of an edition, class by class from the first
 * place on, then the visitors' award.
 */
export function ResultsPage({ year }: { year: number }) {
  const results = useQuery(resultsQueryOptions(year));
  return (
    <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Jury-Ergebnisse</p>
        <h1 className="mt-2 font-display text-4xl text-parchment sm:text-5xl">{`Ergebnisse ${year}`}</h1>
        {results.data ? (
          <p className="mt-3 text-ash-300">
            {results.data.edition.name} am {formatDate(results.data.edition.startsAt)} ·{' '}
            {results.data.edition.place}
          </p>
        ) : null}
      </header>
      <div className="mt-10">
        {results.isPending ? (
          <Loading label="Ergebnisse werden geladen...">
            <div aria-hidden="true" className="h-64 animate-pulse rounded-3xl bg-night-900/80" />
          </Loading>
        ) : results.isError ? (
          <LoadError title="Ergebnisse nicht verfügbar" query={results} headingLevel="h2" />
        ) : (
          <>
            {results.data.classes.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-10 text-center text-ash-300">
                Die Jury hat für diese Ausgabe keine Klassen gewertet.
              </p>
            ) : (
              <JuryClassesList classes={results.data.classes} year={year} />
            )}
            {results.data.award?.length ? (
              <section aria-labelledby="results-award" className="mt-12">
                <h2 id="results-award" className="font-display text-2xl text-gold-200">
                  {awardTitle(year)}
                </h2>
                <p className="mt-2 text-sm text-ash-300">Von den Besucherinnen und Besuchern gewählt.</p>
                <AwardPlacesList award={results.data.award} year={year} />
              </section>
            ) : null}
          </>
        )}
      </div>
      <Link to="/" className={buttonClass('secondary', 'mt-12')}>
        Zur Startseite
      </Link>
    </section>
  );
}
