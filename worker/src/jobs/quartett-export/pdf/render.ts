import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { drawCardBack, drawCardFront, drawCropMarks, drawText, type CardFace } from './card.js';
import { registerFonts } from './fonts.js';
import {
  cardBox,
  CARDS_PER_PAGE,
  GRID,
  GUTTER_MM,
  MARGIN_MM,
  PAGE_LAYOUT,
  PAGE_MM,
  PAGE_SIZE,
  pageCount,
  CARD_MM,
  pt,
  type Side,
} from './layout.js';

/** Assembles the print PDF: front page, back page, front page, … streamed to `output`. */

export interface RenderCard<P> {
  face: CardFace;
  /** Handed to `loadPhoto`; none means a placeholder. */
  photo?: P;
}

export interface RenderOptions<P> {
  title: string;
  version: number;
  eventName: string;
  cards: readonly RenderCard<P>[];
  /** The card photo as JPEG cut to the frame, or undefined for a placeholder; errors abort. */
  loadPhoto: (photo: P) => Promise<Buffer | undefined>;
  /** Called after every card; the renderer yields to the event loop right after. */
  onProgress?: (done: number, total: number) => void | Promise<void>;
  /** Photos fetched ahead of the card being drawn. */
  prefetch?: number;
}

export interface RenderResult {
  pages: number;
  cards: number;
}

type Settled = { ok: true; value: Buffer | undefined } | { ok: false; error: unknown };

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Grid height, the length available to a slug line along the side margin. */
const SLUG_LENGTH_MM = GRID.rows * CARD_MM.height + (GRID.rows - 1) * GUTTER_MM;

export async function renderQuartettPdf<P>(
  output: Writable,
  options: RenderOptions<P>,
): Promise<RenderResult> {
  const { cards, title, version } = options;
  const total = cards.length;
  const pages = pageCount(total);
  const doc = new PDFDocument({
    autoFirstPage: false,
    size: PAGE_SIZE,
    layout: PAGE_LAYOUT,
    margin: 0,
    lang: 'de-DE',
    info: {
      Title: `${options.eventName} Auto-Quartett: ${title} (Version ${version})`,
      Author: options.eventName,
      Subject: `Druckbogen, ${total} Karten 59 × 91 mm mit 3 mm Beschnitt`,
      Creator: 'Schlosstreffen',
    },
  });
  registerFonts(doc);
  const done = finished(output);
  // Awaited below; until then a failing output must not count as an unhandled rejection.
  done.catch(() => undefined);
  doc.pipe(output);

  const ahead = Math.max(0, options.prefetch ?? 3);
  const pending: Promise<Settled>[] = [];
  // Settled promises only: a photo that fails while waiting its turn raises no unhandled rejection.
  const start = (index: number) => {
    const photo = cards[index]?.photo;
    pending.push(
      (photo === undefined ? Promise.resolve(undefined) : options.loadPhoto(photo)).then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      ),
    );
  };

  let page = 0;
  const addPage = (side: Side, sheet: number, slots: number) => {
    doc.addPage({ size: PAGE_SIZE, layout: PAGE_LAYOUT, margin: 0 });
    page += 1;
    drawSlug(doc, {
      left: `${options.eventName} Auto-Quartett · ${title} · Version ${version} · Seite ${page} von ${pages} · Bogen ${sheet} von ${pages / 2}, ${side === 'front' ? 'Vorderseite' : 'Rückseite'}`,
      right:
        'Beidseitig drucken, an der kurzen Kante wenden · Tatsächliche Größe (100 %) · Karten 59 × 91 mm, 3 mm Beschnitt, an den Schnittmarken schneiden',
    });
    for (let slot = 0; slot < slots; slot += 1) drawCropMarks(doc, cardBox(slot, side));
  };
  const addBackPage = (sheet: number, slots: number) => {
    addPage('back', sheet, slots);
    for (let slot = 0; slot < slots; slot += 1) {
      drawCardBack(doc, cardBox(slot, 'back'), { eventName: options.eventName, setTitle: title });
    }
  };

  try {
    for (let index = 0; index < Math.min(total, ahead); index += 1) start(index);
    for (let index = 0; index < total; index += 1) {
      // The card itself and `ahead` more are on their way while this one is drawn.
      if (index + ahead < total) start(index + ahead);
      const slot = index % CARDS_PER_PAGE;
      const sheet = Math.floor(index / CARDS_PER_PAGE) + 1;
      if (slot === 0) {
        if (index > 0) addBackPage(sheet - 1, CARDS_PER_PAGE);
        forgetLayouts(doc);
        addPage('front', sheet, Math.min(CARDS_PER_PAGE, total - index));
      }
      const settled = await pending.shift()!;
      if (!settled.ok) throw settled.error;
      drawCardFront(doc, cardBox(slot, 'front'), cards[index]!.face, settled.value);
      await options.onProgress?.(index + 1, total);
      await yieldToEventLoop();
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    if (total > 0) addBackPage(pages / 2, total - (pages / 2 - 1) * CARDS_PER_PAGE);
  } catch (error) {
    await Promise.allSettled(pending);
    doc.unpipe(output);
    output.destroy();
    throw error;
  }
  await embedFonts(doc);
  doc.end();
  await done;
  return { pages, cards: total };
}

type Fonts = Record<string, { finalize(): void; layoutCache?: Record<string, unknown> }>;
const fontsOf = (doc: PDFKit.PDFDocument): Fonts =>
  (doc as unknown as { _fontFamilies?: Fonts })._fontFamilies ?? {};

/**
 * pdfkit keeps the shaped glyphs of every word it ever laid out; names and values differ from card
 * to card, so the cache would grow with the set. Cleared per sheet, it keeps the labels and the
 * slug's words and memory stays flat.
 */
function forgetLayouts(doc: PDFKit.PDFDocument): void {
  for (const font of Object.values(fontsOf(doc))) {
    if (font.layoutCache) font.layoutCache = Object.create(null) as Record<string, unknown>;
  }
}

/**
 * Embeds the fonts' subsets one per turn of the event loop, where doc.end() would do all at once
 * (the first one takes about 25 ms). Only after the last text is drawn: an embedded font takes no
 * more glyphs, and doc.end() skips it.
 */
async function embedFonts(doc: PDFKit.PDFDocument): Promise<void> {
  for (const font of Object.values(fontsOf(doc))) {
    font.finalize();
    await yieldToEventLoop();
  }
}

/** The slug: one line up the left margin, one down the right margin, outside the crop marks. */
function drawSlug(doc: PDFKit.PDFDocument, text: { left: string; right: string }) {
  const style = {
    size: 5.5,
    weight: 400,
    color: '#555555',
    align: 'center',
    maxWidth: SLUG_LENGTH_MM,
  } as const;
  const middle = PAGE_MM.height / 2;
  const inset = MARGIN_MM.x - 5.5;
  doc.save().rotate(-90, { origin: [pt(inset), pt(middle)] });
  drawText(doc, text.left, inset, middle, style);
  doc.restore();
  doc.save().rotate(90, { origin: [pt(PAGE_MM.width - inset), pt(middle)] });
  drawText(doc, text.right, PAGE_MM.width - inset, middle, style);
  doc.restore();
}
