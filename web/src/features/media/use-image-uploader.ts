import AwsS3 from '@uppy/aws-s3';
import Uppy, { type UppyFile } from '@uppy/core';
import de_DE from '@uppy/locales/lib/de_DE';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_VEHICLE, UPLOADER } from '@schlosstreffen/shared';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { notify } from '../../components/ui/toaster';
import { api, ApiError } from '../../lib/api';

/**
 * One Uppy instance per component that uploads vehicle images straight to S3: images only, at most
 * 10 MB each and 10 per vehicle, with German notices and toasts.
 *
 * Signing: Uppy 6's `@uppy/aws-s3` sends single (non-multipart) uploads of its companion mode as S3
 * POST-policy forms, while the API signs PUTs. So the plugin runs in `signRequest` mode and each PUT
 * is signed by `POST /api/objects/upload` under the caller's own prefix; the
 * signing call is retried with UPLOADER.retryDelaysMs. Multipart is configured (files above
 * 100 MiB) but can never start, since images are capped at 10 MB before they are added.
 *
 * Files upload as soon as they are added. A finished file carries its object path (/objects/{key}),
 * which is what POST /api/vehicles/{id}/media takes as `url`.
 */

/** Where the file stands; `paused` only while an upload is under way. */
type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'error';

export interface UploadItem {
  /** Uppy's file id; stable for the file's life in this uploader. */
  id: string;
  name: string;
  size: number;
  type: string;
  /** A local object URL of the picked file, for previews before the server has thumbnails. */
  previewUrl: string | undefined;
  /** 0–100. */
  percentage: number;
  status: UploadStatus;
  /** German message of the last failure. */
  error: string | null;
  /** /objects/{key} once uploaded. */
  objectPath: string | null;
}

export interface UploadedImage {
  id: string;
  name: string;
  size: number;
  type: string;
  objectPath: string;
  previewUrl: string | undefined;
}

/** Uppy's own notices (restriction errors in German, at most 4 at once, then a summary). */
interface UploaderNotice {
  key: string;
  type: 'info' | 'warning' | 'error' | 'success';
  message: string;
  details?: string | null;
}

export interface UseImageUploaderOptions {
  /** Images the vehicle already has: at most 10 minus these may be added. */
  existingCount?: number;
  /** No uploads (e.g. signed out): adding files does nothing. */
  disabled?: boolean;
  /** Success and failure toasts; default true. */
  toasts?: boolean;
  onUploaded?: (file: UploadedImage) => void;
  onFailed?: (file: { id: string; name: string }, error: unknown) => void;
  /** A file left the uploader (cancelled or removed). */
  onRemoved?: (id: string) => void;
}

export interface ImageUploader {
  items: UploadItem[];
  /** Finished uploads in the order they were added. */
  uploaded: UploadedImage[];
  notices: UploaderNotice[];
  /** How many more files may be added. */
  remaining: number;
  /** Some file is queued or uploading (also while paused). */
  isUploading: boolean;
  addFiles: (files: FileList | readonly File[]) => void;
  /** Pause a running upload or resume a paused one. */
  pauseResume: (id: string) => void;
  /** Stop an upload (or drop a finished file) and remove it from the list. */
  cancel: (id: string) => void;
  retry: (id: string) => void;
  /** Remove every file. */
  reset: () => void;
}

export const UPLOAD_TEXTS = {
  successTitle: 'Bild hochgeladen',
  success: (name: string) => `${name} wurde erfolgreich hochgeladen`,
  errorTitle: 'Fehler beim Hochladen',
  errorFallback: 'Bild konnte nicht hochgeladen werden',
  /** Multipart needs files above 100 MiB, which the 10 MB limit rules out. */
  multipartUnsupported: 'Dieses Bild ist zu groß.',
} as const;

type Meta = Record<string, never>;
type Body = { location?: string; key?: string };
type File_ = UppyFile<Meta, Body>;

