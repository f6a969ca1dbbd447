import { formatAtVenue } from './venue-time.js';

export interface FaqEntry {
  question: string;
  answer: string;
}

/** An edition's public texts; null: the default text. */
export interface PublicTexts {
  introduction: string | null;
  eventDetails: string | null;
  /** In the order shown. */
  faq: FaqEntry[] | null;
}

/**
 * The public texts' format, rendered to HTML by this module only: paragraphs split by a blank line
 * (a single line break stays one), lines starting with '- ' as a list, **bold**, [label](target)
 * with an http(s) or site-relative target (any other stays text). Everything of the text itself is
 * escaped, so an admin's text never carries HTML into a page. The api renders the site config's
 * texts with it (the landing page injects the result as it is); the admin's preview the same way.
 */

/** `[label](target)` of the text format. */
export const TEXT_LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** Whether a link target is allowed: http(s) or a path of the site ('/…', not '//…' or '/\…'). */
export const allowedLinkTarget = (target: string): boolean =>
  /^https?:\/\/[^\s/]/i.test(target) || /^\/(?![/\\])/.test(target);

export type TextBlock = { list: false; lines: string[] } | { list: true; items: string[] };

/** The text's paragraphs (their lines) and lists (their items). */
export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const part of text.trim().split(/\n\s*\n/)) {
    let last: TextBlock | undefined;
    for (const raw of part.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const item = /^- +(.*)$/.exec(line)?.[1];
      if (item === undefined) {
        if (last?.list !== false) blocks.push((last = { list: false, lines: [] }));
        last.lines.push(line);
      } else {
        if (!last?.list) blocks.push((last = { list: true, items: [] }));
        last.items.push(item);
      }
    }
  }
  return blocks;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** `**bold**` or `[label](target)` within a line: the format's inline parts. */
export const TEXT_INLINE = new RegExp(`\\*\\*(.+?)\\*\\*|${TEXT_LINK.source}`, 'g');

/** One line: bold and links as elements, the rest escaped. */
function inlineHtml(line: string): string {
  let html = '';
  let at = 0;
  for (const match of line.matchAll(TEXT_INLINE)) {
    const [whole, bold, label, target] = match;
    html += escapeHtml(line.slice(at, match.index));
    if (bold !== undefined) html += `<strong>${escapeHtml(bold)}</strong>`;
    else if (allowedLinkTarget(target!)) {
      const rel = target!.startsWith('/') ? '' : ' rel="noopener noreferrer"';
      html += `<a href="${escapeHtml(target!)}"${rel}>${escapeHtml(label!)}</a>`;
    } else html += escapeHtml(label!);
    at = match.index + whole.length;
  }
  return html + escapeHtml(line.slice(at));
}

/** The text as HTML: `<p>` (lines joined by `<br>`), `<ul><li>`, `<strong>`, `<a href>`; nothing else. */
export function formatText(text: string): string {
  return textBlocks(text)
    .map((block) =>
      block.list
        ? `<ul>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</ul>`
        : `<p>${block.lines.map(inlineHtml).join('<br>')}</p>`,
    )
    .join('');
}

/**
 * Stands for the edition's application deadline as month and year ('März 2027') in any text: the
 * default FAQ's answer about the deadline uses it, so it stays right for the next edition.
 */
export const DEADLINE_PLACEHOLDER = '{Bewerbungsschluss}';

/** An edition's deadline (`YYYY-MM-DD`) as the texts name it: 'März 2027'. */
export const deadlineMonthOf = (deadline: string): string =>
  // A calendar date: read at noon UTC, the same day at the venue.
  formatAtVenue(new Date(`${deadline}T12:00:00Z`), 'monthYear');

/** The text with the deadline filled in. */
export const withDeadline = (text: string, deadlineMonth: string): string =>
  text.replaceAll(DEADLINE_PLACEHOLDER, deadlineMonth);

/**
 * The texts as the site config carries them: the formatted parts as HTML, the questions as text,
 * the deadline filled in.
 */
export function renderPublicTexts(texts: PublicTexts, deadlineMonth: string): PublicTexts {
  const html = (text: string) => formatText(withDeadline(text, deadlineMonth));
  return {
    introduction: texts.introduction === null ? null : html(texts.introduction),
    eventDetails: texts.eventDetails === null ? null : html(texts.eventDetails),
    faq:
      texts.faq?.map(({ question, answer }) => ({
        question: withDeadline(question, deadlineMonth),
        answer: html(answer),
      })) ?? null,
  };
}
