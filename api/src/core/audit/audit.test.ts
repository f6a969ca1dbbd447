import { randomUUID } from 'node:crypto';
import { DEFAULT_RETENTION } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { deleteAccount } from '../accounts/account-deletion.js';
import { collectAccountData } from '../accounts/data-export.js';
import { setRole } from '../accounts/roles.js';
import { DataExport } from '../model/data-export.entity.js';
import { AuditLog } from '../model/audit-log.entity.js';
import { User } from '../model/user.entity.js';
import { runRetention } from '../privacy/retention.js';
import { auditEntriesOf, listAudit, recordAudit, systemAuditActor, writeAudit } from './audit.js';
import { deleteAuditRowsBefore, redactAuditAddresses } from './audit.queries.js';

const DAY = 24 * 3600 * 1000;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

const em = () => t.orm.em.fork();
const sql = (statement: string, params: unknown[] = []) => em().getConnection().execute(statement, params);

async function staff(role: 'admin' | 'reviewer' = 'admin', lastName = 'Team'): Promise<User> {
  const fork = em();
  const user = fork.create(User, {
    email: `team-${randomUUID()}@example.de`,
    passwordHash: 'x',
    firstName: 'Tina',
    lastName,
    role,
    emailVerified: true,
  });
  await fork.flush();
  return user;
}

/** One row of the person's, written at `createdAt`. */
async function row(user: User, createdAt = new Date(), ip = '192.0.2.10'): Promise<AuditLog> {
  const fork = em();
  const entry = recordAudit(fork, {
    actorId: user.id,
    actorRole: user.role,
    action: 'visitors.export_csv',
    target: '2031',
    details: { rows: 3 },
    ip,
  });
  entry.createdAt = createdAt;
  await fork.flush();
  return entry;
}

