import { describe, expect, it } from 'vitest';
import { formatScore, hideScoresIn } from './score.js';

describe('hideScoresIn', () => {
  it("hides every score written into a note, as the waitlist's moving up writes it", () => {
    const note = `Regel: höchste Bewertung, dann frühere Einreichung; Rang 1, Bewertung ${formatScore(7.75)}, eingereicht 01.03.2026.`;
    expect(hideScoresIn(note)).toBe(
      'Regel: höchste Bewertung, dann frühere Einreichung; Rang 1, Bewertung verborgen, eingereicht 01.03.2026.',
    );
    expect(hideScoresIn('Bewertung 8 und Bewertung 10')).toBe('Bewertung verborgen und Bewertung verborgen');
    expect(hideScoresIn('Keine Bewertung genannt.')).toBe('Keine Bewertung genannt.');
  });
});
