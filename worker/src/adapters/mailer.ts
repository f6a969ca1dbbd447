import nodemailer from 'nodemailer';

/** A file sent with the mail; `cid` makes it an inline image the HTML refers to as `cid:…`. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

export interface OutgoingMail {
  to: string;
  /** Deterministic per job, so receivers can recognise a duplicate delivery. */
  messageId?: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * Sends over a pool of kept SMTP connections: a connection per mail (greeting, EHLO, QUIT) cost
 * about 100 ms each, most of a status mail's way to the inbox.
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
