import { describe, expect, it } from 'vitest';
import { permanentRefusal, refusesRecipient } from './smtp-refusal.js';

/** An error as nodemailer reports a server's reply to a command. */
const smtp = (command: string, response: string) =>
  Object.assign(new Error(`Message failed: ${response}`), {
    command,
    response,
    responseCode: Number(/^\d+/.exec(response)?.[0]),
  });

/** Replies of real mail servers (addresses and ids changed). */
const GMAIL_UNKNOWN = [
  '550-5.1.1 The email account that you tried to reach does not exist. Please try',
  "550-5.1.1 double-checking the recipient's email address for typos or",
  '550-5.1.1 unnecessary spaces. For more information, go to',
  '550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a640c23a62f3a-ab1234567si123456a66.120 - gsmtp',
].join('\n');
const GMAIL_DISABLED =
  '550 5.2.1 The email account that you tried to reach is disabled. a1si123456wrb.12 - gsmtp';
const GMAIL_FULL = [
  "552-5.2.2 The recipient's inbox is out of storage space. Please direct the",
  '552-5.2.2 recipient to',
  '552 5.2.2  https://support.google.com/mail/?p=OverQuotaPerm a1si123456wrb.12 - gsmtp',
].join('\n');
const GMAIL_SPAM = [
  '550-5.7.1 [203.0.113.5      12] Our system has detected that this message is',
  '550-5.7.1 likely unsolicited mail. To reduce the amount of spam sent to Gmail,',
  '550 5.7.1 this message has been blocked. a1si123456wrb.12 - gsmtp',
].join('\n');
const GMAIL_UNAUTHENTICATED =
  '550 5.7.26 This mail has been blocked because the sender is unauthenticated. a1si123456wrb.12 - gsmtp';
const POSTFIX_UNKNOWN =
  '550 5.1.1 <tippfehler@example.de>: Recipient address rejected: User unknown in virtual mailbox table';
const POSTFIX_NO_DOMAIN = '550 5.1.2 <jemand@example.invalid>: Recipient address rejected: Domain not found';
const POSTFIX_SENDER = '553 5.1.8 <noreply@schlosstreffen.test>: Sender address rejected: Domain not found';
const POSTFIX_SIZE = '552 5.3.4 Message size exceeds fixed limit';
const POSTFIX_RELAY = '554 5.7.1 <jemand@example.org>: Relay access denied';
const SPAMHAUS = '554 5.7.1 Service unavailable; Client host [203.0.113.5] blocked using zen.spamhaus.org';
const OUTLOOK_UNKNOWN =
  '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM0PR02MB1234.eurprd02.prod.outlook.com]';
const GMX_UNKNOWN = '550 Requested action not taken: mailbox unavailable';
const NULL_MX = '556 5.1.10 Recipient address has null MX';
const MOVED = '550 5.1.6 Recipient addr has moved; no forwarding address';
const CONTENT_BARE = '554 Transaction failed: message content rejected';
const YAHOO_DISABLED =
  "554 delivery error: dd This user doesn't have a yahoo.com account (jemand@yahoo.com) [0] - mta1001.mail.ir2.yahoo.com";

describe('a permanent refusal marks the address only when it refuses the recipient', () => {
  it.each([
    ['RCPT TO', GMAIL_UNKNOWN],
    ['RCPT TO', GMAIL_DISABLED],
    ['RCPT TO', POSTFIX_UNKNOWN],
    ['RCPT TO', POSTFIX_NO_DOMAIN],
    ['RCPT TO', OUTLOOK_UNKNOWN],
    ['RCPT TO', GMX_UNKNOWN],
    ['RCPT TO', NULL_MX],
    ['RCPT TO', MOVED],
    // One recipient per mail: an unknown mailbox reported after the message is that recipient's.
    ['DATA', POSTFIX_UNKNOWN],
  ])('%s %s: the recipient', (command, answer) => {
    expect(refusesRecipient(command, Number(answer.slice(0, 3)), answer)).toBe(true);
    expect(permanentRefusal(smtp(command, answer))).toEqual({ answer, recipient: true });
  });

  it.each([
    ['DATA', GMAIL_SPAM],
    ['DATA', GMAIL_UNAUTHENTICATED],
    ['DATA', GMAIL_FULL],
    ['RCPT TO', GMAIL_FULL],
    ['DATA', POSTFIX_SIZE],
    ['RCPT TO', POSTFIX_SENDER],
    ['RCPT TO', POSTFIX_RELAY],
    ['RCPT TO', SPAMHAUS],
    ['DATA', CONTENT_BARE],
    ['RCPT TO', CONTENT_BARE],
    // Without an enhanced code, a reply to DATA refuses the message, not the mailbox.
    ['DATA', GMX_UNKNOWN],
    ['DATA', YAHOO_DISABLED],
  ])('%s %s: the message, logged as refused without a mark', (command, answer) => {
    expect(refusesRecipient(command, Number(answer.slice(0, 3)), answer)).toBe(false);
    expect(permanentRefusal(smtp(command, answer))).toEqual({ answer, recipient: false });
  });

  it('is no permanent refusal at all for a deferral, a refused sender or a lost connection', () => {
    expect(permanentRefusal(smtp('RCPT TO', '451 4.2.2 Mailbox full, try again later'))).toBeNull();
    expect(permanentRefusal(smtp('DATA', '421 4.7.0 Try again later, closing connection.'))).toBeNull();
    expect(permanentRefusal(smtp('MAIL FROM', '550 5.7.1 Sender rejected'))).toBeNull();
    expect(permanentRefusal(new Error('connect ECONNREFUSED 127.0.0.1:25'))).toBeNull();
    expect(permanentRefusal(null)).toBeNull();
  });
});
