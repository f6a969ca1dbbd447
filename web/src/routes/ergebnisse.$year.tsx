import { createFileRoute, notFound } from '@tanstack/react-router';
import { resultsPath, resultsQueryOptions } from '../features/results/results-queries';
import { ResultsPage } from '../features/results/results-page';
import { resultsPreview } from '../features/results/results-preview';
import { isApiError } from '../lib/api';
import { shareHead } from '../lib/page-head';

function yearOf(params: { year: string }): number {
  if (!/^\d{4}$/.test(params.year)) throw notFound();
  return Number(params.year);
}

export const Route = createFileRoute('/ergebnisse/$year')({
  // The server renders the page with the results it read for it (none before publication: not
  // found); the browser asks for them when it comes here by a link. The loader's data is the link
  // preview (computed here, so the app's entry holds none of it).
  loader: async ({ context, params }) => {
    const options = resultsQueryOptions(yearOf(params));
    const kept = context.queryClient.getQueryData(options.queryKey);
    if (typeof window === 'undefined') {
      if (!kept) throw notFound();
      return resultsPreview(kept);
    }
    if (kept) return resultsPreview(kept);
    try {
      return resultsPreview(await context.queryClient.fetchQuery(options));
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
    const head = shareHead({ title, description: loaderData.description, path });
    const { photo } = loaderData;
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
