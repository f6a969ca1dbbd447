/**
 * R14: a bank statement read into the payments. The current edition gets a fee and 1,000
 * invitations with their payments; one camt.053 of 5,000 entries (900 paying a reference in full,
 * written in the ways payers write it, 100 paying part of one, 3,680 credits naming none, 160
 * debits, 160 in US dollars) is posted to 'Zahlungen' by an admin: the time to the answer, budget
 * 10 s. The same file again (nothing booked twice) as a figure without budget. Everything is
 * removed again afterwards, so the later parts see the edition without a fee.
 */
import { performance } from 'node:perf_hooks';
import { makePaymentReference } from '@schlosstreffen/shared';
import type { PaymentImportResult } from '@schlosstreffen/shared/api';
import type { Client } from '../http.js';
import { withDatabase } from '../seed.js';
import type { Figure } from '../stats.js';

const INVITATIONS = 1_000;
const ENTRIES = 5_000;
const CURRENT = `(select id from edition order by current_from desc nulls last, year desc limit 1)`;
const FEE = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e.V.',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  payWithinDays: 5,
  refund: { fullUntil: null, keepCents: 0 },
};

/** The edition with a fee, INVITATIONS invitations (extra ones for vehicles without) and their payments. */
async function prepare(): Promise<{ year: number; references: string[] }> {
  return withDatabase(async (db) => {
    const { year } = (await db.query<{ year: number }>(`select year from edition where id = ${CURRENT}`))
      .rows[0]!;
    await db.query(`update edition set fee = $1 where id = ${CURRENT}`, [JSON.stringify(FEE)]);
    await db.query(
      `insert into invitation (id, vehicle_id, edition_id, start_number, qr_code, parking_zone, created_at)
       select gen_random_uuid(), v.id, v.edition_id, 100000 + row_number() over (order by v.id),
              'bench-r14-' || v.id, 'A', now()
         from vehicle v
        where v.edition_id = ${CURRENT} and not exists (select 1 from invitation i where i.vehicle_id = v.id)
        order by v.id
        limit greatest(0, $1 - (select count(*) from invitation where edition_id = ${CURRENT}))`,
      [INVITATIONS],
    );
    const invitations = (
      await db.query<{ id: string }>(
        `select id from invitation where edition_id = ${CURRENT} order by start_number limit $1`,
        [INVITATIONS],
      )
    ).rows;
    const references = new Set<string>();
    while (references.size < invitations.length) references.add(makePaymentReference(year));
    const list = [...references];
    await db.query(
      `insert into payment (id, edition_id, invitation_id, reference, amount_cents, created_at, updated_at)
       select gen_random_uuid(), ${CURRENT}, i, r, 2500, now(), now()
         from unnest($1::uuid[], $2::text[]) as t(i, r)`,
      [invitations.map((row) => row.id), list],
    );
    await db.query('analyze payment, bank_entry');
    return { year, references: list };
  });
}

async function cleanUp(): Promise<void> {
  await withDatabase(async (db) => {
    await db.query(`delete from payment_booking where edition_id = ${CURRENT}`);
    await db.query(`delete from bank_import where edition_id = ${CURRENT}`);
    await db.query(`delete from payment where edition_id = ${CURRENT}`);
    await db.query(`delete from invitation where qr_code like 'bench-r14-%'`);
    await db.query(`update edition set fee = null where id = ${CURRENT}`);
  });
}

/** How payers write a reference: as given, lower case, without dashes, split over two lines, among words. */
function written(reference: string, i: number): string[] {
  switch (i % 4) {
    case 0:
      return [`Startgeld ${reference}`];
    case 1:
      return [`startgeld ${reference.toLowerCase()} porsche`];
    case 2:
      return [`Teilnahme ${reference.slice(0, 7)}`, `${reference.slice(7)} Schlosstreffen`];
    default:
      return [reference.replace(/-/g, ' ')];
  }
}

function statement(references: string[]): string {
  const entries: string[] = [];
  for (let i = 0; i < ENTRIES; i++) {
    const paying = i < references.length;
    const partial = paying && i >= 900;
    const debit = !paying && i % 25 === 0;
    const dollars = !paying && !debit && i % 25 === 1;
    const amount = partial ? '10.00' : paying ? '25.00' : `${20 + (i % 30)}.00`;
    const lines = paying ? written(references[i]!, i) : [`Rechnung ${i} Dank und Gruss`];
    entries.push(`
      <Ntry>
        <Amt Ccy="${dollars ? 'USD' : 'EUR'}">${amount}</Amt>
        <CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-05-${String(1 + (i % 28)).padStart(2, '0')}</Dt></BookgDt>
        <AcctSvcrRef>R14-${i}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <RltdPties>
            <Dbtr><Pty><Nm>Zahler ${i}</Nm></Pty></Dbtr>
            <DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>
          </RltdPties>
          <RmtInf>${lines.map((line) => `<Ustrd>${line}</Ustrd>`).join('')}</RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
  <GrpHdr><MsgId>R14</MsgId><CreDtTm>2026-05-31T22:00:00+02:00</CreDtTm></GrpHdr>
  <Stmt><Id>R14-2026053100000001</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>${entries.join('')}
  </Stmt>
</BkToCstmrStmt></Document>`;
}

async function post(
  admin: Client,
  year: number,
  bytes: Buffer,
): Promise<{ ms: number; result: PaymentImportResult }> {
  const started = performance.now();
  const response = await admin.upload(`/api/admin/payments/${year}/import?name=r14.xml`, bytes);
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`import answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, result: JSON.parse(text) as PaymentImportResult };
}

export async function statementImport(admin: Client): Promise<Figure[]> {
  const { year, references } = await prepare();
  try {
    const bytes = Buffer.from(statement(references));
    const first = await post(admin, year, bytes);
    const c = first.result.counts;
    if (c.paid !== 900 || c.partial !== 100) {
      throw new Error(`expected 900 paid and 100 partial, got ${JSON.stringify(c)}`);
    }
    const again = await post(admin, year, bytes);
    if (again.result.counts.known !== first.result.counts.paid + c.partial + c.unassigned) {
      throw new Error(`the second import booked again: ${JSON.stringify(again.result.counts)}`);
    }
    const counts = `${c.paid} paid, ${c.partial} partial, ${c.unassigned} unassigned, ${c.skipped} skipped`;
    return [
      {
        name: 'r14.statement_import.seconds',
        value: first.ms / 1000,
        unit: 's',
        budget: { op: '<=', limit: 10 },
        reference: `camt.053 of ${ENTRIES} entries (${(bytes.length / 1024 / 1024).toFixed(1)} MB) against ${INVITATIONS} invitations: ${counts}`,
      },
      {
        name: 'r14.statement_import_again.seconds',
        value: again.ms / 1000,
        unit: 's',
        reference: `the same file again: ${again.result.counts.known} lines known, nothing booked`,
      },
    ];
  } finally {
    await cleanUp();
  }
}
