/**
 * The transition delay of the index-th item of a staggered entrance: `stepSeconds` apart, at most
 * `maxSteps` steps late (so long lists do not keep their last items waiting).
 */
export function entranceDelay(
  index: number,
  stepSeconds: number,
  maxSteps = Number.POSITIVE_INFINITY,
): string {
  return `${(Math.min(index, maxSteps) * stepSeconds).toFixed(2)}s`;
}
