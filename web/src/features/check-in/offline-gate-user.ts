import type { CurrentUser } from '@schlosstreffen/shared/api';
import { gateStaff } from './gate-store';

/**
 * Without network, the check-in screen of a device that holds a valid gate list opens for the staff
 * member who loaded it; everywhere else, no connection means signed out.
 */
export async function offlineGateUser(): Promise<CurrentUser | null> {
  if (typeof window === 'undefined' || !window.location.pathname.startsWith('/admin/check-in')) return null;
  try {
    const staff = await gateStaff();
    if (!staff) return null;
    return {
      id: staff.id,
      email: '',
      firstName: staff.firstName,
      lastName: staff.lastName,
      profileImageUrl: null,
      phone: null,
      instagramHandle: null,
      role: staff.role,
      consentMedia: false,
      consentQuartett: false,
      consentContact: false,
      emailVerified: true,
      pendingEmail: null,
      createdAt: '',
      updatedAt: '',
    };
  } catch {
    return null;
  }
}
