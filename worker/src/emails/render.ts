import { render, toPlainText } from '@react-email/render';
import { EMAIL_TEMPLATES, type EmailTemplateName } from '@schlosstreffen/shared';
import type { ComponentType } from 'react';
import { createElement } from 'react';
import * as v from 'valibot';
import type { EventFacts } from './event-facts.js';
import ApplicationConfirmedEmail, {
  subject as applicationConfirmedSubject,
} from './application-confirmed.js';
import ApplicationReceivedEmail, { subject as applicationReceivedSubject } from './application-received.js';
import ApplicationRejectedEmail, { subject as applicationRejectedSubject } from './application-rejected.js';
import ApplicationWaitlistEmail, { subject as applicationWaitlistSubject } from './application-waitlist.js';
import InvitationEmail, {
  attachments as invitationAttachments,
  subject as invitationSubject,
} from './invitation.js';
import PasswordResetEmail, { subject as passwordResetSubject } from './password-reset.js';
import VisitorConfirmationEmail, { subject as visitorConfirmationSubject } from './visitor-confirmation.js';

/** A file sent with the mail; `cid` makes it an inline image the HTML refers to as `cid:…`. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

interface TemplateModule<P> {
  component: ComponentType<P & { event: EventFacts }>;
  subject: string | ((props: P) => string);
  attachments?: (props: P) => Promise<MailAttachment[]>;
}

const TEMPLATES: { [N in EmailTemplateName]: TemplateModule<v.InferOutput<(typeof EMAIL_TEMPLATES)[N]>> } = {
  'password-reset': { component: PasswordResetEmail, subject: passwordResetSubject },
  'visitor-confirmation': { component: VisitorConfirmationEmail, subject: visitorConfirmationSubject },
  'application-received': { component: ApplicationReceivedEmail, subject: applicationReceivedSubject },
  'application-waitlist': { component: ApplicationWaitlistEmail, subject: applicationWaitlistSubject },
  'application-confirmed': { component: ApplicationConfirmedEmail, subject: applicationConfirmedSubject },
  'application-rejected': { component: ApplicationRejectedEmail, subject: applicationRejectedSubject },
  invitation: { component: InvitationEmail, subject: invitationSubject, attachments: invitationAttachments },
};

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
}

/**
 * Validates the props against the template's schema and renders German HTML and plain text; every
 * template also gets the configured event facts.
 */
export async function renderEmail(
  template: EmailTemplateName,
  props: unknown,
  event: EventFacts,
): Promise<RenderedEmail> {
  const checked = v.parse(EMAIL_TEMPLATES[template], props);
  const entry = TEMPLATES[template] as TemplateModule<typeof checked>;
  const html = await render(createElement(entry.component, { ...checked, event }));
  const subject = typeof entry.subject === 'function' ? entry.subject(checked) : entry.subject;
  const attachments = await entry.attachments?.(checked);
  return { subject, html, text: toPlainText(html), ...(attachments ? { attachments } : {}) };
}
