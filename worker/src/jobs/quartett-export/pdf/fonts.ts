import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

/**
 * Inter from @fontsource, embedded (subsetted) by pdfkit. The latin file has the German umlauts
 * and ß; characters it lacks (ł, ş, ő, …) are drawn from the latin-ext file.
 */

const require = createRequire(import.meta.url);

export type Weight = 400 | 700;
const SUBSETS = ['latin', 'latin-ext'] as const;
type Subset = (typeof SUBSETS)[number];

/**
 * A WOFF file as the plain TrueType/OpenType font it wraps. fontkit reads WOFF too, but inflates a
 * table again on every access in JavaScript: subsetting a bold font took 200 ms of blocked event
 * loop. Inflating once here with zlib takes about a millisecond.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, index) => {
    const at = 44 + index * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength) throw new Error('corrupt WOFF table');
    return { tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data };
  });
  const headerLength = 12 + 16 * numTables;
  const padded = (length: number) => (length + 3) & ~3;
  const out = Buffer.alloc(headerLength + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const log2 = Math.floor(Math.log2(numTables));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(2 ** log2 * 16, 6);
  out.writeUInt16BE(log2, 8);
  out.writeUInt16BE(numTables * 16 - 2 ** log2 * 16, 10);
  let offset = headerLength;
  tables.forEach((table, index) => {
    const at = 12 + index * 16;
    out.writeUInt32BE(table.tag, at);
    out.writeUInt32BE(table.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(table.data.length, at + 12);
    table.data.copy(out, offset);
    offset += padded(table.data.length);
  });
  return out;
}

const fonts = new Map<string, Buffer>();
function fontData(subset: Subset, weight: Weight): Buffer {
  const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`);
  let data = fonts.get(file);
  if (!data) {
    data = woffToSfnt(readFileSync(file));
    fonts.set(file, data);
  }
  return data;
}

/** The name a font is registered under in the document. */
export const fontName = (subset: Subset, weight: Weight) => `Inter-${subset}-${weight}`;

/** Unicode ranges per subset, from the package's unicode.json ("U+0000-00FF,U+0131,…"). */
const ranges: Record<Subset, Array<[number, number]>> = (() => {
  const table = JSON.parse(readFileSync(require.resolve('@fontsource/inter/unicode.json'), 'utf8')) as Record<
    string,
    string
  >;
  const parse = (spec = '') =>
    spec.split(',').map((part): [number, number] => {
      const [from = '0', to] = part.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(from, 16), parseInt(to ?? from, 16)];
    });
  return { latin: parse(table.latin), 'latin-ext': parse(table['latin-ext']) };
})();

const covers = (subset: Subset, codePoint: number) =>
  ranges[subset].some(([from, to]) => codePoint >= from && codePoint <= to);

type Layout = (text: string, features?: unknown, ...rest: unknown[]) => unknown;

/**
 * Registers every weight and subset; pdfkit embeds only the fonts a document uses. Text is shaped
 * without Inter's contextual alternates (calt): its chaining lookups made shaping about three times
 * slower and allocated half of the export's memory, for glyph variants the cards do not need.
 * pdfkit still caches the shaped words (it would not with its own `features` option).
 */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const subset of SUBSETS) {
    for (const weight of [400, 700] as const) {
      const name = fontName(subset, weight);
      doc.registerFont(name, fontData(subset, weight));
      // The fontkit font behind pdfkit's, opened now; fontkit fills in the features object it is
      // given, so each call gets its own.
      const { font } = (doc.font(name) as unknown as { _font: { font: { layout: Layout } } })._font;
      const layout = font.layout.bind(font);
      font.layout = (text, features, ...rest) => layout(text, features ?? { calt: false }, ...rest);
    }
  }
}

export interface TextRun {
  text: string;
  font: string;
}

/** Matches a text the latin file draws whole (most texts): one run, no per-character work. */
const LATIN_ONLY = new RegExp(
  `^[${ranges.latin.map(([from, to]) => `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`).join('')}]*$`,
  'u',
);

/** Splits a text into runs of one font each: latin where it can, latin-ext for the rest. */
export function textRuns(text: string, weight: Weight): TextRun[] {
  if (text && LATIN_ONLY.test(text)) return [{ text, font: fontName('latin', weight) }];
  const runs: TextRun[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const subset: Subset =
      covers('latin', codePoint) || !covers('latin-ext', codePoint) ? 'latin' : 'latin-ext';
    const font = fontName(subset, weight);
    const last = runs.at(-1);
    if (last?.font === font) last.text += char;
    else runs.push({ text: char, font });
  }
  return runs;
}
