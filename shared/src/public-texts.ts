import * as v from 'valibot';
import { allowedLinkTarget, TEXT_LINK } from './text-format.js';

/**
 * The public texts an admin edits per edition ('Texte'): the landing page's introduction, the event
 * details text and the FAQ. Null stands for the default text (the one in the web client's code).
 * Format: paragraphs (a blank line), **bold**, [links](https://…) (http(s) or site-relative, '/…'),
 * lists ('- ' at the start of a line); no HTML.
 */
export const PUBLIC_TEXT_LIMITS = {
  introduction: 1000,
  eventDetails: 2000,
  faqItems: 30,
  question: 200,
  answer: 2000,
} as const;

export const PUBLIC_TEXT_MESSAGES = {
  introduction: `Die Einführung darf höchstens ${PUBLIC_TEXT_LIMITS.introduction} Zeichen lang sein und nicht leer.`,
  eventDetails: `Der Text der Veranstaltungsdetails darf höchstens ${PUBLIC_TEXT_LIMITS.eventDetails} Zeichen lang sein und nicht leer.`,
  faqCount: `Die FAQ braucht mindestens eine und höchstens ${PUBLIC_TEXT_LIMITS.faqItems} Fragen.`,
  question: `Jede Frage braucht einen Text mit höchstens ${PUBLIC_TEXT_LIMITS.question} Zeichen.`,
  answer: `Jede Antwort braucht einen Text mit höchstens ${PUBLIC_TEXT_LIMITS.answer} Zeichen.`,
  link: 'Links dürfen nur auf http(s)-Adressen oder Seiten der Website („/…“) zeigen.',
  nothing: 'Es wurde kein Text übermittelt.',
} as const;

const linksAllowed = (text: string) => [...text.matchAll(TEXT_LINK)].every((m) => allowedLinkTarget(m[2]!));

const formattedText = (max: number, message: string) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.minLength(1, message),
    v.maxLength(max, message),
    v.check(linksAllowed, PUBLIC_TEXT_MESSAGES.link),
  );

export const FaqEntrySchema = v.object({
  question: v.pipe(
    v.string(PUBLIC_TEXT_MESSAGES.question),
    v.trim(),
    v.minLength(1, PUBLIC_TEXT_MESSAGES.question),
    v.maxLength(PUBLIC_TEXT_LIMITS.question, PUBLIC_TEXT_MESSAGES.question),
  ),
  answer: formattedText(PUBLIC_TEXT_LIMITS.answer, PUBLIC_TEXT_MESSAGES.answer),
});

/**
 * PUT /api/admin/texts: each part given is set (null: back to the default text); a part left out
 * stays as it is.
 */
export const PublicTextsSchema = v.pipe(
  v.object({
    introduction: v.optional(
      v.nullable(formattedText(PUBLIC_TEXT_LIMITS.introduction, PUBLIC_TEXT_MESSAGES.introduction)),
    ),
    eventDetails: v.optional(
      v.nullable(formattedText(PUBLIC_TEXT_LIMITS.eventDetails, PUBLIC_TEXT_MESSAGES.eventDetails)),
    ),
    faq: v.optional(
      v.nullable(
        v.pipe(
          v.array(FaqEntrySchema, PUBLIC_TEXT_MESSAGES.faqCount),
          v.minLength(1, PUBLIC_TEXT_MESSAGES.faqCount),
          v.maxLength(PUBLIC_TEXT_LIMITS.faqItems, PUBLIC_TEXT_MESSAGES.faqCount),
        ),
      ),
    ),
  }),
  v.check(
    (input) =>
      input.introduction !== undefined || input.eventDetails !== undefined || input.faq !== undefined,
    PUBLIC_TEXT_MESSAGES.nothing,
  ),
);
export type PublicTextsInput = v.InferOutput<typeof PublicTextsSchema>;
