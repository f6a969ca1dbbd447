import type { User } from './user.entity.js';

/** The signed-in user's own view: never the password hash or reset token. */
export function presentUser(user: User) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl ?? null,
    phone: user.phone ?? null,
    instagramHandle: user.instagramHandle ?? null,
    role: user.role,
    consentMedia: user.consentMedia,
    consentQuartett: user.consentQuartett,
    consentContact: user.consentContact,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export type PresentedUser = ReturnType<typeof presentUser>;

/** The owner as staff lists show them (spec section 3): contact data, no secrets. */
export function presentOwner(user: User) {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone ?? null,
    role: user.role,
  };
}
