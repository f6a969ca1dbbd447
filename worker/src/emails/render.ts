import { render, toPlainText } from '@react-email/render';
import { EMAIL_TEMPLATES, type EmailTemplateName, type EventFacts } from '@schlosstreffen/shared';
import type { ComponentType } from 'react';
import { createElement } from 'react';
import * as v from 'valibot';
import type { MailAttachment } from '../adapters/mailer.js';
import AccountConfirmEmail, { subject as accountConfirmSubject } from './account-confirm.js';
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
import {
  confirmSubject as emailChangeConfirmSubject,
  EmailChangeConfirmEmail,
  EmailChangeNoticeEmail,
  noticeSubject as emailChangeNoticeSubject,
} from './email-change.js';
import {
  declinedSubject,
  InvitationDeclinedEmail,
  InvitationLapsedEmail,
  InvitationReminderEmail,
  lapsedSubject,
  reminderSubject,
} from './invitation-deadlines.js';
import PasswordChangedEmail, { subject as passwordChangedSubject } from './password-changed.js';
import PasswordResetEmail, { subject as passwordResetSubject } from './password-reset.js';
import { MailSiteContext, PREVIEW_SITE, type MailSite } from './site.js';
import VisitorUpdateEmail, { subject as visitorUpdateSubject } from './visitor-update.js';
import VisitorConfirmationEmail, { subject as visitorConfirmationSubject } from './visitor-confirmation.js';
import VisitorNextEditionEmail, { subject as visitorNextEditionSubject } from './visitor-next-edition.js';

interface TemplateModule<P> {
  component: ComponentType<P & { event: EventFacts }>;
  subject: string | ((props: P) => string);
  attachments?: (props: P) => Promise<MailAttachment[]>;
  /** Extra mail headers, e.g. List-Unsubscribe. */
  headers?: (props: P) => Record<string, string>;
}

const TEMPLATES: { [N in EmailTemplateName]: TemplateModule<v.InferOutput<(typeof EMAIL_TEMPLATES)[N]>> } = {
  'password-reset': { component: PasswordResetEmail, subject: passwordResetSubject },
  'account-confirm': { component: AccountConfirmEmail, subject: accountConfirmSubject },
  'visitor-confirmation': {
    component: VisitorConfirmationEmail,
    subject: visitorConfirmationSubject,
    headers: ({ oneClickUrl }) => oneClickUnsubscribe(oneClickUrl),
  },
  'visitor-next-edition': {
    component: VisitorNextEditionEmail,
    subject: visitorNextEditionSubject,
    headers: ({ oneClickUrl }) => oneClickUnsubscribe(oneClickUrl),
  },
  'email-change-confirm': { component: EmailChangeConfirmEmail, subject: emailChangeConfirmSubject },
  'email-change-notice': { component: EmailChangeNoticeEmail, subject: emailChangeNoticeSubject },
  'password-changed': { component: PasswordChangedEmail, subject: passwordChangedSubject },
  'application-received': { component: ApplicationReceivedEmail, subject: applicationReceivedSubject },
  'application-waitlist': { component: ApplicationWaitlistEmail, subject: applicationWaitlistSubject },
  'application-confirmed': { component: ApplicationConfirmedEmail, subject: applicationConfirmedSubject },
  'application-rejected': { component: ApplicationRejectedEmail, subject: applicationRejectedSubject },
  invitation: { component: InvitationEmail, subject: invitationSubject, attachments: invitationAttachments },
  'invitation-reminder': { component: InvitationReminderEmail, subject: reminderSubject },
  'invitation-lapsed': { component: InvitationLapsedEmail, subject: lapsedSubject },
  'invitation-declined': { component: InvitationDeclinedEmail, subject: declinedSubject },
  'visitor-update': {
    component: VisitorUpdateEmail,
    subject: visitorUpdateSubject,
    headers: ({ oneClickUrl, test }) => (test ? {} : oneClickUnsubscribe(oneClickUrl)),
  },
};

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
}

/** RFC 8058: mail clients offer one-click unsubscribe, which POSTs to the link. */
export function oneClickUnsubscribe(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * Validates the props against the template's schema and renders German HTML and plain text; every
 * template also gets the configured event facts, and every mail links the privacy notice and imprint.
 */
export async function renderEmail(
  template: EmailTemplateName,
  props: unknown,
  event: EventFacts,
  site: MailSite = PREVIEW_SITE,
): Promise<RenderedEmail> {
  const checked = v.parse(EMAIL_TEMPLATES[template], props);
  const entry = TEMPLATES[template] as TemplateModule<typeof checked>;
  const html = await render(
    createElement(
      MailSiteContext.Provider,
      { value: site },
      createElement(entry.component, { ...checked, event }),
    ),
  );
  const subject = typeof entry.subject === 'function' ? entry.subject(checked) : entry.subject;
  const attachments = await entry.attachments?.(checked);
  const headers = entry.headers?.(checked);
  return {
    subject,
    html,
    text: toPlainText(html),
    ...(attachments ? { attachments } : {}),
    ...(headers ? { headers } : {}),
  };
}
