import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/db.queries.js';

/** Every SQL statement of the payments: lines known before, the organizers' lists, the deadlines. */

/** Lines of an edition's statements already read: by identity, or by the bank's references under another statement. */
export function knownBankLines(
  em: EntityManager,
  editionId: string,
  identities: readonly string[],
  bankKeys: readonly string[],
): Promise<Array<{ identity: string; bank_key: string | null }>> {
  return selectRows(
    em,
    `select identity, bank_key from bank_entry
      where edition_id = ? and (identity = any(?::text[]) or bank_key = any(?::text[]))`,
    [editionId, `{${identities.join(',')}}`, `{${bankKeys.join(',')}}`],
  );
}

/** A held place whose fee is still open, as the deadline sweeps read it. */
export interface UnpaidRow {
  payment_id: string;
  invitation_id: string;
  vehicle_id: string;
}

const UNPAID_HELD = `from payment p
       join edition e on e.id = p.edition_id and e.fee is not null
       join invitation i on i.id = p.invitation_id
       join vehicle v on v.id = i.vehicle_id
      where p.edition_id = ? and i.released_at is null and v.status in ('invited', 'confirmed')
        and p.waived_at is null and p.paid_cents < p.amount_cents and p.due_at is not null`;

/** Unpaid held places whose reminder moment (`days` before the deadline) has come, not reminded yet. */
export function paymentRemindersDue(
  em: EntityManager,
  editionId: string,
  asOf: Date,
  days: number,
): Promise<UnpaidRow[]> {
  return selectRows<UnpaidRow>(
    em,
    `select p.id as payment_id, i.id as invitation_id, v.id as vehicle_id ${UNPAID_HELD}
        and p.reminded_at is null and p.due_at > ? and p.due_at - make_interval(days => ?) <= ?
      order by p.due_at`,
    [editionId, asOf, days, asOf],
  );
}

/** Unpaid held places past their payment deadline. */
export function paymentsLapsed(em: EntityManager, editionId: string, asOf: Date): Promise<UnpaidRow[]> {
  return selectRows<UnpaidRow>(
    em,
    `select p.id as payment_id, i.id as invitation_id, v.id as vehicle_id ${UNPAID_HELD}
        and p.due_at <= ?
      order by p.due_at`,
    [editionId, asOf],
  );
}

/** A payment as the organizers' list shows it: the car, its owner's name, the amounts. */
export interface PaymentListRow {
  id: string;
  reference: string;
  amount_cents: number;
  paid_cents: number;
  refunded_cents: number;
  kept_cents: number | null;
  due_at: Date | null;
  waived_at: Date | null;
  waive_reason: string | null;
  start_number: number | null;
  vehicle_id: string | null;
  vehicle_title: string | null;
  vehicle_status: string | null;
  owner_name: string | null;
  released_at: Date | null;
  confirm_by: Date | null;
  pending_refund_cents: number;
  last_payer_name: string | null;
  last_payer_iban: string | null;
}

/** The edition's payments, by start number (those whose invitation is gone last). */
export function paymentList(em: EntityManager, editionId: string): Promise<PaymentListRow[]> {
  return selectRows<PaymentListRow>(
    em,
    `select p.id, p.reference, p.amount_cents, p.paid_cents, p.refunded_cents, p.kept_cents, p.due_at,
            p.waived_at, p.waive_reason, i.start_number, v.id as vehicle_id,
            coalesce(nullif(btrim(v.name), ''), v.brand || ' ' || v.model) as vehicle_title,
            v.status as vehicle_status,
            nullif(btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as owner_name,
            i.released_at, i.confirm_by,
            coalesce((select sum(r.amount_cents) from payment_refund r join refund_export x on x.id = r.refund_export_id
                       where r.payment_id = p.id and x.confirmed_at is null), 0)::int as pending_refund_cents,
            last.payer_name as last_payer_name, last.payer_iban as last_payer_iban
       from payment p
       left join invitation i on i.id = p.invitation_id
       left join vehicle v on v.id = i.vehicle_id
       left join users u on u.id = v.user_id
       left join lateral (select e.payer_name, e.payer_iban from payment_booking b join bank_entry e on e.id = b.bank_entry_id
                           where b.payment_id = p.id and e.payer_iban is not null
                           order by b.created_at desc limit 1) last on true
      where p.edition_id = ?
      order by i.start_number nulls last, p.reference`,
    [editionId],
  );
}