interface SignedPut {
  uploadURL: string;
  key: string;
  objectPath: string;
  headers?: Record<string, string>;
}

/**
 * Failures worth another try: timeouts, conflicts, rate limits, server errors, a failed fetch; 403
 * only when the signature expired.
 */
function isRetryableUploadError(error: unknown): boolean {
  if (error instanceof ApiError) {
    const { status } = error;
    if (status === 403) return /request has expired/i.test(error.serverMessage);
    if ([408, 409, 418, 423, 429].includes(status)) return true;
    return status >= 500 && status !== 501 && status !== 505;
  }
  // fetch itself failed (offline, connection reset).
  return error instanceof TypeError;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `call`, retrying retryable failures after each of `delays` in turn. */
async function withUploadRetries<T>(
  call: () => Promise<T>,
  delays: readonly number[] = UPLOADER.retryDelaysMs,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isRetryableUploadError(error)) throw error;
      await wait(delay);
    }
  }
}

const objectPathOfKey = (key: string) => `/objects/${key}`;

function createUppy(maxNumberOfFiles: number): Uppy<Meta, Body> {
  const uppy = new Uppy<Meta, Body>({
    autoProceed: true,
    locale: de_DE,
    infoTimeout: UPLOADER.noticeDurationMs,
    restrictions: {
      allowedFileTypes: ['image/*'],
      maxFileSize: MAX_IMAGE_BYTES,
      maxNumberOfFiles,
    },
  });
  uppy.use(AwsS3<Meta, Body>, {
    limit: UPLOADER.concurrency,
    shouldUseMultipart: (file) => (file.size ?? 0) > UPLOADER.multipartThresholdBytes,
    // The requested key is only a handle for signRequest; the server chooses the real key.
    generateObjectKey: (file) => file.id,
    signRequest: async (request) => {
      if (request.method !== 'PUT' || 'uploadId' in request) {
        throw new Error(UPLOAD_TEXTS.multipartUnsupported);
      }
      const file = uppy.getFile(request.key);
      const signed = await withUploadRetries(() =>
        api.post<SignedPut>('/api/objects/upload', {
          filename: file.name,
          type: file.type,
          size: file.size ?? file.data?.size ?? 0,
        }),
      );
      return { url: signed.uploadURL, key: signed.key, headers: signed.headers };
    },
  });
  return uppy;
}

function statusOf(file: File_): UploadStatus {
  if (file.error) return 'error';
  if (file.progress.uploadComplete) return 'done';
  if (file.isPaused) return 'paused';
  if (file.progress.uploadStarted) return 'uploading';
  return 'queued';
}

function objectPathOf(file: File_): string | null {
  const key = file.response?.body?.key;
  return file.progress.uploadComplete && typeof key === 'string' && key ? objectPathOfKey(key) : null;
}

const remainingSlots = (existingCount: number) =>
  Math.max(0, MAX_IMAGES_PER_VEHICLE - Math.max(0, existingCount));

