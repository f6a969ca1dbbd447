import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { cameraProblemOf, startQrScanner, type CameraProblem } from '../check-in/qr-scanner';

/** The camera's problems as a judge is told them. */
export const JURY_CAMERA_MESSAGES: Record<CameraProblem, string> = {
  insecure:
    'Die Kamera lässt sich nur über eine sichere Verbindung (HTTPS) nutzen. Bitte geben Sie die Startnummer von Hand ein.',
  unsupported: 'Dieser Browser bietet keinen Kamerazugriff. Bitte geben Sie die Startnummer von Hand ein.',
  denied:
    'Der Zugriff auf die Kamera wurde verweigert. Bitte erlauben Sie ihn in den Browser-Einstellungen oder geben Sie die Startnummer von Hand ein.',
  'not-found': 'Es wurde keine Kamera gefunden. Bitte geben Sie die Startnummer von Hand ein.',
  busy: 'Die Kamera ist gerade belegt, vielleicht von einer anderen App. Bitte schließen Sie diese und versuchen Sie es erneut.',
  ended: 'Die Kamera wurde beendet. Bitte starten Sie den Scan erneut.',
  failed:
    'Die Kamera konnte nicht gestartet werden. Bitte versuchen Sie es erneut oder geben Sie die Startnummer von Hand ein.',
};

/**
 * The camera while it is open: starts at once (the judge pressed 'Code scannen'), reads QR codes
 * and hands each to `onCode`; stops when closed, when the page goes away, or on a problem, which it
 * shows in German.
 */
export function JuryCamera({ onCode }: { onCode: (code: string) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const onCodeRef = useRef(onCode);
  const [state, setState] = useState<'starting' | 'running' | 'failed'>('starting');
  const [problem, setProblem] = useState<CameraProblem | null>(null);

  useEffect(() => {
    onCodeRef.current = onCode;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return undefined;
    const controller = new AbortController();
    let stop: (() => void) | null = null;
    startQrScanner({
      video,
      signal: controller.signal,
      onCode: (code) => onCodeRef.current(code),
      onEnded: () => {
        setState('failed');
        setProblem('ended');
      },
    })
      .then((scanner) => {
        if (controller.signal.aborted) return scanner.stop();
        stop = () => scanner.stop();
        setState('running');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState('failed');
        setProblem(cameraProblemOf(error));
      });
    const onPageHide = () => controller.abort();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      controller.abort();
      stop?.();
    };
  }, []);

  return (
    <div className="flex flex-col gap-3">
      <div className="relative grid min-h-[18rem] overflow-hidden rounded-3xl border border-white/10 bg-night-900">
        <video
          ref={videoRef}
          muted
          playsInline
          aria-label="Kamerabild"
          className={`absolute inset-0 size-full object-cover ${state === 'running' ? '' : 'invisible'}`}
        />
        {state === 'running' ? (
          <>
            <div aria-hidden="true" className="pointer-events-none absolute inset-0 grid place-items-center">
              <div className="aspect-square w-3/5 max-w-64 rounded-3xl border-4 border-gold-300/90 shadow-[0_0_0_100vmax_rgba(11,10,8,0.35)]" />
            </div>
            <p className="pointer-events-none absolute inset-x-0 bottom-0 bg-night-950/80 px-4 py-2.5 text-center text-sm font-medium text-parchment">
              QR-Code des Windschutzscheiben-Schilds in den Rahmen halten
            </p>
          </>
        ) : state === 'starting' ? (
          <p role="status" className="flex items-center justify-center gap-2 px-6 text-sm text-ash-300">
            <Spinner />
            Kamera wird gestartet...
          </p>
        ) : null}
      </div>
      {problem ? (
        <p
          role="alert"
          className="rounded-xl border border-red-400/50 bg-red-950/60 px-4 py-3 text-sm leading-relaxed text-red-100"
        >
          {JURY_CAMERA_MESSAGES[problem]}
        </p>
      ) : null}
    </div>
  );
}
