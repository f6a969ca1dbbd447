import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a leading
 * apostrophe, so it shows as text (OWASP: CSV injection).
 */
export const neutraliseFormula = (value: string): string =>
  /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;

const OPTIONS = {
  bom: true,
  delimiter: ';',
  record_delimiter: 'windows',
  quoted: true,
  header: true,
  cast: { string: neutraliseFormula },
} as const;

/**
 * A CSV writer for spreadsheet programs: UTF-8 with BOM, semicolons and CRLF (what German Excel and
 * LibreOffice open without an import dialog), every field quoted, every text cell neutralised.
 */
export function spreadsheetCsv(header: readonly string[]): Stringifier {
  return stringify({ ...OPTIONS, columns: [...header] });
}

/** The whole CSV of a few rows at once (e.g. the visitor list), with the same settings. */
export const spreadsheetCsvText = (header: readonly string[], rows: unknown[][]): string =>
  stringifySync(rows, { ...OPTIONS, columns: [...header] });
