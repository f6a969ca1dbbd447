import {
  formatEuro,
  formatIban,
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_BADGE_CLASSES,
  PAYMENT_STATUS_LABELS,
  type PaymentStatus,
} from '@schlosstreffen/shared';
import type { VehiclePayment } from '@schlosstreffen/shared/api';
import { useId, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { notify } from '../../components/ui/toaster';
import { formatDateTime } from '../../lib/date-format';

/** The owner's words on the fee, beside the shared labels and GiroCode texts. */
export const VEHICLE_PAYMENT_TEXTS = {
  heading: 'Startgeld',
  noDueDate: 'Bitte bis zum Treffen überweisen.',
  takesPart:
    'Sobald das Startgeld bezahlt ist, ist dein Fahrzeug dabei: in der öffentlichen Liste, im Quartett und beim Einlass.',
  girocodeAlt: 'GiroCode für die Überweisung des Startgelds',
  partial: (paid: number, amount: number) =>
    `bezahlt ${formatEuro(paid)} von ${formatEuro(amount)}, offen ${formatEuro(amount - paid)}`,
} as const;

/** The line under the fee once nothing is open. */
const SETTLED: Partial<Record<PaymentStatus, string>> = {
  paid: 'Dein Startgeld ist eingegangen. Danke!',
  waived: 'Das Startgeld ist dir erlassen: Du musst nichts überweisen.',
  refund_due: 'Du bekommst dein Startgeld zurück: Die Erstattung ist veranlasst.',
  refunded: 'Dein Startgeld wurde dir zurückgezahlt.',
};

async function copyReference(reference: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(reference);
    notify.success('Verwendungszweck kopiert', reference);
  } catch {
    notify.error('Kopieren nicht möglich', undefined, 'Bitte markiere den Text und kopiere ihn von Hand.');
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-ash-400">{label}</dt>
      <dd className="mt-0.5 text-parchment">{children}</dd>
    </div>
  );
}

/**
 * A car's participation fee for its owner (dashboard card, invitation page): status, amount, and
 * while something is open the transfer's details with the GiroCode (a payment code, framed apart
 * from the check-in QR code). Nothing without a payment.
 */
export function VehiclePaymentSection({
  vehicleId,
  payment,
  vehicleTitle,
  headingLevel: Heading = 'h4',
  className = '',
}: {
  vehicleId: string;
  payment: VehiclePayment | null | undefined;
  /** Where the section does not stand on the car's card: whose fee it is. */
  vehicleTitle?: string;
  headingLevel?: 'h2' | 'h3' | 'h4';
  className?: string;
}) {
  const id = useId();
  if (!payment) return null;
  const { status, payTo } = payment;
  const headingId = `${id}-heading`;
  const amount =
    status === 'partial'
      ? VEHICLE_PAYMENT_TEXTS.partial(payment.paidCents, payment.amountCents)
      : formatEuro(payment.amountCents);
  const settled = SETTLED[status];

  return (
    <section
      aria-labelledby={headingId}
      data-testid="vehicle-payment"
      className={`rounded-xl border border-white/10 bg-night-950/60 p-4 text-left text-sm ${className}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="font-display text-lg text-parchment">
          {VEHICLE_PAYMENT_TEXTS.heading}
        </Heading>
        <span
          className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${PAYMENT_STATUS_BADGE_CLASSES[status]}`}
        >
          {PAYMENT_STATUS_LABELS[status]}
        </span>
      </div>
      {vehicleTitle ? <p className="mt-0.5 text-xs text-ash-300">{vehicleTitle}</p> : null}

      <dl className="mt-3 flex flex-col gap-2.5">
        <Row label="Betrag">
          <span className="font-semibold tabular-nums">{amount}</span>
        </Row>
        {payTo ? (
          <>
            <Row label="Kontoinhaber">{payTo.accountHolder}</Row>
            <Row label="IBAN">
              <span className="font-mono break-words">{formatIban(payTo.iban)}</span>
            </Row>
            {payTo.bic ? (
              <Row label="BIC">
                <span className="font-mono">{payTo.bic}</span>
              </Row>
            ) : null}
            <Row label="Verwendungszweck">
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-mono text-base tracking-wider break-all text-gold-100 select-all">
                  {payment.reference}
                </span>
                <Button
                  variant="secondary"
                  className="px-3 py-1 text-xs"
                  aria-label="Verwendungszweck kopieren"
                  onClick={() => void copyReference(payment.reference)}
                >
                  Kopieren
                </Button>
              </span>
            </Row>
            <Row label="Zahlen bis">
              {payment.dueAt ? formatDateTime(payment.dueAt) : VEHICLE_PAYMENT_TEXTS.noDueDate}
            </Row>
          </>
        ) : null}
      </dl>

      {payTo ? (
        <>
          <p className="mt-3 text-ash-300">{VEHICLE_PAYMENT_TEXTS.takesPart}</p>
          {/* A payment code, not the entry ticket: white card with a dashed frame, its own caption. */}
          <figure
            aria-labelledby={`${id}-girocode`}
            aria-describedby={`${id}-girocode-note`}
            className="mt-4 flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-sky-300/60 bg-sky-950/30 p-3"
          >
            <figcaption className="flex flex-col gap-1 text-center">
              <span id={`${id}-girocode`} className="font-semibold text-sky-100">
                {PAYMENT_MESSAGES.girocodeLabel}
              </span>
              <span id={`${id}-girocode-note`} className="text-xs text-ash-300">
                {PAYMENT_MESSAGES.girocodeNote}
              </span>
            </figcaption>
            <img
              src={`/api/vehicles/${encodeURIComponent(vehicleId)}/girocode.svg`}
              alt={VEHICLE_PAYMENT_TEXTS.girocodeAlt}
              width={176}
              height={176}
              loading="lazy"
              className="size-44 rounded-lg bg-white p-1"
            />
          </figure>
        </>
      ) : settled ? (
        <p className="mt-3 font-medium text-parchment">{settled}</p>
      ) : null}
    </section>
  );
}
