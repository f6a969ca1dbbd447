import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { QrCodeIcon, ScanCameraIcon } from './check-in-icons';
import {
  CAMERA_MESSAGES,
  cameraProblemOf,
  startQrScanner,
  type CameraProblem,
  type QrScanner,
} from './qr-scanner';

type CameraState = 'idle' | 'starting' | 'running';

/**
 * The camera stage: the live picture with a viewfinder, the start/stop control and the camera's
 * problems in German. `overlay` (the check-in result) covers the picture while the scanner keeps
 * reading underneath, so the next car's code replaces it.
 */
export function CheckInCamera({
  stageId,
  onCode,
  overlay,
  onRunningChange,
}: {
  /** Id of the stage, which takes focus when a result is dismissed while scanning. */
  stageId?: string;
  onCode: (code: string) => void;
  overlay?: ReactNode;
  onRunningChange?: (running: boolean) => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const scannerRef = useRef<QrScanner | null>(null);
  const startRef = useRef<AbortController | null>(null);
  const onCodeRef = useRef(onCode);
  const [state, setState] = useState<CameraState>('idle');
  const [problem, setProblem] = useState<CameraProblem | null>(null);

  useEffect(() => {
    onCodeRef.current = onCode;
  });
  useEffect(() => {
    onRunningChange?.(state === 'running');
  }, [state, onRunningChange]);

  const release = useCallback(() => {
    startRef.current?.abort();
    startRef.current = null;
    scannerRef.current?.stop();
    scannerRef.current = null;
  }, []);

  const stop = useCallback(() => {
    release();
    setState('idle');
  }, [release]);

  const start = async () => {
    const video = videoRef.current;
    if (!video || startRef.current) return;
    const controller = new AbortController();
    startRef.current = controller;
    setProblem(null);
    setState('starting');
    try {
      const scanner = await startQrScanner({
        video,
        signal: controller.signal,
        onCode: (code) => onCodeRef.current(code),
        onEnded: () => {
          scannerRef.current = null;
          setState('idle');
          setProblem('ended');
        },
      });
      if (controller.signal.aborted) {
        scanner.stop();
        return;
      }
      startRef.current = null;
      scannerRef.current = scanner;
      setState('running');
    } catch (error) {
      if (controller.signal.aborted) return;
      startRef.current = null;
      setState('idle');
      setProblem(cameraProblemOf(error));
    }
  };

  // Leaving the page (or the tab going away) turns the camera off.
  useEffect(() => {
    const onPageHide = () => stop();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      release();
    };
  }, [release, stop]);

  const running = state === 'running';
  return (
    <section aria-labelledby="check-in-camera-heading" className="flex flex-col gap-3">
      <h2 id="check-in-camera-heading" className="sr-only">
        QR-Code scannen
      </h2>
      <div
        id={stageId}
        tabIndex={-1}
        className="relative grid min-h-[19rem] overflow-hidden rounded-3xl border border-white/10 bg-night-900 outline-none sm:min-h-[26rem]"
      >
        <video
          ref={videoRef}
          muted
          playsInline
          aria-label="Kamerabild"
          className={`absolute inset-0 size-full object-cover ${running ? '' : 'invisible'}`}
        />
        {running ? (
          <div aria-hidden="true" className="pointer-events-none absolute inset-0 grid place-items-center">
            <div className="aspect-square w-3/5 max-w-72 rounded-3xl border-4 border-gold-300/90 shadow-[0_0_0_100vmax_rgba(11,10,8,0.35)]" />
          </div>
        ) : (
          <div className="flex flex-col items-center justify-center gap-3 px-6 py-10 text-center [grid-area:1/1]">
            <span className="grid size-16 place-items-center rounded-full bg-gold-500/10 text-gold-300">
              {state === 'starting' ? <Spinner className="size-7" /> : <QrCodeIcon className="size-8" />}
            </span>
            <p className="font-display text-xl text-parchment">
              {state === 'starting' ? 'Kamera wird gestartet...' : 'QR-Code scannen'}
            </p>
            <p className="max-w-xs text-sm text-ash-300">
              {state === 'starting'
                ? 'Bitte erlaube den Zugriff auf die Kamera, wenn der Browser fragt.'
                : 'Starte die Kamera und halte sie auf den QR-Code aus der Einladung.'}
            </p>
          </div>
        )}
        {running && !overlay ? (
          <p className="pointer-events-none absolute inset-x-0 bottom-0 bg-night-950/80 px-4 py-2.5 text-center text-sm font-medium text-parchment">
            QR-Code in den Rahmen halten
          </p>
        ) : null}
        {overlay ? <div className="relative z-10 flex [grid-area:1/1]">{overlay}</div> : null}
      </div>
      <Button
        variant={running ? 'secondary' : 'primary'}
        className="min-h-14 w-full text-base"
        disabled={state === 'starting'}
        onClick={() => (running ? stop() : void start())}
      >
        {state === 'starting' ? <Spinner /> : <ScanCameraIcon className="size-5" />}
        {running ? 'Kamera stoppen' : state === 'starting' ? 'Kamera startet...' : 'Kamera starten'}
      </Button>
      {problem ? (
        <p
          role="alert"
          className="rounded-xl border border-red-400/50 bg-red-950/60 px-4 py-3 text-sm leading-relaxed text-red-100"
        >
          {CAMERA_MESSAGES[problem]}
        </p>
      ) : null}
    </section>
  );
}
