/**
 * The mailbox an address reaches, as the visitors' award tells voters apart: one mailbox is one
 * voter however its address is spelled. Lower case; the sub-address tag ('+…' of the local part)
 * dropped for every domain; for Gmail the dots of the local part ignored and googlemail.com read as
 * gmail.com; an international domain by its ASCII form (punycode). Runs in browsers and Node.
 */

const GMAIL = 'gmail.com';
const GMAIL_ALIASES = new Set([GMAIL, 'googlemail.com']);

/** A domain's ASCII form ('müller.de' → 'xn--mller-kva.de'); an ASCII one as it is. */
function asciiDomain(domain: string): string {
  if (/^[\x20-\x7e]*$/.test(domain)) return domain;
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return domain;
  }
}

export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const domain = asciiDomain(address.slice(at + 1));
  const untagged = address.slice(0, at).split('+')[0] || address.slice(0, at);
  if (!GMAIL_ALIASES.has(domain)) return `${untagged}@${domain}`;
  return `${untagged.replaceAll('.', '')}@${GMAIL}`;
}
