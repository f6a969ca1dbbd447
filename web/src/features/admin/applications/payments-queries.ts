import type { PaymentRow, PaymentsOverview } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const paymentKeys = {
  overview: (year: number) => ['admin', 'payments', year] as const,
  search: (year: number, q: string) => ['admin', 'payments', year, 'search', q] as const,
};

export const paymentsPath = (year: number) => `/api/admin/payments/${year}`;

/** The treasurer's report as CSV (a plain download: the server sends it as an attachment). */
export const kassenberichtUrl = (year: number) => `${paymentsPath(year)}/kassenbericht.csv`;

/** A refund export's pain.001 file (a plain download). */
export const refundFileUrl = (year: number, exportId: string) =>
  `${paymentsPath(year)}/refunds/${encodeURIComponent(exportId)}/file`;

/**
 * 'Zahlungen' of an edition (admins only): the fee, the totals, every payment, the statement lines
 * no reference matched, the refunds due and their SEPA files. A 404 with PAYMENT_MESSAGES.noFee
 * means the edition has no fee.
 */
export const paymentsQueryOptions = (year: number) =>
  queryOptions({
    queryKey: paymentKeys.overview(year),
    queryFn: ({ signal }) => apiGet<PaymentsOverview>(paymentsPath(year), { signal }),
  });

/** The payments matching a reference, start number, car or owner: the choice for a manual assignment. */
export const paymentSearchQueryOptions = (year: number, q: string) =>
  queryOptions({
    queryKey: paymentKeys.search(year, q),
    queryFn: ({ signal }) =>
      apiGet<PaymentRow[]>(`${paymentsPath(year)}/search?q=${encodeURIComponent(q)}`, { signal }),
    // Each assignment changes what a search shows: read afresh when the dialog opens again.
    staleTime: 0,
  });