describe('the audit log is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const entry = await row(await staff());
    await expect(sql(`update audit_log set action = 'audit.read' where id = ?`, [entry.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(`update audit_log set ip = null where id = ?`, [entry.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(`delete from audit_log where id = ?`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(sql(`truncate audit_log`)).rejects.toThrow(/append-only/);
    const fork = em();
    const loaded = await fork.findOneOrFail(AuditLog, entry.id);
    loaded.target = '1999';
    await expect(fork.flush()).rejects.toThrow(/append-only/);
    expect(await em().findOneOrFail(AuditLog, entry.id)).toMatchObject({ target: '2031', ip: '192.0.2.10' });
  });

  it('lets a redacting transaction clear addresses only, and retention delete only what is older than it says', async () => {
    const user = await staff();
    const old = await row(user, new Date('2020-01-01T00:00:00Z'));
    const fresh = await row(user, new Date('2020-06-01T00:00:00Z'));
    // Redacting clears the address, nothing else.
    await expect(
      em().transactional(async (tx) => {
        await tx
          .getConnection()
          .execute(
            `select set_config('schlosstreffen.redact_audit_log', 'on', true)`,
            [],
            'run',
            tx.getTransactionContext(),
          );
        await tx
          .getConnection()
          .execute(
            `update audit_log set ip = null, target = 'x' where id = ?`,
            [old.id],
            'run',
            tx.getTransactionContext(),
          );
      }),
    ).rejects.toThrow(/append-only/);
    // The route that matched stays too.
    await expect(
      em().transactional(async (tx) => {
        const run = (statement: string, params: unknown[] = []) =>
          tx.getConnection().execute(statement, params, 'run', tx.getTransactionContext());
        await run(`select set_config('schlosstreffen.redact_audit_log', 'on', true)`);
        await run(`update audit_log set ip = null, route = 'GET /x' where id = ?`, [old.id]);
      }),
    ).rejects.toThrow(/append-only/);
    await em().transactional((tx) => redactAuditAddresses(tx, user.id));
    expect((await em().find(AuditLog, { actorId: user.id })).map((entry) => entry.ip)).toEqual([null, null]);
    // The setting ends with the transaction.
    await expect(sql(`update audit_log set ip = null where id = ?`, [old.id])).rejects.toThrow(/append-only/);

    // Retention's moment lets older rows go; a younger row still refuses.
    await expect(
      em().transactional(async (tx) => {
        await deleteAuditRowsBefore(tx, new Date('2020-03-01T00:00:00Z'));
        await tx
          .getConnection()
          .execute(`delete from audit_log where id = ?`, [fresh.id], 'run', tx.getTransactionContext());
      }),
    ).rejects.toThrow(/append-only/);
    expect(await em().count(AuditLog, { id: old.id })).toBe(1);
    expect(
      await em().transactional((tx) => deleteAuditRowsBefore(tx, new Date('2020-03-01T00:00:00Z'))),
    ).toBe(1);
    expect(await em().count(AuditLog, { id: { $in: [old.id, fresh.id] } })).toBe(1);
  });
});

describe('account deletion', () => {
  it("keeps the person's rows, without addresses, named 'Gelöschtes Konto'", async () => {
    const gone = await staff('reviewer', 'Geht');
    const stays = await staff('admin', 'Bleibt');
    await row(gone);
    await row(stays);
    await deleteAccount(em(), gone.id);

    const page = await listAudit(em(), { actorId: gone.id, limit: 10 });
    expect(page.entries).toMatchObject([
      { actorId: gone.id, actorName: 'Gelöschtes Konto', ip: null, target: '2031' },
    ]);
    const kept = await listAudit(em(), { actorId: stays.id, limit: 10 });
    expect(kept.entries).toMatchObject([{ actorName: 'Tina Bleibt', ip: '192.0.2.10' }]);
  });
});

describe('retention', () => {
  it(`removes rows older than ${DEFAULT_RETENTION.auditLog} days at the run's moment, and only those`, async () => {
    const asOf = new Date('2034-05-01T12:00:00Z');
    const user = await staff();
    const due = await row(user, new Date(asOf.getTime() - (DEFAULT_RETENTION.auditLog + 1) * DAY));
    const kept = await row(user, new Date(asOf.getTime() - (DEFAULT_RETENTION.auditLog - 1) * DAY));
    const before = await em().count(AuditLog, {
      createdAt: { $lt: new Date(asOf.getTime() - DEFAULT_RETENTION.auditLog * DAY) },
    });

    const report = await runRetention(t.orm.em, { asOf, periods: DEFAULT_RETENTION });
    expect(report.auditLog).toBe(before);
    expect(await em().count(AuditLog, { id: due.id })).toBe(0);
    expect(await em().count(AuditLog, { id: kept.id })).toBe(1);
    expect((await runRetention(t.orm.em, { asOf, periods: DEFAULT_RETENTION })).auditLog).toBe(0);
  });
});

describe('the data export', () => {
  it("lists a staff member's own rows, and no one else's", async () => {
    const me = await staff();
    const other = await staff();
    await row(me, new Date('2033-01-01T10:00:00Z'));
    await row(other);
    await writeAudit(em(), { actorId: me.id, actorRole: 'admin', action: 'audit.read', ip: '192.0.2.11' });

    const fork = em();
    const exportRow = fork.create(DataExport, { user: me.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    expect(data!.documents['protokoll.json']).toEqual([
      {
        action: 'visitors.export_csv',
        label: 'Besucherliste als CSV exportiert',
        role: 'admin',
        target: '2031',
        details: { rows: 3 },
        address: '192.0.2.10',
        createdAt: '2033-01-01T10:00:00.000Z',
      },
      expect.objectContaining({ action: 'audit.read', address: '192.0.2.11', label: 'Protokoll angesehen' }),
    ]);
    expect(await auditEntriesOf(em(), other.id)).toHaveLength(1);
  });
});

describe('role changes', () => {
  it('are one row each, by the command line as the system', async () => {
    const user = await staff('reviewer');
    await setRole(em(), user.email, 'admin', { actor: systemAuditActor('Kommandozeile') });
    await setRole(em(), user.email, 'admin', { actor: systemAuditActor('Kommandozeile') });
    const rows = await em().find(AuditLog, { action: 'accounts.role', target: user.id });
    expect(rows).toMatchObject([
      {
        actorId: null,
        actorRole: 'system',
        actorName: 'Kommandozeile',
        details: { from: 'reviewer', to: 'admin' },
        ip: null,
      },
    ]);
    const page = await listAudit(em(), { action: 'accounts.role', limit: 50 });
    expect(page.entries.find((entry) => entry.target === user.id)).toMatchObject({
      actorName: 'Kommandozeile',
      actorRole: 'system',
      targetName: 'Tina Team',
    });
    // The subject is named as it is now: once the account is gone, as such.
    await deleteAccount(em(), user.id);
    const after = await listAudit(em(), { action: 'accounts.role', limit: 50 });
    expect(after.entries.find((entry) => entry.target === user.id)?.targetName).toBe('Gelöschtes Konto');
  });

  it('stores an IPv4 client of a dual-stack socket as its IPv4 address', async () => {
    const user = await staff();
    await writeAudit(em(), {
      actorId: user.id,
      actorRole: 'admin',
      action: 'audit.read',
      ip: '::ffff:192.0.2.5',
    });
    await writeAudit(em(), { actorId: user.id, actorRole: 'admin', action: 'audit.read', ip: '2001:db8::1' });
    expect((await auditEntriesOf(em(), user.id)).map((entry) => entry.ip)).toEqual([
      '192.0.2.5',
      '2001:db8::1',
    ]);
  });
});
