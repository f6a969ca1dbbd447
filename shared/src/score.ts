/** Scores without any schema: light enough for every chunk that shows one (the waitlist's log line). */

/**
 * One review's weighted score: Σ weight·score / Σ weight over the categories it scored. Undefined
 * when it scored none.
 */
export function weightedScore(
  categories: readonly { id: string; weight: number }[],
  scores: Readonly<Record<string, number>>,
): number | undefined {
  let sum = 0;
  let weights = 0;
  for (const category of categories) {
    const value = scores[category.id];
    if (value === undefined) continue;
    sum += category.weight * value;
    weights += category.weight;
  }
  return weights ? sum / weights : undefined;
}

/** A score as German text, at most two decimals: 8, 7,5, 7,33. */
export const formatScore = (score: number): string =>
  score.toLocaleString('de-DE', { maximumFractionDigits: 2 });

/**
 * A log note with every score written into it ('Bewertung 7,5', as the waitlist's moving up notes
 * the rank's reason) shown as 'Bewertung verborgen': blind review for whoever may not see scores.
 */
export const hideScoresIn = (text: string): string =>
  text.replace(/Bewertung \d{1,2}(?:,\d{1,2})?(?!\d)/g, 'Bewertung verborgen');
