import { isStaffRole, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { forbidden, notFound, unauthenticated } from '../errors.js';
import type { User } from '../model/user.entity.js';
import type { Vehicle } from '../model/vehicle.entity.js';

/**
 * Who may do what with a vehicle. Owners act on their
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

/**
 * Throws the answer a refused action gets: 401 signed out, 404 for someone else's vehicle (whatever
 * the action), 403 for what the owner may not do with their own.
 */
export function authorize(
  user: User | undefined,
  action: VehicleAction,
  vehicle: Vehicle,
): asserts user is User {
  if (!user) throw unauthenticated();
  if (can(user, action, vehicle)) return;
  if (!isStaffRole(user.role) && !isOwner(user, vehicle)) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
  if (action === 'readHistory') throw forbidden(VEHICLE_MESSAGES.reviewsStaffOnly);
  if (action === 'setAnyStatus') throw forbidden();
  throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
}
