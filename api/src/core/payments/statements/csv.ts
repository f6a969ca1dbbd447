import { CsvError, parse } from 'csv-parse/sync';
import { DomainError } from '../../errors.js';
import { centsToDecimal, csvAmountToCents } from './amount.js';
import { OccurrenceCounter, sha256Hex } from './identity.js';
import { STATEMENT_MESSAGES as M } from './messages.js';
import type { BookingCandidate, SkippedEntry, StatementDocument } from './types.js';

/** Which columns of a bank's CSV export (by their header) hold what, and how the file is written. */
export interface CsvMapping {
  /** Booking date: 'DD.MM.YYYY', 'DD.MM.YY' or 'YYYY-MM-DD'. */
  date: string;
  /** Signed amount: negative for debits. */
  amount: string;
  /** Absent: every row is in euro. */
  currency?: string;
  payerName: string;
  payerIban?: string;
  /** One column or several (joined with '\n', empty ones left out). */
  remittance: string | readonly string[];
  /** Default ';'. */
  delimiter?: string;
  /** '1.234,56' (default) rather than '1,234.56'. */
  decimalComma?: boolean;
  /** Absent: UTF-8 where the file is valid UTF-8, otherwise Windows-1252. */
  encoding?: 'utf-8' | 'windows-1252';
  /** Lines before the header row (some banks put the account and period there). */
  skipLines?: number;
  /** Rows not booked yet (pre-bookings), by a column's value; they are skipped. */
  pending?: { column: string; values: readonly string[] };
}

/**
 * Mappings of common German exports.
 *
 * `sparkasse`: the Sparkassen' 'CSV-CAMT V2' (and 'CSV-CAMT V8', same columns) export of
 * 'Umsätze', ';' separated, Windows-1252, dates 'DD.MM.YY', '1.234,56', the 'Info' column saying
 * 'Umsatz gebucht' or 'Umsatz vorgemerkt'. Column names as documented for the Haspa's export in
 * github.com/tilothiele/bankimport (README, 'Record Description – Haspa CSV (camt.052 v8 Export)')
 * and read by open-source importers such as beancount's Sparkasse importers.
 *
 * `hibiscus`: Hibiscus' own CSV export of 'Umsätze' (the Velocity template
 * lib/velocity/de.willuhn.jameica.hbci.rmi.Umsatz.csv.vm in github.com/willuhn/hibiscus):
 * 'Datum' the booking date ('DD.MM.YYYY'), 'Betrag' in German number format, the counterparty in
 * 'Gegenkonto Inhaber' and 'Gegenkonto' (IBAN), the purpose in 'Verwendungszweck',
 * 'Verwendungszweck 2' and 'Weitere Verwendungszwecke', 'Vormerkbuchung' = 'ja' for pre-bookings;
 * the account's currency (euro) throughout.
 */
export const CSV_PRESETS = {
  sparkasse: {
    date: 'Buchungstag',
    amount: 'Betrag',
    currency: 'Waehrung',
    payerName: 'Beguenstigter/Zahlungspflichtiger',
    payerIban: 'Kontonummer/IBAN',
    remittance: 'Verwendungszweck',
    delimiter: ';',
    decimalComma: true,
    encoding: 'windows-1252',
    pending: { column: 'Info', values: ['Umsatz vorgemerkt'] },
  },
  hibiscus: {
    date: 'Datum',
    amount: 'Betrag',
    payerName: 'Gegenkonto Inhaber',
    payerIban: 'Gegenkonto',
    remittance: ['Verwendungszweck', 'Verwendungszweck 2', 'Weitere Verwendungszwecke'],
    delimiter: ';',
    decimalComma: true,
    pending: { column: 'Vormerkbuchung', values: ['ja'] },
  },
} as const satisfies Record<string, CsvMapping>;

export interface CsvRead {
  document: StatementDocument;
  candidates: BookingCandidate[];
  skipped: SkippedEntry[];
}

