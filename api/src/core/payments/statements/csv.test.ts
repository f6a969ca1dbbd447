import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { CSV_PRESETS, readCsvStatement } from './index.js';
import type { CsvMapping } from './index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function refusal(bytes: string, mapping: CsvMapping): DomainError {
  try {
    readCsvStatement(Buffer.from(bytes), mapping);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('CSV fallback', () => {
  it("reads a Sparkasse 'CSV-CAMT V2' export in Windows-1252 with decimal commas", () => {
    const bytes = fixture('generated-sparkasse-csv-camt-v2.csv');
    expect(bytes.includes(Buffer.from('Jürgen', 'utf8'))).toBe(false);
    const result = readCsvStatement(bytes, CSV_PRESETS.sparkasse);
    expect(result.container).toBe('csv');
    expect(result.fileSha256).toBe(sha256(bytes));
    expect(result.documents).toEqual([
      { name: null, sha256: sha256(bytes), format: 'csv', version: null, messageId: null, statements: [] },
    ]);
    expect(
      result.candidates.map((c) => [
        c.origin,
        c.bookingDate,
        c.amountCents,
        c.payerName,
        c.payerIban,
        c.remittance,
      ]),
    ).toEqual([
      [
        { kind: 'csv', line: 2 },
        '2026-05-04',
        2500,
        'Jürgen Schäfer',
        'DE12500105170648489890',
        'Startgeld ST26-K7Q2P-4',
      ],
      [
        { kind: 'csv', line: 4 },
        '2026-05-04',
        125000,
        'Müller & Söhne GmbH',
        'DE64120300000001234567',
        'Spende Schloßtreffen 2026',
      ],
      [{ kind: 'csv', line: 7 }, '2026-05-03', 2000, 'Peter Gleich', 'DE18430609671234567800', 'Startgeld'],
      [{ kind: 'csv', line: 8 }, '2026-05-03', 2000, 'Peter Gleich', 'DE18430609671234567800', 'Startgeld'],
      [
        { kind: 'csv', line: 9 },
        '2026-05-02',
        2500,
        'Anna Beispiel',
        'DE84760100850012345678',
        'ST26-M3N4P-8; Porsche 356 "Speedster"',
      ],
    ]);
    expect(result.candidates[0]).toMatchObject({
      currency: 'EUR',
      bankKey: null,
      part: 'entry',
      valueDate: null,
    });
    expect(
      result.skipped.map((s) => [s.origin, s.reason, s.amount, s.currency, s.creditDebit, s.message]),
    ).toEqual([
      [
        { kind: 'csv', line: 3 },
        'debit',
        '1234.56',
        'EUR',
        'DBIT',
        'Lastschrift/Abbuchung (nur Gutschriften werden zugeordnet)',
      ],
      [{ kind: 'csv', line: 5 }, 'not_booked', '25.00', 'EUR', 'CRDT', 'Vorgemerkt, noch nicht gebucht'],
      [
        { kind: 'csv', line: 6 },
        'currency',
        '30.00',
        'USD',
        'CRDT',
        'Fremdwährung USD (nur Euro wird zugeordnet)',
      ],
    ]);
    // Two identical rows: told apart by their place among the identical ones.
    expect(result.candidates[2]!.identity).not.toBe(result.candidates[3]!.identity);
  });

  it('gives the same identities to the same rows, also in a later export that overlaps', () => {
    const bytes = fixture('generated-sparkasse-csv-camt-v2.csv');
    const first = readCsvStatement(bytes, CSV_PRESETS.sparkasse);
    const again = readCsvStatement(Buffer.from(bytes), CSV_PRESETS.sparkasse);
    expect(again.fileSha256).toBe(first.fileSha256);
    expect(again.candidates.map((c) => c.identity)).toEqual(first.candidates.map((c) => c.identity));

    const [header, ...rows] = bytes.toString('latin1').split('\r\n');
    const newer =
      `${header}\r\n"DE09200411330000998877";"06.05.26";"06.05.26";"GUTSCHR. UEBERWEISUNG";"ST26-Z2Y3X-5";"";"";"";"";"";"";` +
      `"Neu";"";"";"25,00";"EUR";"Umsatz gebucht"\r\n${rows.join('\r\n')}`;
    const later = readCsvStatement(Buffer.from(newer, 'latin1'), CSV_PRESETS.sparkasse);
    expect(later.fileSha256).not.toBe(first.fileSha256);
    expect(later.candidates.slice(1).map((c) => c.identity)).toEqual(first.candidates.map((c) => c.identity));
  });

  it("reads Hibiscus' export: several purpose columns, its pre-booking flag, UTF-8 found by itself", () => {
    const result = readCsvStatement(fixture('generated-hibiscus-umsaetze.csv'), CSV_PRESETS.hibiscus);
    expect(
      result.candidates.map((c) => [c.amountCents, c.bookingDate, c.payerName, c.payerIban, c.remittance]),
    ).toEqual([
      [
        2500,
        '2026-05-04',
        'Max Mustermann',
        'DE89370400440532013000',
        'Startgeld ST26-K7Q2\nP-4 Max Mustermann',
      ],
      [
        102000,
        '2026-05-05',
        'Anna Beispiel',
        'DE59100100100000123456',
        'Sammelzahlung\nClub\nST26-C4D5E-6 ST26-F7G8H-3',
      ],
    ]);
    expect(result.skipped.map((s) => [s.reason, s.amount, s.payerName])).toEqual([
      ['debit', '9.90', 'Erika Musterfrau'],
      ['not_booked', '30.00', 'Jürgen Schäfer'],
    ]);
  });

  it('reads a mapping of its own: comma separated, decimal points, lines before the header', () => {
    const csv = [
      'Kontoauszug Vereinskonto',
      'Zeitraum: 01.05.2026 - 31.05.2026',
      'Date,Amount,Name,Reference',
      '2026-05-04,"1,025.50",Club Mitte,"Startgeld ST26-K7Q2P-4, ST26-M3N4P-8"',
      '2026-05-05,-4.99,Bank,Fee',
      ',,,',
      ',,Closing balance,',
    ].join('\n');
    const result = readCsvStatement(Buffer.from(csv), {
      date: 'date',
      amount: 'Amount',
      payerName: 'Name',
      remittance: 'Reference',
      delimiter: ',',
      decimalComma: false,
      skipLines: 2,
    });
    expect(
      result.candidates.map((c) => [c.origin, c.amountCents, c.payerName, c.payerIban, c.remittance]),
    ).toEqual([
      [{ kind: 'csv', line: 4 }, 102550, 'Club Mitte', null, 'Startgeld ST26-K7Q2P-4, ST26-M3N4P-8'],
    ]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['debit']);
  });

  it('refuses in German what does not fit the mapping', () => {
    const mapping: CsvMapping = { date: 'Datum', amount: 'Betrag', payerName: 'Name', remittance: 'Zweck' };
    expect(refusal('Datum;Name;Zweck\n04.05.2026;A;B\n', mapping).message).toBe(
      'Die Spalte „Betrag“ fehlt in der CSV-Datei.',
    );
    expect(refusal('Datum;Betrag;Name;Zweck\n04.05.2026;25 Euro;A;B\n', mapping).message).toBe(
      'Der Betrag „25 Euro“ ist keine gültige Zahl (CSV-Zeile 2).',
    );
    expect(refusal('Datum;Betrag;Name;Zweck\n\n31.02.2026;25,00;A;B\n', mapping).message).toBe(
      'Das Datum „31.02.2026“ ist ungültig (CSV-Zeile 3).',
    );
    expect(refusal('Datum;Betrag;Name;Zweck\n04.05.2026;"25,00;A;B\n', mapping).message).toMatch(
      /^Die CSV-Datei ist ab Zeile \d+ fehlerhaft/,
    );
    expect(refusal('', mapping).message).toBe('Die CSV-Datei enthält keine Kopfzeile.');
    const latin1 = Buffer.from('Datum;Betrag;Name;Zweck\n04.05.2026;25,00;Jürgen;B\n', 'latin1');
    expect(() => readCsvStatement(latin1, { ...mapping, encoding: 'utf-8' })).toThrow(
      'Die Datei enthält Zeichen, die nicht zu ihrer Zeichenkodierung passen.',
    );
    expect(readCsvStatement(latin1, mapping).candidates[0]!.payerName).toBe('Jürgen');
  });
});
