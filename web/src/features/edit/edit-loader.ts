import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../lib/api';
import { vehicleQueryOptions } from '../vehicles/vehicle-queries';

/**
 * Loader of /edit/{id}: the vehicle goes into the query cache; a missing one (404) is a normal
 * outcome ('Fahrzeug nicht gefunden'), any other failure goes to the route's error component.
 */
export async function loadVehicleForEdit(queryClient: QueryClient, id: string): Promise<{ found: boolean }> {
  try {
    await queryClient.ensureQueryData(vehicleQueryOptions(id));
    return { found: true };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { found: false };
    throw error;
  }
}
