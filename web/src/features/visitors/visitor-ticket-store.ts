import type { VisitorTicketView } from '@schlosstreffen/shared/api';

/**
 * The last ticket view loaded on this device, per secret (localStorage), so the ticket page still
 * shows the ticket at the gate without network.
 */

export interface StoredVisitorTicket {
  view: VisitorTicketView;
  /** When it was loaded (ISO). */
  savedAt: string;
}

const keyOf = (secret: string) => `besucherticket:${secret}`;

export function saveVisitorTicket(secret: string, view: VisitorTicketView, now = new Date()): void {
  try {
    const entry: StoredVisitorTicket = { view, savedAt: now.toISOString() };
    localStorage.setItem(keyOf(secret), JSON.stringify(entry));
  } catch {
    // Storage full or switched off: the page works online all the same.
  }
}

export function loadVisitorTicket(secret: string): StoredVisitorTicket | null {
  try {
    const text = localStorage.getItem(keyOf(secret));
    if (!text) return null;
    const entry = JSON.parse(text) as Partial<StoredVisitorTicket>;
    return entry.view && typeof entry.savedAt === 'string' ? (entry as StoredVisitorTicket) : null;
  } catch {
    return null;
  }
}

export function forgetVisitorTicket(secret: string): void {
  try {
    localStorage.removeItem(keyOf(secret));
  } catch {
    // Nothing to do without storage.
  }
}
