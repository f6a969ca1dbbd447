import * as v from 'valibot';
import { fieldObject } from './schemas/issues.js';

/** Event updates to visitors ('Besucher-Updates'): statuses, texts and the draft's body. */

export const VISITOR_UPDATE_STATUSES = ['draft', 'sending', 'sent'] as const;
type VisitorUpdateStatus = (typeof VISITOR_UPDATE_STATUSES)[number];

export const VISITOR_UPDATE_STATUS_LABELS: Record<VisitorUpdateStatus, string> = {
  draft: 'Entwurf',
  sending: 'Wird gesendet',
  sent: 'Gesendet',
};

export const VISITOR_UPDATE_LIMITS = { subject: 200, body: 10_000 } as const;

export const VISITOR_UPDATE_MESSAGES = {
  subjectRequired: 'Betreff ist erforderlich',
  subjectMax: `Betreff darf höchstens ${VISITOR_UPDATE_LIMITS.subject} Zeichen lang sein`,
  bodyRequired: 'Nachricht ist erforderlich',
  bodyMax: `Nachricht darf höchstens ${VISITOR_UPDATE_LIMITS.body.toLocaleString('de-DE')} Zeichen lang sein`,
  notFound: 'Besucher-Update nicht gefunden',
  previewPending: 'Die Vorschau wird noch erstellt.',
  notDraft: 'Dieses Update wurde bereits versendet und lässt sich nicht mehr ändern.',
  noRecipients: 'Es gibt keine bestätigten Besucher, an die das Update gehen könnte.',
  testSent: 'Die Testmail ist unterwegs.',
  started: 'Der Versand hat begonnen.',
} as const;

const text = (max: number, required: string, tooLong: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

/** Body of POST /api/admin/visitor-updates and PATCH …/{id}. */
export const VisitorUpdateDraftSchema = fieldObject({
  subject: text(
    VISITOR_UPDATE_LIMITS.subject,
    VISITOR_UPDATE_MESSAGES.subjectRequired,
    VISITOR_UPDATE_MESSAGES.subjectMax,
  ),
  body: text(
    VISITOR_UPDATE_LIMITS.body,
    VISITOR_UPDATE_MESSAGES.bodyRequired,
    VISITOR_UPDATE_MESSAGES.bodyMax,
  ),
});
export type VisitorUpdateDraft = v.InferOutput<typeof VisitorUpdateDraftSchema>;
