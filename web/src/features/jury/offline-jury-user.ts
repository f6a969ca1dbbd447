import type { CurrentUser } from '@schlosstreffen/shared/api';
import { JURY_PAGE_CACHE } from './jury-page-cache';
import { clearJury, juryJudge } from './jury-store';

/**
 * Without network, the jury's screens on a device that holds a judge's view open for the judge who
 * loaded it (until the jury's deadline); everywhere else, no connection means signed out.
 */
export async function offlineJuryUser(): Promise<CurrentUser | null> {
  if (typeof window === 'undefined') return null;
  const path = window.location.pathname;
  if (path !== '/jury' && !path.startsWith('/jury/')) return null;
  try {
    const judge = await juryJudge();
    if (!judge) return null;
    return {
      id: judge.id,
      email: '',
      firstName: judge.firstName,
      lastName: judge.lastName,
      profileImageUrl: null,
      phone: null,
      instagramHandle: null,
      role: judge.role,
      consentMedia: false,
      consentQuartett: false,
      consentContact: false,
      emailVerified: true,
      pendingEmail: null,
      judge: true,
      createdAt: '',
      updatedAt: '',
    };
  } catch {
    return null;
  }
}

/** Sign-out: the judge's copy and the kept page leave the device. */
export async function clearJuryDevice(): Promise<void> {
  await clearJury();
  if (typeof caches !== 'undefined') await caches.delete(JURY_PAGE_CACHE).catch(() => false);
}
