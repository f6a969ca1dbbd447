import {
  formatEuro,
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_BADGE_CLASSES,
  PAYMENT_STATUS_LABELS,
} from '@schlosstreffen/shared';
import type {
  PaymentRow,
  PaymentsOverview,
  PaymentTotals,
  RefundExportView,
  UnassignedEntry,
} from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api';
import { formatDate, formatDateTime } from '../../../lib/date-format';
import { DownloadIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { useChosenEdition } from '../edition-switch';
import { editionsQueryOptions } from '../editions-queries';
import { AssignDialog, WaiveDialog } from './payments-dialogs';
import { bookingDateText, carLine } from './payments-format';
import { StatementImport } from './payments-import';
import { useConfirmRefundExport, useExportRefunds } from './payments-mutations';
import { kassenberichtUrl, paymentsQueryOptions, refundFileUrl } from './payments-queries';

const cardClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6';
const badgeClass =
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';
const headCellClass = 'px-4 py-3 font-semibold';
const cellClass = 'px-4 py-3 align-top';
const sectionHeadingClass = 'font-display text-2xl text-parchment';

/** /admin/zahlungen: the Startgeld of the chosen edition (admins only: it shows bank data). */
export function AdminPaymentsPage() {
  return (
    <AdminOnly>
      <PaymentsScreen />
    </AdminOnly>
  );
}

function PaymentsScreen() {
  const editions = useQuery(editionsQueryOptions);
  const chosen = useChosenEdition();
  const year = chosen ?? editions.data?.editions.find((edition) => edition.current)?.year;
  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Zahlungen</h1>
        <p className="mt-3 text-sm text-ash-300">
          Das Startgeld der Eingeladenen: Kontoauszüge einlesen, Buchungen ohne passenden Verwendungszweck von
          Hand zuordnen, Startgeld erlassen und Erstattungen als SEPA-Datei an die Bank geben.
        </p>
      </header>
      <div className="mt-8">
        {year ? (
          <PaymentsView year={year} />
        ) : editions.isError ? (
          <LoadError
            title="Ausgaben konnten nicht geladen werden"
            query={editions}
            headingLevel="h2"
            compact
          />
        ) : (
          <LoadingBlock label="Zahlungen werden geladen..." className="h-64 bg-night-900/80" />
        )}
      </div>
    </section>
  );
}

function PaymentsView({ year }: { year: number }) {
  const overview = useQuery(paymentsQueryOptions(year));
  if (overview.isPending)
    return <LoadingBlock label="Zahlungen werden geladen..." className="h-64 bg-night-900/80" />;
  if (overview.isError) {
    const error = overview.error;
    if (isApiError(error) && error.status === 404 && error.serverMessage === PAYMENT_MESSAGES.noFee(year))
      return <NoFee message={error.serverMessage} />;
    return <LoadError title="Zahlungen konnten nicht geladen werden" query={overview} compact />;
  }
  const data = overview.data;
  return (
    <div className="flex flex-col gap-10">
      <FeeFacts fee={data.fee} />
      <Totals year={year} totals={data.totals} />
      <StatementImport year={year} />
      <UnassignedSection year={year} entries={data.unassigned} />
      <PaymentsSection year={year} payments={data.payments} />
      <RefundsSection view={data} />
    </div>
  );
}

/** The edition has no fee: nothing to pay, and the way to set one up. */
function NoFee({ message }: { message: string }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-12 text-center">
      <h2 className="font-display text-2xl text-parchment">Keine Teilnahmegebühr</h2>
      <p className="mt-2 text-sm text-ash-300">{message}</p>
      <p className="mt-2 text-sm text-ash-300">
        Sie wird im Formular der Ausgabe unter „Ausgaben“ eingerichtet: Betrag, Konto und Zahlungsfrist.
      </p>
      <Link to="/admin/ausgaben" className={buttonClass('secondary', 'mt-6')}>
        Zu den Ausgaben
      </Link>
    </div>
  );
}