/** Wraps one Uppy instance; see the module comment. */
export function useImageUploader(options: UseImageUploaderOptions = {}): ImageUploader {
  const { existingCount = 0, disabled = false } = options;
  const latest = useRef(options);
  latest.current = options;
  const maxFiles = remainingSlots(existingCount);

  const [uppy, setUppy] = useState<Uppy<Meta, Body> | null>(null);
  const previews = useRef(new Map<string, string>());
  const initialMax = useRef(maxFiles);

  useEffect(() => {
    const instance = createUppy(initialMax.current);
    const urls = previews.current;
    // Set false on cleanup: no callbacks into a component that is going away.
    let active = true;

    instance.on('file-added', (file) => {
      if (file.data instanceof Blob && typeof URL.createObjectURL === 'function') {
        const url = URL.createObjectURL(file.data);
        urls.set(file.id, url);
        instance.setFileState(file.id, { preview: url });
      }
    });
    instance.on('file-removed', (file) => {
      const url = urls.get(file.id);
      if (url) URL.revokeObjectURL(url);
      urls.delete(file.id);
      if (active) latest.current.onRemoved?.(file.id);
    });
    instance.on('upload-success', (file, response) => {
      const key = response.body?.key;
      if (!active || !file || !key) return;
      const uploaded: UploadedImage = {
        id: file.id,
        name: file.name,
        size: file.size ?? 0,
        type: file.type,
        objectPath: objectPathOfKey(key),
        previewUrl: urls.get(file.id),
      };
      if (latest.current.toasts !== false) {
        notify.success(UPLOAD_TEXTS.successTitle, UPLOAD_TEXTS.success(file.name));
      }
      latest.current.onUploaded?.(uploaded);
    });
    instance.on('upload-error', (file, error) => {
      if (!active || !file) return;
      if (latest.current.toasts !== false) {
        notify.error(UPLOAD_TEXTS.errorTitle, error, UPLOAD_TEXTS.errorFallback);
      }
      latest.current.onFailed?.({ id: file.id, name: file.name }, error);
    });

    setUppy(instance);
    return () => {
      active = false;
      instance.destroy();
      for (const url of urls.values()) URL.revokeObjectURL(url);
      urls.clear();
      setUppy(null);
    };
  }, []);

  useEffect(() => {
    uppy?.setOptions({
      restrictions: {
        allowedFileTypes: ['image/*'],
        maxFileSize: MAX_IMAGE_BYTES,
        maxNumberOfFiles: maxFiles,
      },
    });
  }, [uppy, maxFiles]);

  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!uppy) return () => undefined;
      uppy.on('state-update', onChange);
      return () => uppy.off('state-update', onChange);
    },
    [uppy],
  );
  const state = useSyncExternalStore(subscribe, () => uppy?.getState() ?? null);

  const items = useMemo<UploadItem[]>(
    () =>
      Object.values(state?.files ?? {}).map((file) => ({
        id: file.id,
        name: file.name,
        size: file.size ?? 0,
        type: file.type,
        previewUrl: file.preview,
        percentage: file.progress.uploadComplete ? 100 : (file.progress.percentage ?? 0),
        status: statusOf(file),
        error: file.error ?? null,
        objectPath: objectPathOf(file),
      })),
    [state?.files],
  );

  const uploaded = useMemo<UploadedImage[]>(
    () =>
      items.flatMap((item) =>
        item.objectPath
          ? [
              {
                id: item.id,
                name: item.name,
                size: item.size,
                type: item.type,
                objectPath: item.objectPath,
                previewUrl: item.previewUrl,
              },
            ]
          : [],
      ),
    [items],
  );

  const notices = useMemo<UploaderNotice[]>(
    () =>
      (state?.info ?? []).map((info, index) => ({
        key: `${index}-${info.message}`,
        type: info.type as UploaderNotice['type'],
        message: info.message,
        details: typeof info.details === 'string' ? info.details : null,
      })),
    [state?.info],
  );

  const addFiles = useCallback(
    (files: FileList | readonly File[]) => {
      if (!uppy || disabled) return;
      const list = Array.from(files);
      if (list.length === 0) return;
      uppy.addFiles(
        list.map((file) => ({
          name: file.name,
          type: file.type,
          data: file,
          source: 'local',
          isRemote: false,
        })),
      );
    },
    [uppy, disabled],
  );

  const pauseResume = useCallback((id: string) => void uppy?.pauseResume(id), [uppy]);
  const cancel = useCallback((id: string) => uppy?.removeFile(id), [uppy]);
  const retry = useCallback((id: string) => void uppy?.retryUpload(id), [uppy]);
  const reset = useCallback(() => uppy?.cancelAll(), [uppy]);

  return {
    items,
    uploaded,
    notices,
    remaining: Math.max(0, maxFiles - items.length),
    isUploading: items.some((item) => item.status !== 'done' && item.status !== 'error'),
    addFiles,
    pauseResume,
    cancel,
    retry,
    reset,
  };
}
