import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readStatementFile } from './index.js';

const ENTRIES = 5000;

/** A realistic credit transfer entry: every 100th a debit, every 250th a batch of three. */
function entry(i: number): string {
  const amount = (2000 + (i % 7) * 500) / 100;
  const debit = i % 100 === 0;
  const batch = i % 250 === 1;
  const tx = (n: number, txAmount: string) => `
          <TxDtls>
            <Refs><AcctSvcrRef>${i}-${n}</AcctSvcrRef><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <Amt Ccy="EUR">${txAmount}</Amt>
            <CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
            <RltdPties>
              <Dbtr><Pty><Nm>Teilnehmer Nummer ${i}-${n} &amp; Beifahrer</Nm></Pty></Dbtr>
              <DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>
            </RltdPties>
            <RltdAgts><DbtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></DbtrAgt></RltdAgts>
            <RmtInf><Ustrd>Startgeld Schlosstreffen ST26-${String(i).padStart(5, '0')}-${n}</Ustrd><Ustrd>Fahrzeug ${i}</Ustrd></RmtInf>
          </TxDtls>`;
  return `
      <Ntry>
        <NtryRef>${i}</NtryRef>
        <Amt Ccy="EUR">${batch ? (amount * 3).toFixed(2) : amount.toFixed(2)}</Amt>
        <CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-05-${String(1 + (i % 28)).padStart(2, '0')}</Dt></BookgDt>
        <ValDt><Dt>2026-05-${String(1 + (i % 28)).padStart(2, '0')}</Dt></ValDt>
        <AcctSvcrRef>2026050${i}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>${batch ? [1, 2, 3].map((n) => tx(n, amount.toFixed(2))).join('') : tx(1, amount.toFixed(2))}
        </NtryDtls>
        <AddtlNtryInf>${batch ? 'SAMMELGUTSCHRIFT' : 'GUTSCHR. UEBERWEISUNG'}</AddtlNtryInf>
      </Ntry>`;
}

function statement(entries: number): string {
  const body = Array.from({ length: entries }, (_, i) => entry(i)).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-05-31T22:00:00+02:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>2026053100000001</Id>
      <CreDtTm>2026-05-31T22:00:00+02:00</CreDtTm>
      <Acct><Id><IBAN>DE09200411330000998877</IBAN></Id><Ccy>EUR</Ccy></Acct>${body}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

describe('a statement of 5,000 entries', () => {
  it('comes out whole: every entry a candidate (batches by their transactions) or skipped', async () => {
    const bytes = Buffer.from(statement(ENTRIES));
    const started = performance.now();
    const result = await readStatementFile(bytes);
    const ms = performance.now() - started;
    console.log(
      `camt.053 with ${ENTRIES} entries (${(bytes.length / 1024 / 1024).toFixed(1)} MB) read in ${ms.toFixed(0)} ms`,
    );

    const debits = Array.from({ length: ENTRIES }, (_, i) => i).filter((i) => i % 100 === 0);
    const batches = Array.from({ length: ENTRIES }, (_, i) => i).filter((i) => i % 250 === 1);
    expect(result.skipped.map((s) => s.origin.kind === 'camt' && s.origin.entryIndex)).toEqual(debits);
    expect(result.candidates).toHaveLength(ENTRIES - debits.length + 2 * batches.length);
    const seen = new Set(
      [...result.candidates, ...result.skipped].map((c) => c.origin.kind === 'camt' && c.origin.entryIndex),
    );
    expect(seen.size).toBe(ENTRIES);
    expect(
      result.candidates.every(
        (c) => c.references.entryRef === String(c.origin.kind === 'camt' && c.origin.entryIndex),
      ),
    ).toBe(true);
    expect(new Set(result.candidates.map((c) => c.identity)).size).toBe(result.candidates.length);
    const first = result.candidates[0]!;
    expect(first).toMatchObject({
      amountCents: 2500,
      payerName: 'Teilnehmer Nummer 1-1 & Beifahrer',
      remittance: 'Startgeld Schlosstreffen ST26-00001-1\nFahrzeug 1',
      part: 'batch-part',
    });
    expect(result.documents[0]!.statements[0]!.entries).toBe(ENTRIES);
  });
});
