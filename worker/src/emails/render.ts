import { render, toPlainText } from '@react-email/render';
import { EMAIL_TEMPLATES, type EmailTemplateName } from '@schlosstreffen/shared';
import type { ComponentType } from 'react';
import { createElement } from 'react';
import * as v from 'valibot';
import ApplicationConfirmedEmail, {
  subject as applicationConfirmedSubject,
} from './application-confirmed.js';
import ApplicationReceivedEmail, { subject as applicationReceivedSubject } from './application-received.js';
import ApplicationRejectedEmail, { subject as applicationRejectedSubject } from './application-rejected.js';
import ApplicationWaitlistEmail, { subject as applicationWaitlistSubject } from './application-waitlist.js';
import PasswordResetEmail, { subject as passwordResetSubject } from './password-reset.js';
import VisitorConfirmationEmail, { subject as visitorConfirmationSubject } from './visitor-confirmation.js';

interface TemplateModule<P> {
  component: ComponentType<P>;
  subject: string | ((props: P) => string);
}

const TEMPLATES: { [N in EmailTemplateName]: TemplateModule<v.InferOutput<(typeof EMAIL_TEMPLATES)[N]>> } = {
  'password-reset': { component: PasswordResetEmail, subject: passwordResetSubject },
  'visitor-confirmation': { component: VisitorConfirmationEmail, subject: visitorConfirmationSubject },
  'application-received': { component: ApplicationReceivedEmail, subject: applicationReceivedSubject },
  'application-waitlist': { component: ApplicationWaitlistEmail, subject: applicationWaitlistSubject },
  'application-confirmed': { component: ApplicationConfirmedEmail, subject: applicationConfirmedSubject },
  'application-rejected': { component: ApplicationRejectedEmail, subject: applicationRejectedSubject },
};

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Validates the props against the template's schema and renders German HTML and plain text. */
export async function renderEmail(template: EmailTemplateName, props: unknown): Promise<RenderedEmail> {
  const checked = v.parse(EMAIL_TEMPLATES[template], props);
  const entry = TEMPLATES[template] as TemplateModule<typeof checked>;
  const html = await render(createElement(entry.component, checked));
  const subject = typeof entry.subject === 'function' ? entry.subject(checked) : entry.subject;
  return { subject, html, text: toPlainText(html) };
}
