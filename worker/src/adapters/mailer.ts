import nodemailer from 'nodemailer';
import type { MailAttachment } from '../emails/render.js';

export interface OutgoingMail {
  to: string;
  /** Deterministic per job, so receivers can recognise a duplicate delivery. */
  messageId?: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
