import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ReactNode } from 'react';
import { Button } from './button';

/** A modal question with Abbrechen and one action; focus is trapped and returns to the trigger. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending = false,
  destructive = false,
  onConfirm,
  finalFocusEl,
  details,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
  /** Where focus goes on close when the trigger is gone (e.g. after a delete); null keeps the default. */
  finalFocusEl?: () => HTMLElement | null;
  /** Controls below the description (e.g. consents to tick), not part of what the dialog announces. */
  details?: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role="alertdialog"
      finalFocusEl={finalFocusEl}
      // The focus trap returns focus only if it was already active; a dialog closed at once (an
      // answer faster than the trap's activation frame) still hands focus to where it should go.
      onExitComplete={() => {
        const target = finalFocusEl?.();
        if (target && document.activeElement !== target) target.focus();
      }}
    >
      <Portal>
        <Dialog.Backdrop className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <Dialog.Positioner className="fixed inset-0 z-50 flex items-center justify-center p-4">
          <Dialog.Content className="max-h-full w-full max-w-md overflow-y-auto rounded-2xl border border-white/10 bg-night-900 p-6 shadow-2xl">
            <Dialog.Title className="font-display text-xl text-parchment">{title}</Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-ash-300">{children}</Dialog.Description>
            {details}
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.CloseTrigger asChild>
                <Button variant="ghost">Abbrechen</Button>
              </Dialog.CloseTrigger>
              <Button variant={destructive ? 'danger' : 'primary'} disabled={pending} onClick={onConfirm}>
                {pending && pendingLabel ? pendingLabel : confirmLabel}
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
