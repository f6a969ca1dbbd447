import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { formatEuro, PAYMENT_STATUS_LABELS, PaymentWaiveSchema } from '@schlosstreffen/shared';
import type { PaymentRow, UnassignedEntry } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { XMarkIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify, RETRY_HINT } from '../../../components/ui/toaster';
import { useAssignEntry, useWaivePayment } from './payments-mutations';
import { paymentSearchQueryOptions } from './payments-queries';
import { bookingDateText, carLine } from './payments-format';

/** How long typing pauses before the search goes out. */
const SEARCH_DELAY_MS = 250;

/**
 * The frame of the dialogs on 'Zahlungen': title, a line, the body and a close button; closing is
 * refused while `busy`. Mounted only while open, so each opening starts afresh.
 */
function PaymentsDialog({
  title,
  description,
  busy,
  onClose,
  children,
}: {
  title: string;
  description: ReactNode;
  busy: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open
      onOpenChange={(details) => {
        if (!details.open && !busy) onClose();
      }}
      closeOnInteractOutside={false}
      closeOnEscape={!busy}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm" />
        <Dialog.Positioner className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
          <Dialog.Content className="flex max-h-[100dvh] w-full max-w-xl flex-col overflow-hidden border border-white/10 bg-night-900 shadow-2xl shadow-black/60 focus:outline-none sm:max-h-[90dvh] sm:rounded-2xl">
            <header className="flex items-start justify-between gap-4 border-b border-white/10 px-5 pt-5 pb-4 sm:px-6">
              <div className="min-w-0">
                <Dialog.Title className="font-display text-2xl leading-tight text-parchment">
                  {title}
                </Dialog.Title>
                <Dialog.Description className="mt-1.5 text-sm text-ash-300">{description}</Dialog.Description>
              </div>
              <Dialog.CloseTrigger
                aria-label="Schließen"
                title="Schließen"
                disabled={busy}
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full border border-white/10 text-ash-300 transition-colors hover:border-gold-400/60 hover:text-parchment disabled:opacity-40"
              >
                <XMarkIcon className="size-4" />
              </Dialog.CloseTrigger>
            </header>
            <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-5 sm:px-6">
              {children}
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>;
}

function Problem({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="mt-4 text-sm text-red-300">
      {text}
    </p>
  ) : null;
}

/** `value`, once it has not changed for `delay` ms. */
function useSettled(value: string, delay: number): [string, (now: string) => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return [settled, setSettled];
}

const ASSIGN_FAILURE = 'Die Buchung konnte nicht zugeordnet werden.';
const PICK_ONE = 'Bitte wählen Sie die Zahlung, zu der die Buchung gehört.';

/** What a payment to pick shows: car, owner, reference, state and amounts. */
function PaymentChoice({ payment }: { payment: PaymentRow }) {
  return (
    <span className="flex min-w-0 flex-col">
      <span className="font-medium text-parchment">{carLine(payment)}</span>
      <span className="text-ash-300">{payment.ownerName ?? 'Konto gelöscht'}</span>
      <span className="text-xs text-ash-400">
        <span className="font-mono">{payment.reference}</span> · {PAYMENT_STATUS_LABELS[payment.status]} ·{' '}
        {formatEuro(payment.paidCents)} von {formatEuro(payment.amountCents)} bezahlt
      </span>
    </span>
  );
}

/**
 * 'Zuordnen': a statement line no reference matched goes to the payment an admin finds by
 * reference, start number, car or owner.
 */
export function AssignDialog({
  year,
  entry,
  onClose,
}: {
  year: number;
  entry: UnassignedEntry;
  onClose: () => void;
}) {
  const assign = useAssignEntry(year);
  const [typed, setTyped] = useState('');
  const [settled, settleNow] = useSettled(typed.trim(), SEARCH_DELAY_MS);
  const search = useQuery({ ...paymentSearchQueryOptions(year, settled), enabled: settled !== '' });
  const [picked, setPicked] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const searchId = useId();
  const hintId = useId();
  const statusId = useId();
  const results = settled !== '' ? (search.data ?? []) : [];
  const chosen = results.find((payment) => payment.id === picked);
  const pending = assign.isPending;

  const status =
    settled === ''
      ? ''
      : search.isFetching
        ? 'Wird gesucht...'
        : search.isError
          ? `${errorText(search.error) ?? 'Die Suche ist fehlgeschlagen.'} ${RETRY_HINT}`
          : results.length === 0
            ? 'Keine Zahlung gefunden.'
            : results.length === 1
              ? '1 Zahlung gefunden.'
              : `${results.length} Zahlungen gefunden.`;

  const submit = () => {
    if (!chosen) {
      setProblem(PICK_ONE);
      return;
    }
    setProblem(null);
    assign.mutate(
      { entryId: entry.id, paymentId: chosen.id },
      {
        onSuccess: (answer) => {
          notify.success(answer.message, `${formatEuro(entry.amountCents)} · ${chosen.reference}`);
          onClose();
        },
        onError: (error) => {
          setProblem(errorText(error) ?? ASSIGN_FAILURE);
          notify.error('Nicht zugeordnet', error, ASSIGN_FAILURE);
        },
      },
    );
  };

  return (
    <PaymentsDialog
      title="Buchung zuordnen"
      description={
        <>
          {formatEuro(entry.amountCents)}
          {entry.bookingDate ? ` vom ${bookingDateText(entry.bookingDate)}` : ''}
          {entry.payerName ? ` von ${entry.payerName}` : ''}
          {entry.remittance ? `, Verwendungszweck „${entry.remittance}“` : ''}. Wählen Sie die Zahlung, zu der
          sie gehört.
        </>
      }
      busy={pending}
      onClose={onClose}
    >
      <form
        aria-label="Buchung zuordnen"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor={searchId} className="text-sm font-medium text-ash-300">
            Zahlung suchen
          </label>
          <input
            id={searchId}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches at once; it does not assign.
              if (event.key === 'Enter') {
                event.preventDefault();
                settleNow(typed.trim());
              }
            }}
            aria-describedby={`${hintId} ${statusId}`}
            autoComplete="off"
            spellCheck={false}
            disabled={pending}
            className={inputClass}
          />
          <p id={hintId} className="text-xs text-ash-400">
            Verwendungszweck, Startnummer, Auto oder Besitzer
          </p>
        </div>
        <p id={statusId} role="status" className="mt-3 text-sm text-ash-300">
          {status}
        </p>
        {results.length > 0 ? (
          <fieldset className="mt-3">
            <legend className="sr-only">Gefundene Zahlungen</legend>
            <ul className="flex flex-col gap-2">
              {results.map((payment) => (
                <li key={payment.id}>
                  <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-white/10 bg-night-950/50 px-4 py-3 text-sm transition-colors hover:border-white/20 has-[:checked]:border-gold-400 has-[:checked]:bg-gold-500/10">
                    <input
                      type="radio"
                      name="payment"
                      value={payment.id}
                      checked={picked === payment.id}
                      onChange={() => {
                        setPicked(payment.id);
                        setProblem(null);
                      }}
                      disabled={pending}
                      className="mt-1 size-4 shrink-0 accent-gold-400"
                    />
                    <PaymentChoice payment={payment} />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
        <Problem text={problem} />
        <DialogActions>
          <Button variant="ghost" disabled={pending} onClick={onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? <Spinner /> : null}
            {pending ? 'Wird zugeordnet...' : 'Zuordnen'}
          </Button>
        </DialogActions>
      </form>
    </PaymentsDialog>
  );
}

const WAIVE_FAILURE = 'Das Startgeld konnte nicht erlassen werden.';

/** 'Erlassen': the car is let off its fee; the reason (10–500 characters) goes to the record. */
export function WaiveDialog({
  year,
  payment,
  onClose,
}: {
  year: number;
  payment: PaymentRow;
  onClose: () => void;
}) {
  const waive = useWaivePayment(year);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    defaultValues: { reason: '' },
    onSubmit: async ({ value }) => {
      setProblem(null);
      try {
        const answer = await waive.mutateAsync({ paymentId: payment.id, reason: value.reason.trim() });
        notify.success(answer.message, `${carLine(payment)} · ${payment.reference}`);
        onClose();
      } catch (error) {
        setProblem(errorText(error) ?? WAIVE_FAILURE);
        notify.error('Nicht erlassen', error, WAIVE_FAILURE);
      }
    },
  });
  const pending = waive.isPending;
  return (
    <PaymentsDialog
      title="Startgeld erlassen"
      description={
        <>
          {carLine(payment)}
          {payment.ownerName ? ` (${payment.ownerName})` : ''}:{' '}
          {formatEuro(payment.amountCents - payment.paidCents)} offen. Erlassen nimmt das Auto teil, als hätte
          es bezahlt; der Grund steht im Protokoll.
        </>
      }
      busy={pending}
      onClose={onClose}
    >
      <form
        aria-label="Startgeld erlassen"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        <form.Field name="reason" validators={{ onChange: PaymentWaiveSchema.entries.reason }}>
          {(field) => (
            <TextAreaField
              field={field}
              label="Grund"
              required
              rows={3}
              maxLength={500}
              hint="Mindestens 10 Zeichen"
              disabled={pending}
            />
          )}
        </form.Field>
        <Problem text={problem} />
        <DialogActions>
          <Button variant="ghost" disabled={pending} onClick={onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? <Spinner /> : null}
            {pending ? 'Wird erlassen...' : 'Erlassen'}
          </Button>
        </DialogActions>
      </form>
    </PaymentsDialog>
  );
}
