/**
 * The public page of one car at one meeting: its edition's year and the start number it holds there.
 * A confirmed car keeps its number, so the address printed on its windshield sign stays valid.
 */
export const CAR_PAGE = /^\/fahrzeuge\/(\d{4})\/(\d{1,4})$/;

/** The path of a car's page, e.g. `/fahrzeuge/2026/17`. */
export const carPagePath = (year: number, startNumber: number): string => `/fahrzeuge/${year}/${startNumber}`;

/** The year and start number a path names, or null when it is no car page's path. */
export function parseCarPagePath(pagePath: string): { year: number; startNumber: number } | null {
  const match = CAR_PAGE.exec(pagePath);
  return match ? { year: Number(match[1]), startNumber: Number(match[2]) } : null;
}

export const CAR_PAGE_MESSAGES = {
  notFound: (year: number, startNumber: number) =>
    `Beim Schlosstreffen ${year} fährt kein bestätigtes Fahrzeug mit der Startnummer ${startNumber}.`,
  invalidNumber: 'Die Startnummer muss eine Zahl sein.',
} as const;

/** An Instagram name as the car's page and the owner's dashboard show it: one leading '@'. */
export const instagramAt = (handle: string): string => `@${handle.replace(/^@+/, '')}`;
