import { useMemo, useRef, useState } from 'react';
import type {
  ImageUploader,
  UploadedImage,
  UploadItem,
  UseImageUploaderOptions,
} from '../media/use-image-uploader';

/**
 * Stands in for the Uppy uploader: picked files are "uploaded" at once to /objects/uploads/test/{name}.
 * Use with `vi.mock('../media/use-image-uploader', …)`.
 */
export function useFakeImageUploader(options: UseImageUploaderOptions = {}): ImageUploader {
  const [uploaded, setUploaded] = useState<UploadedImage[]>([]);
  const latest = useRef(options);
  latest.current = options;
  const items = useMemo<UploadItem[]>(
    () =>
      uploaded.map((file) => ({
        ...file,
        percentage: 100,
        status: 'done',
        error: null,
      })),
    [uploaded],
  );
  return {
    items,
    uploaded,
    notices: [],
    remaining: Math.max(0, 10 - (options.existingCount ?? 0) - uploaded.length),
    isUploading: false,
    addFiles: (files) => {
      const added = Array.from(files).map((file) => ({
        id: `upload-${file.name}`,
        name: file.name,
        size: file.size,
        type: file.type,
        objectPath: `/objects/uploads/test/${file.name}`,
        previewUrl: undefined,
      }));
      setUploaded((current) => [...current, ...added]);
      for (const file of added) latest.current.onUploaded?.(file);
    },
    pauseResume: () => undefined,
    cancel: (id) => {
      setUploaded((current) => current.filter((file) => file.id !== id));
      latest.current.onRemoved?.(id);
    },
    retry: () => undefined,
    reset: () => setUploaded([]),
  };
}
