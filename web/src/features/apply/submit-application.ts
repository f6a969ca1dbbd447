import { api } from '../../lib/api';
import type { Media, Vehicle } from '@schlosstreffen/shared/api';
import type { CropValues } from '../media/crop';
import { applicationBody, type ApplyFormValues } from '../vehicle-form/vehicle-form-values';

/** An uploaded image of the wizard, ready to be attached. */
interface ApplicationImage extends CropValues {
  objectPath: string;
  isHero: boolean;
}

interface ApplicationResult {
  vehicle: Vehicle;
  /** The first failure while attaching images (the vehicle exists regardless). */
  imageError: unknown;
  failedImages: number;
}

/**
 * Sends the application: POST /api/vehicles with status 'submitted', then each
 * uploaded image with POST /api/vehicles/{id}/media in upload order. A failed image does not undo
 * the vehicle; it is reported in the result. A failed vehicle call throws.
 */
export async function submitApplication(
  values: ApplyFormValues,
  images: readonly ApplicationImage[],
): Promise<ApplicationResult> {
  const vehicle = await api.post<Vehicle>('/api/vehicles', applicationBody(values));
  let imageError: unknown = null;
  let failedImages = 0;
  for (const image of images) {
    try {
      await api.post<Media>(`/api/vehicles/${encodeURIComponent(vehicle.id)}/media`, {
        type: 'image',
        url: image.objectPath,
        isHero: image.isHero,
        cropX: image.cropX,
        cropY: image.cropY,
        scale: image.scale,
      });
    } catch (error) {
      imageError ??= error;
      failedImages += 1;
    }
  }
  return { vehicle, imageError, failedImages };
}