/** A statement line nobody's reference matched, for assignment by hand. */
export interface UnassignedRow {
  id: string;
  amount_cents: number;
  booking_date: string | null;
  payer_name: string | null;
  payer_iban: string | null;
  remittance: string | null;
  pruned_at: Date | null;
}

export function unassignedEntries(em: EntityManager, editionId: string): Promise<UnassignedRow[]> {
  return selectRows<UnassignedRow>(
    em,
    `select id, amount_cents, booking_date::text as booking_date, payer_name, payer_iban, remittance, pruned_at
       from bank_entry where edition_id = ? and outcome = 'unassigned'
      order by booking_date desc nulls last, created_at desc`,
    [editionId],
  );
}

/** Every booking of the edition with its source, oldest first: the treasurer's report. */
export interface BookingReportRow {
  booked_at: Date;
  kind: 'transfer' | 'cash' | 'refund';
  amount_cents: number;
  reference: string;
  start_number: number | null;
  booking_date: string | null;
  bank_entry_id: string | null;
  origin: Record<string, unknown> | null;
  file_sha256: string | null;
  refund_export: string | null;
  note: string | null;
}

export function bookingReport(em: EntityManager, editionId: string): Promise<BookingReportRow[]> {
  return selectRows<BookingReportRow>(
    em,
    `select b.created_at as booked_at, b.kind, b.amount_cents, p.reference, i.start_number,
            e.booking_date::text as booking_date, e.id as bank_entry_id, e.origin, bi.file_sha256,
            x.message_id as refund_export, b.note
       from payment_booking b
       join payment p on p.id = b.payment_id
       left join invitation i on i.id = p.invitation_id
       left join bank_entry e on e.id = b.bank_entry_id
       left join bank_import bi on bi.id = e.bank_import_id
       left join payment_refund r on r.id = b.refund_id
       left join refund_export x on x.id = r.refund_export_id
      where b.edition_id = ?
      order by b.created_at, b.id`,
    [editionId],
  );
}

/** Payments matching a search (reference, start number, car, owner), for assigning a line by hand. */
export function searchPayments(
  em: EntityManager,
  editionId: string,
  query: string,
): Promise<PaymentListRow[]> {
  return paymentList(em, editionId).then((rows) => {
    const q = query
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '');
    if (!q) return rows.slice(0, 20);
    return rows
      .filter((row) =>
        [row.reference, String(row.start_number ?? ''), row.vehicle_title ?? '', row.owner_name ?? ''].some(
          (field) =>
            field
              .toLowerCase()
              .replace(/[\s-]+/g, '')
              .includes(q),
        ),
      )
      .slice(0, 20);
  });
}

/** The edition's last statement files read in. */
export function recentImports(
  em: EntityManager,
  editionId: string,
): Promise<
  Array<{
    id: string;
    file_name: string | null;
    format: string;
    summary: Record<string, number>;
    created_at: Date;
  }>
> {
  return selectRows(
    em,
    'select id, file_name, format, summary, created_at from bank_import where edition_id = ? order by created_at desc limit 20',
    [editionId],
  );
}

/** The vehicle of an invitation. */
export async function vehicleOfInvitation(em: EntityManager, invitationId: string): Promise<string | null> {
  const [row] = await selectRows<{ vehicle_id: string }>(
    em,
    'select vehicle_id from invitation where id = ?',
    [invitationId],
  );
  return row?.vehicle_id ?? null;
}

