import { Progress } from '@ark-ui/react/progress';
import { MAX_IMAGES_PER_VEHICLE, RECOMMENDED_IMAGES } from '@schlosstreffen/shared';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '../../components/ui/button';
import type { ImageUploader, UploadItem } from './use-image-uploader';

const sizeFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${sizeFormat.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${sizeFormat.format(bytes / 1024 / 1024)} MB`;
}

const UPLOAD_HINT = `Nur Bilddateien, höchstens 10 MB pro Bild. Empfohlen sind ${RECOMMENDED_IMAGES.min} bis ${RECOMMENDED_IMAGES.max} Bilder, höchstens ${MAX_IMAGES_PER_VEHICLE}.`;

interface ImageUploadFieldProps {
  uploader: ImageUploader;
  /** Signed out or saving: the picker is disabled. */
  disabled?: boolean;
  /** Several files per pick (default) or one. */
  multiple?: boolean;
  /** Text of the picker button, also the file input's label. */
  label?: string;
  hint?: string;
}

/**
 * The image picker: a real `<input type="file" accept="image/*">` behind a labelled button, a drop
 * zone, Uppy's notices (restriction errors in German) and the progress of unfinished uploads with
 * pause/resume, cancel and retry. Finished uploads are left to the caller (e.g. ImageCropEditor).
 */
export function ImageUploadField({
  uploader,
  disabled = false,
  multiple = true,
  label = 'Bilder auswählen',
  hint = UPLOAD_HINT,
}: ImageUploadFieldProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const full = uploader.remaining === 0;
  const blocked = disabled || full;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (blocked) return;
    const files = Array.from(event.dataTransfer.files);
    uploader.addFiles(multiple ? files : files.slice(0, 1));
  };

  const pending = uploader.items.filter((item) => item.status !== 'done');

  return (
    <div className="flex flex-col gap-4">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!blocked) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-6 py-8 text-center transition-colors ${
          dragging ? 'border-gold-400 bg-gold-500/10' : 'border-white/15 bg-night-900/60'
        } ${blocked ? 'opacity-70' : ''}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-10 text-gold-400"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 16-5-5-9 9" />
        </svg>
        <p className="text-sm text-ash-300">
          {full
            ? `Es sind bereits ${MAX_IMAGES_PER_VEHICLE} Bilder ausgewählt.`
            : multiple
              ? 'Bilder hierher ziehen oder auswählen'
              : 'Bild hierher ziehen oder auswählen'}
        </p>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept="image/*"
          multiple={multiple}
          disabled={blocked}
          aria-describedby={`${inputId}-hint`}
          className="peer sr-only"
          onChange={(event) => {
            const files = event.currentTarget.files;
            if (files) uploader.addFiles(Array.from(files));
            // The same file may be picked again after it was removed.
            event.currentTarget.value = '';
          }}
        />
        <label
          htmlFor={inputId}
          className="inline-flex cursor-pointer items-center justify-center gap-2 rounded-full border border-gold-500/40 px-5 py-2.5 text-sm font-semibold tracking-wide text-gold-200 transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-offset-3 peer-focus-visible:outline-gold-400 peer-disabled:cursor-not-allowed peer-disabled:opacity-60 hover:border-gold-400 hover:bg-gold-500/10"
        >
          {label}
        </label>
        <p id={`${inputId}-hint`} className="max-w-md text-xs text-ash-400">
          {disabled ? 'Bitte melde dich an, um Bilder hochzuladen. ' : ''}
          {hint}
        </p>
      </div>

      <ul aria-live="polite" className="flex flex-col gap-2 empty:hidden">
        {uploader.notices.map((notice) => (
          <li
            key={notice.key}
            className={`rounded-lg border px-3 py-2 text-sm ${
              notice.type === 'error'
                ? 'border-red-500/40 bg-red-950/60 text-red-100'
                : 'border-gold-500/30 bg-night-800 text-ash-300'
            }`}
          >
            {notice.message}
            {notice.details ? <span className="block text-xs opacity-80">{notice.details}</span> : null}
          </li>
        ))}
      </ul>

      {pending.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Uploads">
          {pending.map((item) => (
            <UploadRow key={item.id} item={item} uploader={uploader} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const STATUS_TEXT: Record<UploadItem['status'], string> = {
  queued: 'Wartet…',
  uploading: 'Wird hochgeladen…',
  paused: 'Pausiert',
  done: 'Hochgeladen',
  error: 'Fehlgeschlagen',
};

function UploadRow({ item, uploader }: { item: UploadItem; uploader: ImageUploader }) {
  const failed = item.status === 'error';
  return (
    <li className="flex items-center gap-3 rounded-xl border border-white/10 bg-night-900/80 p-3">
      <div className="size-12 shrink-0 overflow-hidden rounded-lg bg-night-950">
        {item.previewUrl ? <img src={item.previewUrl} alt="" className="size-full object-cover" /> : null}
      </div>
      <div className="min-w-0 flex-1">
        <Progress.Root
          value={item.percentage}
          min={0}
          max={100}
          locale="de-DE"
          translations={{ value: ({ percent }) => `${Math.round(percent)} %` }}
          className="flex flex-col gap-1.5"
        >
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <Progress.Label className="min-w-0 truncate text-parchment">{item.name}</Progress.Label>
            <span className="shrink-0 text-xs text-ash-400 tabular-nums">
              {failed ? STATUS_TEXT.error : <Progress.ValueText />}
            </span>
          </div>
          <Progress.Track className="h-1.5 overflow-hidden rounded-full bg-white/10">
            <Progress.Range
              className={`h-full rounded-full transition-[width] duration-300 ${
                failed ? 'bg-red-400' : item.status === 'paused' ? 'bg-ash-400' : 'bg-gold-500'
              }`}
            />
          </Progress.Track>
        </Progress.Root>
        <p className={`mt-1 truncate text-xs ${failed ? 'text-red-300' : 'text-ash-400'}`}>
          {failed
            ? item.error || STATUS_TEXT.error
            : `${STATUS_TEXT[item.status]} · ${formatFileSize(item.size)}`}
        </p>
      </div>
      <div className="flex shrink-0 gap-1">
        {failed ? (
          <Button
            variant="ghost"
            className="px-2.5 py-1.5 text-xs"
            onClick={() => uploader.retry(item.id)}
            aria-label={`Erneut versuchen: ${item.name}`}
          >
            Erneut versuchen
          </Button>
        ) : item.status === 'uploading' || item.status === 'paused' ? (
          <Button
            variant="ghost"
            className="px-2.5 py-1.5 text-xs"
            onClick={() => uploader.pauseResume(item.id)}
            aria-label={`${item.status === 'paused' ? 'Fortsetzen' : 'Pausieren'}: ${item.name}`}
          >
            {item.status === 'paused' ? 'Fortsetzen' : 'Pausieren'}
          </Button>
        ) : null}
        <Button
          variant="ghost"
          className="px-2.5 py-1.5 text-xs"
          onClick={() => uploader.cancel(item.id)}
          aria-label={`Abbrechen: ${item.name}`}
        >
          Abbrechen
        </Button>
      </div>
    </li>
  );
}
