/**
 * Reads QR codes from the rear camera: the browser's BarcodeDetector where it reads QR codes, else
 * jsQR on a downscaled canvas (loaded only then, as its own chunk).
 */

export type CameraProblem = 'insecure' | 'unsupported' | 'denied' | 'not-found' | 'busy' | 'ended' | 'failed';

export const CAMERA_MESSAGES: Record<CameraProblem, string> = {
  insecure:
    'Die Kamera lässt sich nur über eine sichere Verbindung (HTTPS) nutzen. Bitte öffne die Seite über https:// oder gib den Code von Hand ein.',
  unsupported:
    'Dieser Browser bietet keinen Kamerazugriff. Bitte gib den Check-in-Code oder die Startnummer von Hand ein.',
  denied:
    'Der Zugriff auf die Kamera wurde verweigert. Bitte erlaube ihn in den Browser-Einstellungen oder gib den Code von Hand ein.',
  'not-found':
    'Es wurde keine Kamera gefunden. Bitte gib den Check-in-Code oder die Startnummer von Hand ein.',
  busy: 'Die Kamera ist gerade belegt, vielleicht von einer anderen App. Bitte schließe sie und starte die Kamera erneut.',
  ended: 'Die Kamera wurde beendet. Starte sie erneut, um weiter zu scannen.',
  failed:
    'Die Kamera konnte nicht gestartet werden. Bitte versuche es erneut oder gib den Code von Hand ein.',
};

class CameraError extends Error {
  override readonly name = 'CameraError';
  constructor(readonly problem: CameraProblem) {
    super(CAMERA_MESSAGES[problem]);
  }
}

/** Maps getUserMedia's DOMException names to what the gate is told. */
export function cameraProblemOf(error: unknown): CameraProblem {
  if (error instanceof CameraError) return error.problem;
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'not-found';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    default:
      return 'failed';
  }
}

/** Throws a {@link CameraError} when this page cannot ask for a camera at all. */
function assertCameraAvailable(): void {
  // Browsers hide navigator.mediaDevices on plain http (other than localhost).
  if (window.isSecureContext === false) throw new CameraError('insecure');
  if (typeof navigator.mediaDevices?.getUserMedia !== 'function') throw new CameraError('unsupported');
}

/** The rear camera's stream; throws a {@link CameraError}. */
async function openCamera(): Promise<MediaStream> {
  assertCameraAvailable();
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  } catch (error) {
    throw new CameraError(cameraProblemOf(error));
  }
}

interface QrDecoder {
  readonly kind: 'barcode-detector' | 'jsqr';
  /** The text of a QR code in the video's current frame, or null. */
  decode(video: HTMLVideoElement): Promise<string | null>;
}

interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options?: { formats?: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

async function barcodeDetectorDecoder(): Promise<QrDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (typeof Detector !== 'function') return null;
  try {
    const formats = await Detector.getSupportedFormats?.();
    if (formats && !formats.includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return {
      kind: 'barcode-detector',
      async decode(video) {
        const codes = await detector.detect(video);
        return codes.find((code) => code.rawValue)?.rawValue ?? null;
      },
    };
  } catch {
    return null;
  }
}

/** Frames are scaled down to this width before jsQR reads them (fast enough on a phone). */
const MAX_FRAME_WIDTH = 640;

async function jsqrDecoder(): Promise<QrDecoder> {
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  let context: CanvasRenderingContext2D | null = null;
  return {
    kind: 'jsqr',
    async decode(video) {
      const { videoWidth, videoHeight } = video;
      if (!videoWidth || !videoHeight) return null;
      const scale = Math.min(1, MAX_FRAME_WIDTH / videoWidth);
      const width = Math.round(videoWidth * scale);
      const height = Math.round(videoHeight * scale);
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
      context ??= canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      context.drawImage(video, 0, 0, width, height);
      const frame = context.getImageData(0, 0, width, height);
      return jsQR(frame.data, width, height, { inversionAttempts: 'dontInvert' })?.data || null;
    },
  };
}

/** BarcodeDetector when the browser reads QR codes with it, else the jsQR fallback. */
async function createQrDecoder(): Promise<QrDecoder> {
  return (await barcodeDetectorDecoder()) ?? jsqrDecoder();
}

interface QrScannerOptions {
  video: HTMLVideoElement;
  /** Called for every code read; reading pauses for `pauseMs` after each. */
  onCode: (code: string) => void;
  /** The camera stopped on its own (unplugged, permission revoked). */
  onEnded?: () => void;
  /** Aborting while the camera starts releases it at once. */
  signal?: AbortSignal;
  intervalMs?: number;
  pauseMs?: number;
}

export interface QrScanner {
  readonly decoder: QrDecoder['kind'];
  stop(): void;
}

const HAVE_CURRENT_DATA = 2;

const SCAN_INTERVAL_MS = 150;
const SCAN_PAUSE_MS = 1500;

function stopStream(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/**
 * Starts the rear camera into `video` and reads a frame every `intervalMs`. Throws a
 * {@link CameraError} when the camera cannot be used or the scanner cannot be loaded.
 */
export async function startQrScanner({
  video,
  onCode,
  onEnded,
  signal,
  intervalMs = SCAN_INTERVAL_MS,
  pauseMs = SCAN_PAUSE_MS,
}: QrScannerOptions): Promise<QrScanner> {
  assertCameraAvailable();
  const decoderPromise = createQrDecoder();
  // Loaded alongside the permission prompt; a failed load is reported after the camera question.
  decoderPromise.catch(() => undefined);
  const stream = await openCamera();
  let decoder: QrDecoder;
  try {
    decoder = await decoderPromise;
  } catch {
    stopStream(stream);
    throw new CameraError('failed');
  }
  if (signal?.aborted) {
    stopStream(stream);
    throw new DOMException('Kamera abgebrochen', 'AbortError');
  }

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    stopStream(stream);
    video.pause();
    video.srcObject = null;
  };
  signal?.addEventListener('abort', stop, { once: true });
  for (const track of stream.getVideoTracks()) {
    track.addEventListener('ended', () => {
      if (stopped) return;
      stop();
      onEnded?.();
    });
  }

  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await video.play();
  } catch {
    // Autoplay refusals are harmless here: the video is muted and started by a tap.
  }

  const tick = async () => {
    if (stopped) return;
    let delay = intervalMs;
    if (video.readyState >= HAVE_CURRENT_DATA) {
      try {
        const code = await decoder.decode(video);
        if (code && !stopped) {
          onCode(code);
          delay = pauseMs;
        }
      } catch {
        // A frame that cannot be read: the next one will do.
      }
    }
    if (!stopped) timer = setTimeout(() => void tick(), delay);
  };
  void tick();

  return { decoder: decoder.kind, stop };
}
