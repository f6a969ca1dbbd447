import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../core/model/audit-log.entity.js';
import { Payment } from '../core/model/payment.entity.js';
import { insertNumberedCar } from '../testing/signs.js';
import {
  createTestContext,
  openTestPayment,
  setTestFee,
  TEST_FEE,
  type TestContext,
} from '../testing/index.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** A club's camt.053 (generated, see the fixtures' README): its first entry pays a reference split over two lines. */
const FIXTURE = path.join(root, 'api/src/core/payments/statements/fixtures/generated-camt053-v08-club.xml');
let STATEMENT: string;

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await run(tsx, ['--conditions=source', 'api/src/cli/cli.ts', ...args], {
      cwd: root,
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, NODE_ENV: 'test' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('npm run cli -- payments:import <file>', () => {
  it('refuses an edition without a fee, then books the statement once however often it is read', async () => {
    const year = String(t.event.edition.year);
    const without = await cli('payments:import', FIXTURE, '--year', year);
    expect(without.code).toBe(1);
    expect(without.out).toContain(`Für ${year} ist keine Teilnahmegebühr eingerichtet.`);

    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await t.signIn('user');
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    // The fixture's first entry, written for this payment's reference (split where the bank split it).
    const xml = (await readFile(FIXTURE, 'utf8'))
      .replace('ST26-K7Q2</ns2:Ustrd>', `${payment.reference.slice(0, 9)}</ns2:Ustrd>`)
      .replace('<ns2:Ustrd>P-4 ', `<ns2:Ustrd>${payment.reference.slice(9)} `);
    STATEMENT = path.join(await mkdtemp(path.join(tmpdir(), 'statement-')), 'auszug.xml');
    await writeFile(STATEMENT, xml);

    const first = await cli('payments:import', STATEMENT, '--year', year);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(
      /Statement read into .*: 1 paid, 0 partial, 0 overpaid, 0 already paid, \d+ unassigned, 0 known before/,
    );
    expect((await t.orm.em.fork().findOneOrFail(Payment, payment.id)).paidCents).toBe(2500);

    const again = await cli('payments:import', STATEMENT, '--year', year);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(
      /^This file was read before\. .*: 0 paid, 0 partial, 0 overpaid, 0 already paid, 0 unassigned, \d+ known before/m,
    );
    expect((await t.orm.em.fork().findOneOrFail(Payment, payment.id)).paidCents).toBe(2500);
    const audits = await t.orm.em.fork().find(AuditLog, { action: 'payments.import' });
    expect(audits.map((row) => [row.actorRole, row.actorName, row.target])).toEqual([
      ['system', 'payments:import', year],
      ['system', 'payments:import', year],
    ]);

    const usage = await cli('payments:import');
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('payments:import <file>');
  });
});
