import { isStaffRole, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { forbidden, notFound, unauthorized } from '../../http/errors.js';
import type { User } from '../users/user.entity.js';
import type { Vehicle } from './vehicle.entity.js';

/**
 * Who may do what with a vehicle (spec section 6, ARCHITECTURE "Status rules"). Owners act on their
 * own vehicles only, and someone else's vehicle answers 404 so ids reveal nothing; reviewers and
 * admins act on all. State rules (submit only drafts, …) are the service's business.
 */
export type VehicleAction = 'read' | 'update' | 'delete' | 'changeOwnStatus' | 'setAnyStatus' | 'readHistory';

export function isOwner(user: User, vehicle: Vehicle): boolean {
  return vehicle.user.id === user.id;
}

export function can(user: User | undefined, action: VehicleAction, vehicle: Vehicle): boolean {
  if (!user) return false;
  const staff = isStaffRole(user.role);
  switch (action) {
    case 'read':
    case 'update':
    case 'delete':
    case 'changeOwnStatus':
      return staff || isOwner(user, vehicle);
    case 'setAnyStatus':
    case 'readHistory':
      return staff;
  }
}

/** Throws the answer a refused action gets: 401 signed out, 404 for a foreign vehicle, 403 otherwise. */
export function authorize(
  user: User | undefined,
  action: VehicleAction,
  vehicle: Vehicle,
): asserts user is User {
  if (!user) throw unauthorized();
  if (can(user, action, vehicle)) return;
  if (action === 'readHistory') throw forbidden(VEHICLE_MESSAGES.reviewsStaffOnly);
  if (action === 'setAnyStatus') throw forbidden();
  throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
}
