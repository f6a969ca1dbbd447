/**
 * The edition the staff screens show: the current one unless an earlier (or later) one was chosen
 * in the admin area's switch. Kept for the browser tab; the API answers every `/api/admin/…` list of
 * the chosen edition (`?edition=`), the gate always the current one's.
 */

import { setPathRewriter } from './api';

const STORAGE_KEY = 'schlosstreffen:admin-edition';

/** Paths answered for the current edition whatever is chosen: the gate and the editions themselves. */
const ALWAYS_CURRENT = ['/api/admin/check-in', '/api/admin/editions'];

const listeners = new Set<() => void>();

function stored(): number | null {
  if (typeof window === 'undefined') return null;
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    return raw && /^\d{4}$/.test(raw) ? Number(raw) : null;
  } catch {
    return null;
  }
}

let chosen: number | null = stored();

/** The chosen edition's year; null for the current one. */
export function chosenEdition(): number | null {
  return chosen;
}

/** Chooses the edition the staff screens show (null: the current one). */
export function chooseEdition(year: number | null): void {
  if (year === chosen) return;
  chosen = year;
  try {
    if (year === null) window.sessionStorage.removeItem(STORAGE_KEY);
    else window.sessionStorage.setItem(STORAGE_KEY, String(year));
  } catch {
    // Storage unavailable (private mode): the choice lasts until the page is reloaded.
  }
  for (const listener of listeners) listener();
}

export function subscribeEdition(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `path` with the chosen edition, for the staff API's lists and exports. */
export function withEdition(path: string): string {
  if (chosen === null || !path.startsWith('/api/admin/')) return path;
  if (ALWAYS_CURRENT.some((prefix) => path.startsWith(prefix))) return path;
  return `${path}${path.includes('?') ? '&' : '?'}edition=${chosen}`;
}

// Loaded with the admin area: from then on its requests name the chosen edition.
setPathRewriter(withEdition);