function FeeFacts({ fee }: { fee: PaymentsOverview['fee'] }) {
  return (
    <dl className={`${cardClass} grid grid-cols-1 gap-4 text-sm sm:grid-cols-3`}>
      <div>
        <dt className="text-xs text-ash-400">Teilnahmegebühr</dt>
        <dd className="mt-0.5 font-display text-2xl text-parchment tabular-nums">
          {formatEuro(fee.amountCents)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-ash-400">Kontoinhaber</dt>
        <dd className="mt-0.5 text-parchment">{fee.accountHolder}</dd>
      </div>
      <div>
        <dt className="text-xs text-ash-400">IBAN</dt>
        <dd className="mt-0.5 font-mono text-parchment">{fee.ibanMasked}</dd>
      </div>
    </dl>
  );
}

const TOTALS: readonly [keyof PaymentTotals, string][] = [
  ['expectedCents', 'Erwartet'],
  ['receivedCents', 'Eingegangen'],
  ['openCents', 'Offen'],
  ['waivedCents', 'Erlassen'],
  ['refundedCents', 'Erstattet'],
  ['refundDueCents', 'Erstattung fällig'],
  ['unassignedCents', 'Nicht zugeordnet'],
];

/** The treasurer's figures (as in the Kassenbericht) and the report itself as CSV. */
function Totals({ year, totals }: { year: number; totals: PaymentTotals }) {
  return (
    <section aria-labelledby="payments-totals" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payments-totals" className={sectionHeadingClass}>
          Kassenbericht
        </h2>
        {/* A plain download: the server sends the file as an attachment. */}
        <a href={kassenberichtUrl(year)} download className={buttonClass('secondary')}>
          <DownloadIcon className="size-4" />
          Kassenbericht (CSV)
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
        {TOTALS.map(([key, label]) => (
          <div
            key={key}
            className="flex flex-col-reverse rounded-xl border border-white/10 bg-night-900/80 px-4 py-3"
          >
            <dt className="mt-1 text-sm text-ash-300">{label}</dt>
            <dd className="font-display text-xl text-parchment tabular-nums">{formatEuro(totals[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A table that scrolls sideways on narrow screens: focusable, so a keyboard can scroll it too. */
function ScrollTable({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
      className="overflow-x-auto rounded-2xl border border-white/10 bg-night-900/80 focus-visible:outline-2 focus-visible:outline-gold-400"
    >
      <table aria-labelledby={labelledBy} className="w-full min-w-[44rem] text-left text-sm">
        {children}
      </table>
    </div>
  );
}

function HeadRow({ labels }: { labels: readonly ReactNode[] }) {
  return (
    <thead className="border-b border-white/10 bg-night-800/60 text-xs tracking-wide text-ash-300 uppercase">
      <tr>
        {labels.map((label, index) => (
          <th key={index} scope="col" className={headCellClass}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function EmptyLine({ children }: { children: ReactNode }) {
  return <p className={`${cardClass} text-sm text-ash-300`}>{children}</p>;
}

/** 'Nicht zugeordnet': statement lines no reference matched, each to assign by hand. */
function UnassignedSection({ year, entries }: { year: number; entries: UnassignedEntry[] }) {
  const [assigning, setAssigning] = useState<UnassignedEntry | null>(null);
  return (
    <section className="flex flex-col gap-4">
      <h2 id="payments-unassigned" className={sectionHeadingClass}>
        Nicht zugeordnet
      </h2>
      {entries.length === 0 ? (
        <EmptyLine>Jede eingelesene Buchung ist einer Zahlung zugeordnet.</EmptyLine>
      ) : (
        <ScrollTable labelledBy="payments-unassigned">
          <HeadRow
            labels={[
              'Datum',
              'Zahler',
              'IBAN',
              'Betrag',
              'Verwendungszweck',
              <span key="action" className="sr-only">
                Aktion
              </span>,
            ]}
          />
          <tbody className="divide-y divide-white/5">
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className={`${cellClass} whitespace-nowrap text-ash-300 tabular-nums`}>
                  {bookingDateText(entry.bookingDate)}
                </td>
                <td className={`${cellClass} text-parchment`}>{entry.payerName ?? '–'}</td>
                <td className={`${cellClass} font-mono whitespace-nowrap text-ash-300`}>
                  {entry.payerIbanMasked ?? '–'}
                </td>
                <td className={`${cellClass} whitespace-nowrap text-parchment tabular-nums`}>
                  {formatEuro(entry.amountCents)}
                </td>
                <td className={`${cellClass} break-words text-ash-300`}>{entry.remittance ?? '–'}</td>
                <td className={`${cellClass} text-right`}>
                  <Button variant="secondary" className="px-4 py-1.5" onClick={() => setAssigning(entry)}>
                    Zuordnen
                    <span className="sr-only">
                      {' '}
                      – {formatEuro(entry.amountCents)}
                      {entry.payerName ? ` von ${entry.payerName}` : ''}
                    </span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {assigning ? <AssignDialog year={year} entry={assigning} onClose={() => setAssigning(null)} /> : null}
    </section>
  );
}

const mayWaive = (payment: PaymentRow) => payment.status === 'open' || payment.status === 'partial';

function StatusBadge({ payment }: { payment: PaymentRow }) {
  return (
    <span className={`${badgeClass} ${PAYMENT_STATUS_BADGE_CLASSES[payment.status]}`}>
      {PAYMENT_STATUS_LABELS[payment.status]}
    </span>
  );
}

/** 'Startgelder': every payment of the edition, with 'Erlassen' for those still open. */
function PaymentsSection({ year, payments }: { year: number; payments: PaymentRow[] }) {
  const [waiving, setWaiving] = useState<PaymentRow | null>(null);
  return (
    <section className="flex flex-col gap-4">
      <h2 id="payments-list" className={sectionHeadingClass}>
        Startgelder
      </h2>
      {payments.length === 0 ? (
        <EmptyLine>Noch keine Startgelder: Jede Einladung bringt ihres mit.</EmptyLine>
      ) : (
        <ScrollTable labelledBy="payments-list">
          <HeadRow
            labels={[
              'Startnr.',
              'Auto',
              'Besitzer',
              'Verwendungszweck',
              'Betrag',
              'Bezahlt',
              'Status',
              'Zahlungsfrist',
              <span key="action" className="sr-only">
                Aktion
              </span>,
            ]}
          />
          <tbody className="divide-y divide-white/5">
            {payments.map((payment) => (
              <tr key={payment.id}>
                <th scope="row" className={`${cellClass} font-medium text-parchment tabular-nums`}>
                  {payment.startNumber ?? '–'}
                </th>
                <td className={`${cellClass} text-parchment`}>{payment.vehicleTitle ?? '–'}</td>
                <td className={`${cellClass} text-ash-300`}>{payment.ownerName ?? 'Konto gelöscht'}</td>
                <td className={`${cellClass} font-mono whitespace-nowrap text-ash-300`}>
                  {payment.reference}
                </td>
                <td className={`${cellClass} whitespace-nowrap text-parchment tabular-nums`}>
                  {formatEuro(payment.amountCents)}
                </td>
                <td className={`${cellClass} whitespace-nowrap text-parchment tabular-nums`}>
                  {formatEuro(payment.paidCents)}
                </td>
                <td className={cellClass}>
                  <StatusBadge payment={payment} />
                  {payment.waiveReason ? (
                    <span className="mt-1 block max-w-56 text-xs text-ash-400">
                      Grund: {payment.waiveReason}
                    </span>
                  ) : null}
                </td>
                <td className={`${cellClass} whitespace-nowrap text-ash-300 tabular-nums`}>
                  {payment.noDeadline ? (
                    <span className={`${badgeClass} border-orange-400/40 bg-orange-500/10 text-orange-200`}>
                      ohne Zahlungsfrist
                    </span>
                  ) : (
                    formatDate(payment.dueAt)
                  )}
                </td>
                <td className={`${cellClass} text-right`}>
                  {mayWaive(payment) ? (
                    <Button variant="ghost" className="px-4 py-1.5" onClick={() => setWaiving(payment)}>
                      Erlassen<span className="sr-only"> – {carLine(payment)}</span>
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {waiving ? <WaiveDialog year={year} payment={waiving} onClose={() => setWaiving(null)} /> : null}
    </section>
  );
}

/** 'Erstattungen': money to go back, the SEPA file with the transfers, and their confirmation. */
function RefundsSection({ view }: { view: PaymentsOverview }) {
  const exporting = useExportRefunds(view.year);
  const bySepa = view.refundsDue.filter((refund) => refund.bySepa);
  return (
    <section aria-labelledby="payments-refunds" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payments-refunds" className={sectionHeadingClass}>
          Erstattungen
        </h2>
        <Button
          disabled={bySepa.length === 0 || exporting.isPending}
          aria-describedby={bySepa.length === 0 ? 'payments-refunds-none' : undefined}
          onClick={() =>
            exporting.mutate(undefined, {
              onSuccess: (created) => notify.success('SEPA-Datei erstellt', created.message),
              onError: (error) => notify.error('Nicht exportiert', error, RETRY_HINT),
            })
          }
        >
          {exporting.isPending ? <Spinner /> : null}
          {exporting.isPending ? 'Wird exportiert...' : 'Erstattungen exportieren'}
        </Button>
      </div>
      {bySepa.length === 0 ? (
        <p id="payments-refunds-none" className="text-sm text-ash-400">
          {PAYMENT_MESSAGES.noRefundsDue}
        </p>
      ) : (
        <p className="text-sm text-ash-400">
          Die SEPA-Datei (pain.001) nimmt jede fällige Erstattung mit bekanntem Konto auf; Sie geben sie im
          Online-Banking zur Ausführung.
        </p>
      )}

      <h3 id="payments-refunds-due" className="font-display text-xl text-parchment">
        Fällig
      </h3>
      {view.refundsDue.length === 0 ? (
        <EmptyLine>Keine Erstattung fällig.</EmptyLine>
      ) : (
        <ScrollTable labelledBy="payments-refunds-due">
          <HeadRow labels={['Besitzer', 'Verwendungszweck', 'Betrag', 'Zahler', 'IBAN', 'Weg']} />
          <tbody className="divide-y divide-white/5">
            {view.refundsDue.map((refund) => (
              <tr key={refund.paymentId}>
                <th scope="row" className={`${cellClass} font-medium text-parchment`}>
                  {refund.ownerName ?? 'Konto gelöscht'}
                  {refund.startNumber !== null ? (
                    <span className="block text-xs font-normal text-ash-400">Nr. {refund.startNumber}</span>
                  ) : null}
                </th>
                <td className={`${cellClass} font-mono whitespace-nowrap text-ash-300`}>
                  {refund.reference}
                </td>
                <td className={`${cellClass} whitespace-nowrap text-parchment tabular-nums`}>
                  {formatEuro(refund.amountCents)}
                </td>
                <td className={`${cellClass} text-ash-300`}>{refund.payerName ?? '–'}</td>
                <td className={`${cellClass} font-mono whitespace-nowrap text-ash-300`}>
                  {refund.payerIbanMasked ?? '–'}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>
                  {refund.bySepa ? (
                    <span className="text-ash-300">per Überweisung</span>
                  ) : (
                    <span className={`${badgeClass} border-orange-400/40 bg-orange-500/10 text-orange-200`}>
                      bar erstatten
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}

      <h3 id="payments-refund-files" className="font-display text-xl text-parchment">
        SEPA-Dateien
      </h3>
      {view.refundExports.length === 0 ? (
        <EmptyLine>Noch keine SEPA-Datei erstellt.</EmptyLine>
      ) : (
        <ol aria-labelledby="payments-refund-files" className="flex flex-col gap-3">
          {view.refundExports.map((file) => (
            <li key={file.id}>
              <RefundFile year={view.year} file={file} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const refundsText = (count: number) => (count === 1 ? '1 Erstattung' : `${count} Erstattungen`);

function RefundFile({ year, file }: { year: number; file: RefundExportView }) {
  const confirm = useConfirmRefundExport(year);
  const [asking, setAsking] = useState(false);
  const created = formatDateTime(file.createdAt);
  return (
    <article
      aria-label={`SEPA-Datei vom ${created}`}
      className={`${cardClass} flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between`}
    >
      <div className="text-sm">
        <p className="font-medium text-parchment">Erstellt am {created}</p>
        <p className="mt-0.5 text-ash-300">
          {refundsText(file.count)} · {formatEuro(file.totalCents)}
        </p>
      </div>
      {file.confirmedAt ? (
        <span className={`${badgeClass} self-start border-emerald-400/40 bg-emerald-500/10 text-emerald-200`}>
          Überwiesen am {formatDate(file.confirmedAt)}
        </span>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row">
          <a href={refundFileUrl(year, file.id)} download className={buttonClass('secondary')}>
            <DownloadIcon className="size-4" />
            SEPA-Datei herunterladen
          </a>
          <Button onClick={() => setAsking(true)}>Als überwiesen bestätigen</Button>
        </div>
      )}
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Als überwiesen bestätigen?"
        confirmLabel="Bestätigen"
        pendingLabel="Wird bestätigt..."
        pending={confirm.isPending}
        onConfirm={() =>
          confirm.mutate(file.id, {
            onSuccess: (answer) => {
              setAsking(false);
              notify.success(answer.message, `${refundsText(file.count)} · ${formatEuro(file.totalCents)}`);
            },
            onError: (error) => notify.error('Nicht bestätigt', error, RETRY_HINT),
          })
        }
      >
        Bestätigen Sie erst, wenn die Bank die {refundsText(file.count)} über {formatEuro(file.totalCents)}{' '}
        ausgeführt hat. Danach gelten sie als erstattet, und die Datei wird nicht mehr angeboten.
      </ConfirmDialog>
    </article>
  );
}
