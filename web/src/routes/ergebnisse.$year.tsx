import type { JuryResults } from '@schlosstreffen/shared/api';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { resultsPath, resultsQueryOptions } from '../features/results/results-queries';
import { ResultsPage } from '../features/results/results-page';
import { isApiError } from '../lib/api';
import { shareHead } from '../lib/page-head';

function yearOf(params: { year: string }): number {
  if (!/^\d{4}$/.test(params.year)) throw notFound();
  return Number(params.year);
}

/** The line under the title in a link's preview: the edition and who won each class. */
function descriptionOf(results: JuryResults): string {
  const winners = results.classes
    .map((juryClass) => {
      const first = juryClass.places.find((entry) => entry.place === 1);
      return first ? `${juryClass.name}: ${first.name}` : null;
    })
    .filter(Boolean);
  return `Die Jury-Ergebnisse vom ${results.edition.name}${winners.length ? ` – ${winners.join(' · ')}` : '.'}`;
}

/** The first winner's photo, if any class's first place has one. */
function firstPhoto(results: JuryResults): { url: string; alt: string } | undefined {
  for (const juryClass of results.classes) {
    const first = [...juryClass.places].sort((a, b) => a.place - b.place).find((entry) => entry.imageUrl);
    if (first?.imageUrl) return { url: first.imageUrl, alt: first.name };
  }
  return undefined;
}

export const Route = createFileRoute('/ergebnisse/$year')({
  // The server renders the page with the results it read for it (none before publication: not
  // found); the browser asks for them when it comes here by a link.
  loader: async ({ context, params }) => {
    const options = resultsQueryOptions(yearOf(params));
    const kept = context.queryClient.getQueryData(options.queryKey);
    if (typeof window === 'undefined') {
      if (!kept) throw notFound();
      return kept;
    }
    if (kept) return kept;
    try {
      return await context.queryClient.fetchQuery(options);
    } catch (error) {
      if (isApiError(error) && error.status === 404) throw notFound();
      // Anything else: the page shows the failure and offers to try again.
      return undefined;
    }
  },
  head: ({ params, loaderData }) => {
    const path = resultsPath(Number(params.year));
    const title = `Ergebnisse ${params.year} – Schlosstreffen`;
    if (!loaderData)
      return shareHead({
        title,
        description: `Die Jury-Ergebnisse des Schlosstreffens ${params.year}.`,
        path,
      });
    const head = shareHead({ title, description: descriptionOf(loaderData), path });
    const photo = firstPhoto(loaderData);
    if (!photo) return head;
    // The photo's size is not known here: the preview reads it from the image.
    const base = head.meta.find((tag) => 'property' in tag && tag.property === 'og:url');
    const url = new URL(photo.url, base && 'content' in base ? base.content : undefined).href;
    return {
      links: head.links,
      meta: [
        ...head.meta.map((tag) =>
          'name' in tag && tag.name === 'twitter:card' ? { ...tag, content: 'summary_large_image' } : tag,
        ),
        { property: 'og:image', content: url },
        { property: 'og:image:alt', content: photo.alt },
        { name: 'twitter:image', content: url },
      ],
    };
  },
  component: ResultsRoute,
});

function ResultsRoute() {
  return <ResultsPage year={yearOf(Route.useParams())} />;
}
