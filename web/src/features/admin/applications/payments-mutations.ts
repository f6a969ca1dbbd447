import type { PaymentImportResult, ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withEdition } from '../../../lib/admin-edition';
import { api, ApiError } from '../../../lib/api';
import { paymentKeys, paymentsPath } from './payments-queries';

/** How a statement file is read: camt.053/052 (XML, or ZIP of them), or a bank's CSV layout. */
export type StatementFormat = 'camt' | 'sparkasse' | 'hibiscus';

/** The answer of 'Erstattungen exportieren' (201). */
export interface RefundExportCreated {
  id: string;
  count: number;
  totalCents: number;
  message: string;
}

/** A failed upload as the API client reports failures: the server's German message kept for toasts. */
async function uploadError(response: Response): Promise<ApiError> {
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(await response.text());
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // No JSON (a proxy's page): the status line stands in.
  }
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : undefined;
  return new ApiError(
    response.status,
    message ?? (response.statusText || 'Ein Fehler ist aufgetreten.'),
    message !== undefined,
    [],
    body,
  );
}

/**
 * Sends a statement file as it is (`application/octet-stream`), its name and, for a CSV, the
 * bank's layout in the query: the API reads and matches it line by line.
 */
export async function uploadStatement(
  year: number,
  file: File,
  format: StatementFormat,
): Promise<PaymentImportResult> {
  const params = new URLSearchParams({ name: file.name });
  if (format !== 'camt') params.set('csv', format);
  const response = await fetch(withEdition(`${paymentsPath(year)}/import?${params.toString()}`), {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
    body: file,
  });
  if (!response.ok) throw await uploadError(response);
  return (await response.json()) as PaymentImportResult;
}

/** A change on 'Zahlungen'; the overview (and any search) is read again afterwards. */
function usePaymentsMutation<TInput, TAnswer>(year: number, send: (input: TInput) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentKeys.overview(year) }),
  });
}

export const useImportStatement = (year: number) =>
  usePaymentsMutation(year, ({ file, format }: { file: File; format: StatementFormat }) =>
    uploadStatement(year, file, format),
  );

/** Books an unassigned statement line on the payment picked by hand. */
export const useAssignEntry = (year: number) =>
  usePaymentsMutation(year, ({ entryId, paymentId }: { entryId: string; paymentId: string }) =>
    api.post<ServerMessage>(`${paymentsPath(year)}/entries/${encodeURIComponent(entryId)}/assign`, {
      paymentId,
    }),
  );

/** 'Erlassen': the car is let off its fee, with a reason. */
export const useWaivePayment = (year: number) =>
  usePaymentsMutation(year, ({ paymentId, reason }: { paymentId: string; reason: string }) =>
    api.post<ServerMessage>(`${paymentsPath(year)}/payments/${encodeURIComponent(paymentId)}/waive`, {
      reason,
    }),
  );

/** Every refund due by transfer into one pain.001 file. */
export const useExportRefunds = (year: number) =>
  usePaymentsMutation(year, () => api.post<RefundExportCreated>(`${paymentsPath(year)}/refunds/export`, {}));

/** The file's transfers were made at the bank: its refunds count as paid back. */
export const useConfirmRefundExport = (year: number) =>
  usePaymentsMutation(year, (exportId: string) =>
    api.post<ServerMessage>(`${paymentsPath(year)}/refunds/${encodeURIComponent(exportId)}/confirm`, {}),
  );
