import { eventYear, vehicleSchemas, type VehicleSchemas } from '@schlosstreffen/shared';
import { getSiteConfig } from './site-config';

/** The vehicle schemas of the configured edition: a vehicle's year runs up to the event's year. */
export function siteVehicleSchemas(): VehicleSchemas {
  return vehicleSchemas(eventYear(getSiteConfig().eventStart));
}
