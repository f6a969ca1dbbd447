import type { JuryResults } from '@schlosstreffen/shared/api';

/** What a link's preview of the results page shows: who won each class, and the first winner's photo. */
export interface ResultsPreview {
  description: string;
  photo?: { url: string; alt: string };
}

/** The line under the title in a link's preview and the first winner's photo (loaded with the page). */
export function resultsPreview(results: JuryResults): ResultsPreview {
  const winners = results.classes
    .map((juryClass) => {
      const first = juryClass.places.find((entry) => entry.place === 1);
      return first ? `${juryClass.name}: ${first.name}` : null;
    })
    .filter(Boolean);
  const description = `Die Jury-Ergebnisse vom ${results.edition.name}${winners.length ? ` – ${winners.join(' · ')}` : '.'}`;
  for (const juryClass of results.classes) {
    const first = [...juryClass.places].sort((a, b) => a.place - b.place).find((entry) => entry.imageUrl);
    if (first?.imageUrl) return { description, photo: { url: first.imageUrl, alt: first.name } };
  }
  return { description };
}