function decodeCsv(bytes: Uint8Array, encoding: CsvMapping['encoding']): string {
  if (encoding === 'windows-1252') return new TextDecoder('windows-1252').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (encoding === 'utf-8') throw new DomainError('invalid', M.badEncoding);
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function parseCsvDate(text: string, where: string): string {
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = german
    ? [
        german[3]!.length === 2 ? 2000 + Number(german[3]) : Number(german[3]),
        Number(german[2]),
        Number(german[1]),
      ]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new DomainError('invalid', M.badDate(text, where));
  }
  return date.toISOString().slice(0, 10);
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/**
 * Reads a bank's CSV export by a column mapping: credits in euro become booking candidates,
 * everything else is skipped with its reason. A row's identity is a hash of its mapped fields and
 * its place among otherwise identical rows, so the same export read again (or a later export
 * overlapping it) gives the same identities.
 */
export function readCsv(bytes: Uint8Array, mapping: CsvMapping, sha256: string): CsvRead {
  const text = decodeCsv(bytes, mapping.encoding);
  let rows: { info: { lines: number }; record: string[] }[];
  try {
    rows = parse(text, {
      delimiter: mapping.delimiter ?? ';',
      from_line: (mapping.skipLines ?? 0) + 1,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as typeof rows;
  } catch (error) {
    if (error instanceof CsvError) throw new DomainError('invalid', M.csvBroken(Number(error.lines) || 1));
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) throw new DomainError('invalid', M.csvEmpty);
  const names = header.record.map((cell) => cell.trim());
  const column = (name: string): number => {
    let index = names.indexOf(name);
    if (index < 0) index = names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
    if (index < 0) throw new DomainError('invalid', M.csvMissingColumn(name));
    return index;
  };
  const optional = (name: string | undefined) => (name === undefined ? null : column(name));
  const columns = {
    date: column(mapping.date),
    amount: column(mapping.amount),
    currency: optional(mapping.currency),
    payerName: column(mapping.payerName),
    payerIban: optional(mapping.payerIban),
    remittance: (typeof mapping.remittance === 'string' ? [mapping.remittance] : mapping.remittance).map(
      column,
    ),
    pending: optional(mapping.pending?.column),
  };
  const decimalComma = mapping.decimalComma ?? true;
  const identities = new OccurrenceCounter();
  const candidates: BookingCandidate[] = [];
  const skipped: SkippedEntry[] = [];

  for (const { info, record } of body) {
    const cell = (index: number | null) => (index === null ? '' : (record[index] ?? '').trim());
    if (record.every((c) => c.trim() === '')) continue;
    const line = info.lines;
    const where = M.csvRow(line);
    const dateText = cell(columns.date);
    const amountText = cell(columns.amount);
    // Closing lines of some exports (balances, totals) have neither.
    if (!dateText && !amountText) continue;
    const bookingDate = parseCsvDate(dateText, where);
    const amount = csvAmountToCents(amountText, decimalComma);
    if (!amount.ok && amount.reason === 'invalid')
      throw new DomainError('invalid', M.badAmount(amountText, where));
    const currency = (cell(columns.currency) || 'EUR').toUpperCase();
    const payerName = cell(columns.payerName) || null;
    const iban = cell(columns.payerIban).replace(/\s+/g, '').toUpperCase();
    const payerIban = IBAN.test(iban) ? iban : null;
    const remittance = columns.remittance.map(cell).filter(Boolean).join('\n');
    const cents = amount.ok ? amount.cents : null;
    const identity = sha256Hex(
      JSON.stringify(['csv', bookingDate, cents ?? amountText, currency, payerName, payerIban, remittance]),
    );
    const occurrence = identities.next(identity);
    const origin = { kind: 'csv', line } as const;
    const common = {
      identity: sha256Hex(`${identity}:${occurrence}`),
      origin,
      bookingDate,
      payerName,
      remittance,
    };
    const skip = (reason: SkippedEntry['reason'], message: string) =>
      skipped.push({
        ...common,
        reason,
        message,
        amount: cents === null ? amountText.replace(/^[+-]|-$/g, '') : centsToDecimal(cents),
        currency,
        creditDebit: cents !== null && cents < 0 ? 'DBIT' : 'CRDT',
        status: null,
      });

    const pending = mapping.pending?.values.includes(cell(columns.pending)) ?? false;
    if (cents !== null && cents < 0) skip('debit', M.skipped.debit);
    else if (currency !== 'EUR') skip('currency', M.skipped.currency(currency));
    else if (pending) skip('not_booked', M.skipped.notBooked('PDNG'));
    else if (cents === null) skip('sub_cent', M.skipped.subCent);
    else if (cents === 0) skip('zero', M.skipped.zero);
    else {
      candidates.push({
        ...common,
        bankKey: null,
        amountCents: cents,
        currency: 'EUR',
        valueDate: null,
        payerIban,
        creditorReferences: [],
        references: {
          entryRef: null,
          entryAccountServicerRef: null,
          endToEndId: null,
          txAccountServicerRef: null,
          txId: null,
          msgId: null,
        },
        bookingText: null,
        part: 'entry',
      });
    }
  }
  return {
    document: { name: null, sha256, format: 'csv', version: null, messageId: null, statements: [] },
    candidates,
    skipped,
  };
}
