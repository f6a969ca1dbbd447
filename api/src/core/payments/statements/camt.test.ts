import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { MAX_STATEMENT_FILE_BYTES, STATEMENT_MESSAGES as M, readStatementFile } from './index.js';
import type { BookingCandidate, StatementRead } from './index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const read = (name: string) => readStatementFile(fixture(name));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What a candidate says, without its hashes, for comparing readings. */
const facts = ({ identity: _i, bankKey: _b, ...rest }: BookingCandidate) => rest;

async function refusal(bytes: Uint8Array | string): Promise<DomainError> {
  const error = await readStatementFile(typeof bytes === 'string' ? Buffer.from(bytes) : bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('camt.053 from published test files', () => {
  it('reads a German bank test statement (VR-Bank, v.02): the credit is a candidate, debits are skipped', async () => {
    const bytes = fixture('viafintech-camt053-v02.xml');
    const result = await readStatementFile(bytes);
    expect(result.fileSha256).toBe(sha256(bytes));
    expect(result.container).toBe('xml');
    expect(result.documents).toEqual([
      {
        name: null,
        sha256: sha256(bytes),
        format: 'camt.053',
        version: 'camt.053.001.02',
        messageId: '053D2013-12-27T22:05:03.0N130000005',
        statements: [
          {
            id: '0352C5320131227220503',
            accountIban: 'DE14740618130000033626',
            accountOther: null,
            createdAt: '2013-12-27T22:04:52.0+01:00',
            entries: 4,
          },
        ],
      },
    ]);
    expect(result.candidates.map(facts)).toEqual([
      {
        origin: {
          kind: 'camt',
          document: null,
          format: 'camt.053',
          statementId: '0352C5320131227220503',
          entryIndex: 2,
          txIndex: 0,
        },
        amountCents: 100,
        currency: 'EUR',
        bookingDate: '2013-12-27',
        valueDate: '2013-12-27',
        payerName: 'Testkonto Nummer 2',
        // The payer's account is given as a BBAN only.
        payerIban: null,
        remittance: 'R CKBUCHUNG',
        creditorReferences: [],
        references: {
          entryRef: null,
          entryAccountServicerRef: '2013122711085260000',
          endToEndId: null,
          txAccountServicerRef: null,
          txId: null,
          msgId: null,
        },
        bookingText: null,
        part: 'entry',
      },
    ]);
    expect(result.candidates[0]!.identity).toMatch(/^[0-9a-f]{64}$/);
    expect(result.candidates[0]!.bankKey).toMatch(/^[0-9a-f]{64}$/);
    // Three debits, the last a batch of two: each skipped once, as an entry.
    expect(result.skipped.map((s) => [s.reason, s.amount, s.creditDebit, s.origin])).toEqual(
      [0, 1, 3].map((entryIndex, i) => [
        'debit',
        ['2.00', '3.00', '6.00'][i],
        'DBIT',
        expect.objectContaining({ entryIndex, txIndex: null }),
      ]),
    );
    expect(result.skipped[0]).toMatchObject({
      message: 'Lastschrift/Abbuchung (nur Gutschriften werden zugeordnet)',
      currency: 'EUR',
      status: 'BOOK',
      bookingDate: '2013-12-27',
      payerName: 'Wayne Enterprises',
      remittance: 'TEST BERWEISUNG MITTELS BLZUND KONTONUMMER - DTA',
    });
    expect(result.skipped[2]!.remittance).toBe(
      'Sammelueberwseisung 2. Zahlung   TAN:283044\nSammelueberweisung 1. Zahlung   TAN:283044',
    );
  });

  it('reads an ING statement (v.02) with a batch debit that has no details', async () => {
    const result = await read('viafintech-camt053-v02-batch.xml');
    expect(
      result.candidates.map((c) => [
        c.amountCents,
        c.payerName,
        c.payerIban,
        c.remittance,
        c.references.entryRef,
      ]),
    ).toEqual([
      [268800, 'TEST', 'NL86INGB00066666666', 'TERUGGAAF', '032019164412145727005003002'],
      [500000, 'Bedrijf BV', 'NL11INGB0001234567', '', '032019169492039060000000002'],
    ]);
    expect(result.candidates[0]!.references.endToEndId).toBe('GBSXX21170607391766562');
    expect(result.skipped.map((s) => [s.reason, s.amount])).toEqual([['debit', '4753.74']]);
  });

  it('skips credits in a foreign currency (UBS, v.08, CHF) with a German reason', async () => {
    const result = await read('viafintech-camt053-v08.xml');
    expect(result.documents[0]!.version).toBe('camt.053.001.08');
    expect(result.candidates).toEqual([]);
    expect(result.skipped.map((s) => [s.reason, s.amount, s.currency, s.message])).toEqual([
      ['currency', '474.4', 'CHF', 'Fremdwährung CHF (nur Euro wird zugeordnet)'],
      ['currency', '88.85', 'CHF', 'Fremdwährung CHF (nur Euro wird zugeordnet)'],
      ['debit', '20.97', 'EUR', 'Lastschrift/Abbuchung (nur Gutschriften werden zugeordnet)'],
    ]);
    expect(result.skipped[0]!.payerName).toBe('Jon Doe');
  });

  it("reads v.08's status code and party, the entry's amount where its one transaction names another", async () => {
    const result = await read('genkgo-camt053-v08.xml');
    expect(result.documents[0]!.statements[0]).toMatchObject({
      id: '253EURNL26VAYB8060476890',
      accountIban: null,
      accountOther: 'NL26VAYB8060476890',
    });
    // The transaction says 0 SEK; one transaction is booked at its entry's 8.85 EUR.
    expect(result.candidates.map(facts)).toEqual([
      expect.objectContaining({
        amountCents: 885,
        bookingDate: '2014-12-31',
        valueDate: '2015-01-02',
        payerName: 'NAME NAME',
        payerIban: 'NL56AGDH9619008421',
        remittance: '',
        creditorReferences: ['4654654654654654'],
        references: expect.objectContaining({
          entryAccountServicerRef: 'AAAASESS-FP-CN_98765/01',
          endToEndId: 'MUELL/FINP/RA12345',
        }),
        part: 'entry',
      }),
    ]);
  });

  it('reads versions .02, .03, .04 and .08 into the same shape', async () => {
    const versions = {
      'genkgo-camt053-v02-five-decimals.xml': 'camt.053.001.02',
      'genkgo-camt053-v03.xml': 'camt.053.001.03',
      'genkgo-camt053-v04.xml': 'camt.053.001.04',
      'genkgo-camt053-v08.xml': 'camt.053.001.08',
    };
    for (const [file, version] of Object.entries(versions)) {
      const result = await read(file);
      expect(result.documents[0]!.version).toBe(version);
      // '8.850' in the first: the amount is exact whatever its decimals.
      expect(result.candidates.map((c) => [c.amountCents, c.bookingDate])).toEqual([[885, '2014-12-31']]);
    }
  });

  it('reads every statement of a message', async () => {
    const result = await read('genkgo-camt053-v02-multi-statement.xml');
    expect(result.documents[0]!.statements.map((s) => [s.id, s.entries])).toEqual([
      ['253EURNL26VAYB8060476890', 1],
      ['254EURNL26VAYB8060476890', 1],
    ]);
    expect(result.candidates.map((c) => [c.amountCents, c.remittance])).toEqual([
      [885, 'Transaction Description 1'],
    ]);
    expect(result.skipped.map((s) => [s.reason, s.amount])).toEqual([['debit', '7.00']]);
  });

  it('reads camt.052 reports (v.02 and v.08) into the same shape', async () => {
    const report = await read('viafintech-camt052-v02.xml');
    expect(report.documents[0]).toMatchObject({
      format: 'camt.052',
      version: 'camt.052.001.02',
      statements: [{ id: '0352C5220131227110203', accountIban: 'DE58740618130100033626', entries: 2 }],
    });
    expect(report.candidates.map((c) => [c.origin, c.amountCents, c.payerName, c.remittance])).toEqual([
      [
        expect.objectContaining({ format: 'camt.052', statementId: '0352C5220131227110203', entryIndex: 0 }),
        200,
        'Testkonto Nummer 1',
        'TEST BERWEISUNG MITTELS BLZ UND KONTONUMMER - DTA',
      ],
      [
        expect.objectContaining({ entryIndex: 1 }),
        300,
        null,
        'Testüberweisung mit BIC und IBAN SEPA IBAN: DE14740618130000033626 BIC: GENODEF1PFK',
      ],
    ]);
    const v8 = await read('genkgo-camt052-v08.xml');
    expect(v8.documents[0]).toMatchObject({ format: 'camt.052', version: 'camt.052.001.08' });
    expect(v8.skipped.map((s) => [s.reason, s.amount, s.currency])).toEqual([['debit', '200000', 'SEK']]);
  });
});

describe('camt.053 generated for the cases published files lack', () => {
  let club: StatementRead;
  const byEntry = (entryIndex: number) =>
    club.candidates.filter((c) => c.origin.kind === 'camt' && c.origin.entryIndex === entryIndex);

  it('reads a statement whose every element has a namespace prefix (ns2:)', async () => {
    club = await read('generated-camt053-v08-club.xml');
    expect(club.documents[0]).toMatchObject({
      format: 'camt.053',
      version: 'camt.053.001.08',
      messageId: 'CLUB-053-20260504',
      statements: [{ id: '2026050400000001', accountIban: 'DE09200411330000998877', entries: 10 }],
    });
    expect(club.candidates).toHaveLength(8);
    expect(club.skipped).toHaveLength(4);
  });

  it('joins a remittance split over two lines with a line break', () => {
    expect(byEntry(0)).toEqual([
      expect.objectContaining({
        amountCents: 2500,
        payerName: 'Max Mustermann',
        payerIban: 'DE89370400440532013000',
        remittance: 'Startgeld ST26-K7Q2\nP-4 Max Mustermann',
        bookingText: 'GUTSCHR. UEBERWEISUNG',
        part: 'entry',
      }),
    ]);
  });

  it('splits a batch credit by its transactions, each its own candidate at its own amount', () => {
    expect(
      byEntry(1).map((c) => [
        c.origin.kind === 'camt' && c.origin.txIndex,
        c.amountCents,
        c.payerName,
        c.part,
      ]),
    ).toEqual([
      [0, 2500, 'Erika Musterfrau', 'batch-part'],
      [1, 3000, 'Jürgen Schäfer', 'batch-part'],
      [2, 2000, 'Anna Beispiel', 'batch-part'],
    ]);
    expect(byEntry(1).map((c) => c.references.txAccountServicerRef)).toEqual([
      '2026050412345600002-1',
      '2026050412345600002-2',
      '2026050412345600002-3',
    ]);
    expect(new Set(byEntry(1).map((c) => c.identity)).size).toBe(3);
  });

  it('keeps a batch whole where its transactions name no amounts', () => {
    expect(byEntry(6)).toEqual([
      expect.objectContaining({
        amountCents: 5000,
        payerName: 'Oldtimerclub Rheinhessen',
        payerIban: 'DE18430609671234567800',
        remittance: 'ST26-C4D5E-6\nST26-F7G8H-3',
        part: 'batch-whole',
        origin: expect.objectContaining({ txIndex: null }),
      }),
    ]);
  });

  it('skips another currency, a pre-booking, a debit and a reversal, each with its reason', () => {
    expect(
      club.skipped.map((s) => [s.origin.kind === 'camt' && s.origin.entryIndex, s.reason, s.message]),
    ).toEqual([
      [2, 'currency', 'Fremdwährung USD (nur Euro wird zugeordnet)'],
      [3, 'not_booked', 'Vorgemerkt, noch nicht gebucht'],
      [4, 'debit', 'Lastschrift/Abbuchung (nur Gutschriften werden zugeordnet)'],
      [5, 'reversal', 'Storno einer früheren Buchung'],
    ]);
    expect(club.skipped[1]).toMatchObject({ status: 'PDNG', amount: '25.00', payerName: 'Klaus Vorgemerkt' });
  });

  it('gives two transfers alike in all the bank refers them by distinct identities', () => {
    const [first, second] = [...byEntry(7), ...byEntry(8)];
    expect([first!.amountCents, second!.amountCents]).toEqual([2000, 2000]);
    expect(first!.identity).not.toBe(second!.identity);
    // Without any bank reference there is no key across statements.
    expect([first!.bankKey, second!.bankKey]).toEqual([null, null]);
  });

  it('reads a structured creditor reference, entities and a booking date-time', () => {
    expect(byEntry(9)).toEqual([
      expect.objectContaining({
        amountCents: 4000,
        bookingDate: '2026-05-04',
        payerName: 'Autohaus Beispiel GmbH & Co. KG',
        payerIban: 'DE84760100850012345678',
        remittance: '',
        creditorReferences: ['ST26-Q6R7S-4'],
        references: expect.objectContaining({ txId: 'TX-4711', msgId: 'MSG-4711' }),
      }),
    ]);
  });
});

describe('identity', () => {
  it('is the same for the same file read twice, and so is the file hash', async () => {
    const [first, second] = [
      await read('generated-camt053-v08-club.xml'),
      await read('generated-camt053-v08-club.xml'),
    ];
    expect(second.fileSha256).toBe(first.fileSha256);
    expect(second.candidates.map((c) => c.identity)).toEqual(first.candidates.map((c) => c.identity));
    expect(second.skipped.map((s) => s.identity)).toEqual(first.skipped.map((s) => s.identity));
    expect(new Set([...first.candidates, ...first.skipped].map((c) => c.identity)).size).toBe(12);
  });

  it('follows the statement, not the bytes: the same statement with other prefixes and indentation', async () => {
    const original = fixture('viafintech-camt053-v02.xml');
    const prefixed = original
      .toString('utf8')
      .replace(/<(\/?)([A-Za-z])/g, '<$1camt:$2')
      .replace('xmlns="', 'xmlns:camt="')
      .replace(/\n\s*/g, '\n');
    expect(prefixed).toContain('<camt:Ntry>');
    const [a, b] = [await readStatementFile(original), await readStatementFile(Buffer.from(prefixed))];
    expect(b.fileSha256).not.toBe(a.fileSha256);
    expect(b.candidates).toEqual(a.candidates);
    expect(b.skipped).toEqual(a.skipped);
  });

  it("differs between statements, and the bank's reference alone does not make it", async () => {
    const original = fixture('viafintech-camt053-v02.xml').toString('utf8');
    const nextDay = original.replace('<Id>0352C5320131227220503</Id>', '<Id>0352C5320131228220503</Id>');
    const [a, b] = [
      await readStatementFile(Buffer.from(original)),
      await readStatementFile(Buffer.from(nextDay)),
    ];
    expect(b.candidates[0]!.identity).not.toBe(a.candidates[0]!.identity);
    // The same booking shown again under another statement id keeps its key across statements.
    expect(b.candidates[0]!.bankKey).toBe(a.candidates[0]!.bankKey);
  });
});

describe('refusals, in German', () => {
  it('refuses a malformed file, naming where it breaks', async () => {
    const truncated = fixture('viafintech-camt053-v02.xml').subarray(0, 3000);
    const error = await refusal(truncated);
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(
      /^Die XML-Datei ist fehlerhaft \(Zeile \d+, Spalte \d+\) und kann nicht gelesen werden\.$/,
    );
    expect((await refusal('<Document><BkToCstmrStmt></Document>')).message).toMatch(
      /^Die XML-Datei ist fehlerhaft/,
    );
  });

  it('refuses what is neither a statement nor a ZIP of statements', async () => {
    for (const bytes of ['%PDF-1.7\n', '', 'Buchungstag;Betrag\n', '<html><body>Kontoauszug</body></html>']) {
      const error = await refusal(bytes);
      expect(error.code).toBe('unsupported_media_type');
      expect(error.message).toBe(
        'Die Datei ist weder ein camt.053/camt.052-Kontoauszug noch ein ZIP-Archiv davon.',
      );
    }
    expect((await refusal(fixture('genkgo-camt054-v02.xml'))).message).toBe(M.camt054);
    const huge = await refusal(Buffer.alloc(MAX_STATEMENT_FILE_BYTES + 1, 0x20));
    expect([huge.code, huge.message]).toEqual(['too_large', 'Die Datei ist zu groß (höchstens 32 MB).']);
  });

  it('refuses a DOCTYPE (no entity is ever expanded)', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>' +
      '<Document><BkToCstmrStmt><Stmt><Id>&b;</Id></Stmt></BkToCstmrStmt></Document>';
    expect((await refusal(bomb)).message).toBe(M.doctype);
  });

  it('refuses an entry without what every entry has', async () => {
    const entry = (inner: string) =>
      `<Document><BkToCstmrStmt><Stmt><Id>S1</Id><Ntry>${inner}</Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect((await refusal(entry('<CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>'))).message).toBe(
      'Im Kontoauszug fehlt der Betrag (Amt) (Auszug „S1“, Buchung 1).',
    );
    expect((await refusal(entry('<Amt Ccy="EUR">1,00</Amt><CdtDbtInd>CRDT</CdtDbtInd>'))).message).toBe(
      'Der Betrag „1,00“ ist keine gültige Zahl (Auszug „S1“, Buchung 1).',
    );
    expect((await refusal(entry('<Amt>1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>'))).message).toBe(
      'Im Kontoauszug fehlt die Währung (Amt/@Ccy) (Auszug „S1“, Buchung 1).',
    );
  });

  it('reads an XML file in the encoding it declares', async () => {
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?><Document><BkToCstmrAcctRpt><Rpt><Id>R1</Id>' +
      '<Ntry><Amt Ccy="EUR">15.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-05-04</Dt></BookgDt>' +
      '<NtryDtls><TxDtls><RmtInf><Ustrd>Gebühr für Jürgen</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>' +
      '</Rpt></BkToCstmrAcctRpt></Document>';
    const result = await readStatementFile(Buffer.from(xml, 'latin1'));
    expect(result.documents[0]).toMatchObject({ format: 'camt.052', version: null });
    expect(result.candidates[0]!.remittance).toBe('Gebühr für Jürgen');
    expect((await refusal(Buffer.from(xml.replace('ISO-8859-1', 'UTF-8'), 'latin1'))).message).toBe(
      M.badEncoding,
    );
  });
});
