import { Text } from '@react-email/components';
import { render, toPlainText } from '@react-email/render';
import {
  defaultMailText,
  EMAIL_TEMPLATES,
  fillMail,
  mailKeyOf,
  mailValues,
  type EmailTemplateName,
  type EmailTemplateProps,
  type EventFacts,
  type MailText,
} from '@schlosstreffen/shared';
import { createElement, Fragment, type ReactNode } from 'react';
import * as v from 'valibot';
import type { MailAttachment } from '../adapters/mailer.js';
import { attachments as invitationAttachments, CheckInCode } from './invitation.js';
import { styles } from './layout.js';
import { girocodeAttachment, PaymentDetails, type PaymentTransfer } from './payment.js';
import { MailSiteContext, PREVIEW_SITE, type MailSite } from './site.js';
import { TemplatedEmail } from './templated-email.js';
import { visitorTicketAttachments, VisitorTicketCode } from './visitor-ticket.js';

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

/** The transfer details and the GiroCode's attachment of a mail that asks for the fee. */
async function paymentExtras(
  transfer: PaymentTransfer,
): Promise<{ after: ReactNode; attachment: MailAttachment }> {
  return {
    after: createElement(PaymentDetails, transfer),
    attachment: await girocodeAttachment(transfer),
  };
}

/**
 * What a mail carries besides its text: the invitation's QR code (and, with a fee, the transfer
 * details and GiroCode), a payment mail's transfer details, the visitor ticket's QR code and PDF, a
 * test update's note, headers.
 */
async function extrasOf(
  template: EmailTemplateName,
  props: unknown,
  event: EventFacts,
): Promise<{
  before?: ReactNode;
  after?: ReactNode;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
}> {
  switch (template) {
    case 'invitation': {
      const p = props as EmailTemplateProps<'invitation'>;
      const checkIn = createElement(CheckInCode, { checkInCode: p.checkInCode });
      const attachments = await invitationAttachments(p);
      if (!p.payment) return { after: checkIn, attachments };
      const payment = await paymentExtras({ payment: p.payment, transferCents: p.payment.amountCents });
      return {
        after: createElement(Fragment, null, checkIn, payment.after),
        attachments: [...attachments, payment.attachment],
      };
    }
    case 'payment-reminder':
    case 'payment-partial': {
      const p = props as EmailTemplateProps<'payment-reminder' | 'payment-partial'>;
      const payment = await paymentExtras({ payment: p.payment, transferCents: p.openCents });
      return { after: payment.after, attachments: [payment.attachment] };
    }
    case 'visitor-update': {
      const p = props as EmailTemplateProps<'visitor-update'>;
      if (!p.test) return { headers: oneClickUnsubscribe(p.oneClickUrl) };
      return {
        before: createElement(
          Text,
          { style: { ...styles.muted, fontWeight: 700 } },
          'Testversand: So sieht das Update für die Besucher aus. Der Abmeldelink wirkt hier nicht.',
        ),
      };
    }
    case 'visitor-ticket': {
      const p = props as EmailTemplateProps<'visitor-ticket'>;
      return {
        after: createElement(VisitorTicketCode),
        attachments: await visitorTicketAttachments(p, event),
        headers: oneClickUnsubscribe(p.oneClickUrl),
      };
    }
    case 'visitor-confirmation':
    case 'visitor-next-edition':
    case 'visitor-next-edition-consent':
    case 'visitor-ticket-waiting':
    case 'visitor-ticket-returned':
      return { headers: oneClickUnsubscribe((props as { oneClickUrl: string }).oneClickUrl) };
    default:
      return {};
  }
}

/**
 * The plain-text version: a link's address in angle brackets after its label (RFC 3986, appendix C),
 * so text that follows a link in the template never runs into its address and changes what a mail
 * client links there; an address shown as its own label stays as it is.
 */
const PLAIN_TEXT_LINKS = [
  {
    selector: 'a',
    options: { linkBrackets: ['<', '>'] as [string, string], hideLinkHrefIfSameAsText: true },
  },
];

/**
 * Validates the props against the template's schema and renders the mail's text (the edition's, as
 * organizers edited it, else the default) with its placeholders filled, in the event's layout, as
 * German HTML and plain text. Every mail links the privacy notice and imprint.
 */
export async function renderEmail(
  template: EmailTemplateName,
  props: unknown,
  event: EventFacts,
  site: MailSite = PREVIEW_SITE,
  text?: MailText,
): Promise<RenderedEmail> {
  const checked = v.parse(EMAIL_TEMPLATES[template], props);
  const key = mailKeyOf(template, checked as Record<string, unknown>);
  const mail = fillMail(key, text ?? defaultMailText(key), mailValues(key, checked, event));
  const { before, after, attachments, headers } = await extrasOf(template, checked, event);
  const html = await render(
    createElement(
      MailSiteContext.Provider,
      { value: site },
      createElement(TemplatedEmail, { mail, before, after }),
    ),
  );
  return {
    subject: mail.subject,
    html,
    text: toPlainText(html, { selectors: PLAIN_TEXT_LINKS }),
    ...(attachments ? { attachments } : {}),
    ...(headers ? { headers } : {}),
  };
}
