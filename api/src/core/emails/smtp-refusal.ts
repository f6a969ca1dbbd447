/**
 * What a receiving server's refusal means for the address. Only a permanent refusal of the
 * recipient itself marks the address (later mails to it are held back); a refusal of this message
 * (its content, its size, a policy) is logged as refused and the next mail is tried again.
 */

/** A send the server refused for good: its answer, and whether it refused the recipient. */
export interface PermanentRefusal {
  answer: string;
  /** The mailbox does not exist or takes no mail: mark the address. */
  recipient: boolean;
}

/** The enhanced status code (RFC 3463) at the start of an SMTP reply: '550 5.1.1 …', '550-5.1.1 …'. */
const ENHANCED = /^\d{3}[ -]([245])\.(\d{1,3})\.(\d{1,3})(?!\S)/;

/**
 * Enhanced codes (RFC 3463) that refuse the recipient for good:
 * - X.1.0–X.1.4 and X.1.6: the destination address is bad, unknown, ambiguous or has moved;
 *   X.1.10 (RFC 7505): the recipient's domain takes no mail (null MX).
 *   Not X.1.5 (the address is valid), X.1.7/X.1.8 (the sender's address) or X.1.9.
 * - X.2.1: the mailbox is disabled and takes no messages.
 * Not a recipient refusal: X.2.2 (mailbox full: RFC 3463 calls it a persistent transient failure,
 * even sent as 5.2.2), X.2.3 and X.3.4 (the message is too big), X.2.0/X.2.4, X.3.x (the receiving
 * system), X.4.x (network and routing), X.5.x (protocol), X.6.x (content) and X.7.x (security and
 * policy, e.g. 5.7.1 spam or 5.7.26 unauthenticated): they refuse this message, not the mailbox.
 */
const RECIPIENT_CODES = new Set(['1.0', '1.1', '1.2', '1.3', '1.4', '1.6', '1.10', '2.1']);

/**
 * Enhanced codes that say nothing specific (X.0.0 other, X.5.0 other protocol status): the reply is
 * read as one without an enhanced code. Outlook answers an unknown mailbox with '550 5.5.0 Requested
 * action not taken: mailbox unavailable'.
 */
const UNSPECIFIC_CODES = new Set(['0.0', '5.0']);

/**
 * Reply codes that refuse the recipient when they answer RCPT TO without a specific enhanced code
 * (RFC 5321): 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed. Not 552
 * (storage exceeded, like a full mailbox) or 554 (transaction failed, mostly a policy block). At DATA
 * such a reply refuses the message.
 */
const RECIPIENT_REPLIES = new Set([550, 551, 553]);

/** Whether a permanent (5xx) reply to a command refuses the recipient itself. */
export function refusesRecipient(command: string, code: number, answer: string): boolean {
  const enhanced = ENHANCED.exec(answer.trimStart());
  if (enhanced && enhanced[1] === '5') {
    const detail = `${Number(enhanced[2])}.${Number(enhanced[3])}`;
    if (!UNSPECIFIC_CODES.has(detail)) return RECIPIENT_CODES.has(detail);
  }
  return command === 'RCPT TO' && RECIPIENT_REPLIES.has(code);
}

/**
 * The receiving server's permanent refusal of a send (5xx to RCPT TO or DATA, as nodemailer reports
 * it), with whether it refused the recipient; null for anything else (4xx, a refusal of our sender
 * at MAIL FROM, a lost connection: worth retrying).
 */
export function permanentRefusal(error: unknown): PermanentRefusal | null {
  const { responseCode, command, response } = (error ?? {}) as {
    responseCode?: number;
    command?: string;
    response?: string;
  };
  if (typeof responseCode !== 'number' || responseCode < 500 || responseCode > 599) return null;
  if (command !== 'RCPT TO' && command !== 'DATA') return null;
  const answer = (response ?? String(responseCode)).trim();
  return { answer, recipient: refusesRecipient(command, responseCode, answer) };
}