/** Locks the edition's payments (an export reads what is due and writes it as one). */
export async function lockEditionPayments(em: EntityManager, editionId: string): Promise<void> {
  await selectRows(em, 'select id from payment where edition_id = ? order by id for update', [editionId]);
}

/** The payments of these invitations with their bookings and the statement lines behind them, for a data export. */
export function paymentsForExport(
  em: EntityManager,
  invitationIds: readonly string[],
): Promise<
  Array<{
    reference: string;
    edition: string;
    amount_cents: number;
    paid_cents: number;
    refunded_cents: number;
    due_at: Date | null;
    waived_at: Date | null;
    waive_reason: string | null;
    bookings: Array<Record<string, unknown>> | null;
  }>
> {
  return selectRows(
    em,
    `select p.reference, e.name as edition, p.amount_cents, p.paid_cents, p.refunded_cents, p.due_at,
            p.waived_at, p.waive_reason,
            (select json_agg(json_build_object(
                      'kind', b.kind, 'amountCents', b.amount_cents, 'bookedAt', b.created_at,
                      'bookingDate', be.booking_date, 'payerName', be.payer_name, 'payerIban', be.payer_iban,
                      'remittance', be.remittance, 'refundTo', r.creditor_iban)
                    order by b.created_at)
               from payment_booking b
               left join bank_entry be on be.id = b.bank_entry_id
               left join payment_refund r on r.id = b.refund_id
              where b.payment_id = p.id) as bookings
       from payment p join edition e on e.id = p.edition_id
      where p.invitation_id = any(?::uuid[])
      order by p.created_at`,
    [`{${invitationIds.join(',')}}`],
  );
}

/**
 * An account's deletion: the bookings of its payments stay (bookkeeping keeps them ten years,
 * § 147 AO) without the payer's name, account and text, and its refunds without name and account.
 */
export async function forgetPayers(em: EntityManager, invitationIds: readonly string[]): Promise<void> {
  if (invitationIds.length === 0) return;
  const ids = `{${invitationIds.join(',')}}`;
  await selectRows(
    em,
    `update bank_entry set payer_name = null, payer_iban = null, remittance = null, pruned_at = now()
      where payment_id in (select id from payment where invitation_id = any(?::uuid[])) returning id`,
    [ids],
  );
  await selectRows(
    em,
    `update payment_refund set creditor_name = null, creditor_iban = null, creditor_bic = null
      where payment_id in (select id from payment where invitation_id = any(?::uuid[])) returning id`,
    [ids],
  );
}

/** Statement lines nobody claimed, read in before `before`: only amount and date stay. */
export async function pruneUnassignedLines(em: EntityManager, before: Date): Promise<number> {
  const rows = await selectRows(
    em,
    `update bank_entry set payer_name = null, payer_iban = null, remittance = null, pruned_at = now()
      where outcome = 'unassigned' and pruned_at is null and created_at < ? returning id`,
    [before],
  );
  return rows.length;
}

/** The edition's held places (invited or confirmed, not given up) that have no payment. */
export function heldInvitationsWithoutPayment(
  em: EntityManager,
  editionId: string,
): Promise<Array<{ invitation_id: string; vehicle_id: string }>> {
  return selectRows(
    em,
    `select i.id as invitation_id, v.id as vehicle_id
       from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and i.released_at is null and v.status in ('invited', 'confirmed')
        and not exists (select 1 from payment p where p.invitation_id = i.id)
      order by i.start_number`,
    [editionId],
  );
}

/** The vehicles of the edition whose invitation has a payment. */
export async function vehiclesWithPayments(em: EntityManager, editionId: string): Promise<string[]> {
  const rows = await selectRows<{ vehicle_id: string }>(
    em,
    `select i.vehicle_id from payment p join invitation i on i.id = p.invitation_id where p.edition_id = ?`,
    [editionId],
  );
  return rows.map((row) => row.vehicle_id);
}
