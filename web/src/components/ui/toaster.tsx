import { Portal } from '@ark-ui/react/portal';
import { createToaster, Toast, Toaster } from '@ark-ui/react/toast';
import { useRef, type PointerEvent } from 'react';
import { isApiError } from '../../lib/api';
import { XMarkIcon } from './icons';

/** One notification at a time, shown 5 s; swiping right 50 px dismisses it, F8 focuses the area. */
export const TOAST_DURATION_MS = 5000;
const SWIPE_DISMISS_PX = 50;

export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: TOAST_DURATION_MS,
  hotkey: ['F8'],
  gap: 12,
});

type ToastKind = 'success' | 'error' | 'info';

function show(type: ToastKind, title: string, description?: string) {
  // The newest message replaces the one on screen instead of waiting behind it.
  toaster.dismiss();
  return toaster.create({ type, title, description, duration: TOAST_DURATION_MS });
}

/** The fallback of a failed action when the server sent no message. */
export const RETRY_HINT = 'Bitte versuche es erneut.';

export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  info: (title: string, description?: string) => show('info', title, description),
  /** Destructive toast with the server's German message, else the caller's German fallback. */
  error: (title: string, error?: unknown, fallback?: string) =>
    show('error', title, errorText(error) ?? fallback),
};

/**
 * The server's message of a failed call; nothing for a bare status line ('Bad Gateway' from a proxy)
 * or other errors, so the caller's German fallback shows.
 */
export function errorText(error: unknown): string | undefined {
  if (isApiError(error) && error.fromBody) return error.serverMessage;
  return undefined;
}

function SwipeableToast({ id, type, children }: { id: string; type?: string; children: React.ReactNode }) {
  const start = useRef<number | null>(null);
  const root = useRef<HTMLDivElement>(null);

  const move = (event: PointerEvent) => {
    if (start.current === null || !root.current) return;
    const dx = Math.max(0, event.clientX - start.current);
    root.current.style.translate = `${dx}px 0`;
    root.current.style.opacity = String(Math.max(0.2, 1 - dx / 200));
  };
  const end = (event: PointerEvent) => {
    if (start.current === null || !root.current) return;
    const dx = event.clientX - start.current;
    start.current = null;
    if (dx > SWIPE_DISMISS_PX) {
      toaster.dismiss(id);
      return;
    }
    root.current.style.translate = '';
    root.current.style.opacity = '';
  };

  const tone =
    type === 'error'
      ? 'border-red-500/60 bg-red-950/95 text-red-50'
      : 'border-gold-500/40 bg-night-800/95 text-parchment';

  return (
    <Toast.Root
      ref={root}
      className={`w-[min(92vw,24rem)] touch-pan-y rounded-xl border px-4 py-3 pr-10 shadow-2xl shadow-black/50 backdrop-blur transition-[translate,opacity] duration-150 select-none ${tone}`}
      onPointerDown={(event) => {
        start.current = event.clientX;
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      data-testid="toast"
    >
      {children}
      <Toast.CloseTrigger
        aria-label="Schließen"
        className="absolute top-2.5 right-2.5 rounded p-1 text-current/70 hover:text-current"
      >
        <XMarkIcon className="size-4" />
      </Toast.CloseTrigger>
    </Toast.Root>
  );
}

/**
 * The notification area; rendered once in the root layout. Portalled to the body, so toasts stay
 * above open dialogs (the site shell is its own stacking context).
 */
export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster}>
        {(toast) => (
          <SwipeableToast key={toast.id} id={toast.id!} type={toast.type}>
            <Toast.Title className="text-sm font-semibold">{toast.title}</Toast.Title>
            {toast.description ? (
              <Toast.Description className="mt-0.5 text-sm opacity-90">{toast.description}</Toast.Description>
            ) : null}
          </SwipeableToast>
        )}
      </Toaster>
    </Portal>
  );
}
