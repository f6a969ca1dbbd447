import { randomBytes, randomUUID } from 'node:crypto';
import { BULK_STATUS_MAX, BULK_STATUS_MESSAGES } from '@schlosstreffen/shared';
import type { AdminVehiclePage, BulkStatusPreview, BulkStatusResult } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdition } from '../../core/editions/editions.js';
import { rebuildProjections } from '../../core/status-log/projections.js';
import {
  changeStatus,
  createTestContext,
  insertSubmittedApplications,
  signInAs,
  withdrawContactConsent,
  type Account,
  type InsertedApplication,
  type TestContext,
} from '../../testing/index.js';

/**
 * Bulk status changes through the API on the real database: the preview (rows, mails, recipients,
 * rows left out), the change row by row (its own log row and outbox mail each, a stale row refused
 * alone), sending it again or twice at once, the limits, editions and who may.
 */

let t: TestContext;
let admin: Account;
let reviewer: Account;
let applicant: Account;
const RUN = randomBytes(3).toString('hex');

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  [admin, reviewer, applicant] = await Promise.all([
    signInAs(t, 'admin'),
    signInAs(t, 'reviewer'),
    signInAs(t, 'owner'),
  ]);
}, 60_000);
afterAll(() => t?.close());

const sql = <T>(query: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute<T[]>(query, params);

/** Status-log rows to `status` of these vehicles. */
async function logRows(ids: readonly string[], status: string) {
  return sql<{ vehicle_id: string; reviewer_id: string; comment_internal: string | null }>(
    `select vehicle_id, reviewer_id, comment_internal from review
      where kind = 'status' and new_status = ? and vehicle_id = any(?::uuid[])`,
    [status, `{${ids.join(',')}}`],
  );
}

/** The outbox's status mails of a template to these addresses. */
async function outboxMails(emails: readonly string[], template: string) {
  return sql<{ id: string; to: string; props: Record<string, unknown> }>(
    `select id, payload->>'to' as to, payload->'props' as props from outbox
      where job = 'email.send' and payload->>'template' = ? and payload->>'to' = any(?::text[])`,
    [template, `{${emails.join(',')}}`],
  );
}

const apply = (who: Account, body: unknown, edition = '') =>
  who.client.post(`/api/admin/vehicles/bulk-status${edition}`, body);
const preview = (who: Account, body: unknown, edition = '') =>
  who.client.post(`/api/admin/vehicles/bulk-status/preview${edition}`, body);

describe('preview', () => {
  let kadett: InsertedApplication[];
  let manta: InsertedApplication[];

  beforeAll(async () => {
    kadett = await insertSubmittedApplications(t, 30, { label: `kadett-${RUN}`, model: `Kadett${RUN}` });
    manta = await insertSubmittedApplications(t, 4, { label: `manta-${RUN}`, model: `Manta${RUN}` });
    // One Manta waits already, one is in review, and one applicant does not want to be contacted.
    await changeStatus(admin, manta[0]!.id, 'submitted', 'waitlist');
    await changeStatus(admin, manta[1]!.id, 'submitted', 'in_review');
    await withdrawContactConsent(t, manta[2]!);
  });

  it('of the filter is the dashboard’s list, with one mail per change and its recipient', async () => {
    const res = await preview(reviewer, {
      status: 'waitlist',
      filter: { status: 'submitted', q: `kadett${RUN}` },
    });
    expect(res.status, res.text).toBe(200);
    const body = res.data as BulkStatusPreview;

    // The dashboard's rows of the same filter, page by page.
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await reviewer.client.get(
        `/api/admin/vehicles?status=submitted&q=kadett${RUN}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      const page = res.data as AdminVehiclePage;
      listed.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed).toHaveLength(30);
    expect(body.changes.map((row) => row.id)).toEqual(listed);

    expect(body).toMatchObject({ status: 'waitlist', selected: 30, mails: 30, skipped: [], placesFreed: 0 });
    const first = kadett[0]!;
    expect(body.changes.find((row) => row.id === first.id)).toEqual({
      id: first.id,
      title: `Opel Kadett${RUN} 0`,
      oldStatus: 'submitted',
      owner: { name: 'Vorname0 Nachname0', email: first.email },
      mail: {
        template: 'application-waitlist',
        kind: 'Warteliste',
        subject: 'Du stehst auf der Warteliste – Schlosstreffen',
      },
      noMail: null,
    });
    expect(new Set(body.changes.map((row) => row.owner.email))).toEqual(new Set(kadett.map((a) => a.email)));
    // A preview writes nothing.
    expect(
      await logRows(
        kadett.map((a) => a.id),
        'waitlist',
      ),
    ).toHaveLength(0);
  });

  it('leaves out what is there already and says who gets no mail and why', async () => {
    const res = await preview(admin, { status: 'waitlist', filter: { status: 'all', q: `manta${RUN}` } });
    expect(res.status, res.text).toBe(200);
    const body = res.data as BulkStatusPreview;
    expect(body.selected).toBe(4);
    expect(body.skipped).toEqual([
      {
        id: manta[0]!.id,
        title: `Opel Manta${RUN} 0`,
        status: 'waitlist',
        reason: 'Steht bereits auf „Warteliste“.',
      },
    ]);
    expect(body.changes.map((row) => [row.id, row.oldStatus, row.mail?.template ?? row.noMail])).toEqual([
      [manta[1]!.id, 'in_review', 'application-waitlist'],
      [manta[2]!.id, 'submitted', 'Keine E-Mail: Die Einwilligung zur Kontaktaufnahme wurde widerrufen.'],
      [manta[3]!.id, 'submitted', 'application-waitlist'],
    ]);
    expect(body.mails).toBe(2);

    // A status without a mail: every row changes, none mails.
    const quiet = (await preview(admin, { status: 'in_review', ids: manta.map((a) => a.id) }))
      .data as BulkStatusPreview;
    expect(quiet.mails).toBe(0);
    expect(quiet.changes.map((row) => row.noMail)).toEqual([
      'Für „In Prüfung“ wird keine E-Mail versendet.',
      'Für „In Prüfung“ wird keine E-Mail versendet.',
      'Für „In Prüfung“ wird keine E-Mail versendet.',
    ]);
    expect(quiet.skipped.map((row) => row.id)).toEqual([manta[1]!.id]);

    // The invitation is announced with its kind; the start number is given by its job.
    const invite = (await preview(admin, { status: 'invited', ids: [manta[3]!.id] }))
      .data as BulkStatusPreview;
    expect(invite.changes[0]!.mail).toEqual({
      template: 'invitation',
      kind: 'Einladung mit Startnummer, Parkzone und QR-Code',
      subject: 'Deine Einladung zum Schlosstreffen – Startnummer …',
    });
  });

  it('by hand keeps the given order and names what is not in the edition', async () => {
    const gone = randomUUID();
    const res = await preview(admin, { status: 'rejected', ids: [kadett[5]!.id, gone, kadett[2]!.id] });
    expect(res.status, res.text).toBe(200);
    const body = res.data as BulkStatusPreview;
    expect(body.selected).toBe(3);
    expect(body.changes.map((row) => row.id)).toEqual([kadett[5]!.id, kadett[2]!.id]);
    expect(body.changes[0]!.mail?.subject).toBe('Deine Bewerbung beim Schlosstreffen');
    expect(body.skipped).toEqual([
      { id: gone, title: null, status: null, reason: BULK_STATUS_MESSAGES.notInEdition },
    ]);
  });

  it('counts the places a change gives up', async () => {
    const held = await insertSubmittedApplications(t, 2, { label: `platz-${RUN}`, model: `Platz${RUN}` });
    await changeStatus(admin, held[0]!.id, 'submitted', 'confirmed');
    const body = (await preview(admin, { status: 'waitlist', ids: held.map((a) => a.id) }))
      .data as BulkStatusPreview;
    expect(body.placesFreed).toBe(1);
  });
});

describe('apply', () => {
  it('changes each row in its own transaction: one log row and one mail each, a stale row refused alone', async () => {
    const rows = await insertSubmittedApplications(t, 8, { label: `golf-${RUN}`, model: `Golf${RUN}` });
    const seen = (
      await preview(admin, { status: 'waitlist', filter: { status: 'submitted', q: `golf${RUN}` } })
    ).data as BulkStatusPreview;
    expect(seen.changes).toHaveLength(8);
    // Someone else moves one on between the preview and the change.
    const stale = rows[3]!;
    await changeStatus(reviewer, stale.id, 'submitted', 'in_review');

    const res = await apply(admin, {
      status: 'waitlist',
      changes: seen.changes.map((row) => ({ id: row.id, oldStatus: row.oldStatus })),
      comment: '  Sammelentscheid Runde 1  ',
    });
    expect(res.status, res.text).toBe(200);
    const result = res.data as BulkStatusResult;
    expect(result).toMatchObject({ status: 'waitlist', changed: 7, unchanged: 0, refused: 1, mails: 7 });
    expect(result.rows.find((row) => row.id === stale.id)).toEqual({
      id: stale.id,
      title: `Opel Golf${RUN} 3`,
      outcome: 'refused',
      status: 'in_review',
      reason: 'Der Status wurde inzwischen geändert: jetzt „In Prüfung“ statt „Eingereicht“.',
      mail: false,
    });
    expect(result.rows.filter((row) => row.outcome === 'changed').every((row) => row.mail)).toBe(true);

    const changed = rows.filter((row) => row !== stale);
    const log = await logRows(
      rows.map((row) => row.id),
      'waitlist',
    );
    expect(log.map((row) => row.vehicle_id).sort()).toEqual(changed.map((row) => row.id).sort());
    expect(new Set(log.map((row) => row.reviewer_id))).toEqual(new Set([admin.id]));
    expect(new Set(log.map((row) => row.comment_internal))).toEqual(new Set(['Sammelentscheid Runde 1']));
    const mails = await outboxMails(
      rows.map((row) => row.email),
      'application-waitlist',
    );
    expect(mails.map((mail) => mail.to).sort()).toEqual(changed.map((row) => row.email).sort());
    // The internal note stays internal.
    expect(JSON.stringify(mails)).not.toContain('Sammelentscheid');
    const [statuses] = await sql<{ waitlist: number; in_review: number }>(
      `select count(*) filter (where status = 'waitlist')::int as waitlist,
              count(*) filter (where status = 'in_review')::int as in_review
         from vehicle where id = any(?::uuid[])`,
      [`{${rows.map((row) => row.id).join(',')}}`],
    );
    expect(statuses).toEqual({ waitlist: 7, in_review: 1 });

    // Sent again (a lost answer, a second click): nothing changes, nothing is mailed twice.
    const again = await apply(admin, {
      status: 'waitlist',
      changes: seen.changes.map((row) => ({ id: row.id, oldStatus: row.oldStatus })),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.data).toMatchObject({ changed: 0, unchanged: 7, refused: 1, mails: 0 });
    expect((again.data as BulkStatusResult).rows.find((row) => row.outcome === 'unchanged')?.reason).toBe(
      'Steht bereits auf „Warteliste“.',
    );
    expect(
      await logRows(
        rows.map((row) => row.id),
        'waitlist',
      ),
    ).toHaveLength(7);
    expect(
      await outboxMails(
        rows.map((row) => row.email),
        'application-waitlist',
      ),
    ).toHaveLength(7);

    // The log and the projections still agree.
    const replay = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(replay.mismatches).toEqual([]);
  });

  it('twice at once: every row changes once, one log row and one mail each', async () => {
    const rows = await insertSubmittedApplications(t, 40, { label: `polo-${RUN}`, model: `Polo${RUN}` });
    const body = {
      status: 'rejected',
      changes: rows.map((row) => ({ id: row.id, oldStatus: 'submitted' })),
    };
    const [first, second] = await Promise.all([apply(admin, body), apply(reviewer, body)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const results = [first.data, second.data] as BulkStatusResult[];
    expect(results[0]!.changed + results[1]!.changed).toBe(40);
    expect(results[0]!.unchanged + results[1]!.unchanged).toBe(40);
    expect(results[0]!.mails + results[1]!.mails).toBe(40);
    expect(
      await logRows(
        rows.map((row) => row.id),
        'rejected',
      ),
    ).toHaveLength(40);
    const mails = await outboxMails(
      rows.map((row) => row.email),
      'application-rejected',
    );
    expect(mails).toHaveLength(40);
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(40);
  });

  it('mails nobody who withdrew the contact consent, and invites through the invitation job', async () => {
    const rows = await insertSubmittedApplications(t, 3, { label: `astra-${RUN}`, model: `Astra${RUN}` });
    await withdrawContactConsent(t, rows[0]!);
    const res = await apply(reviewer, {
      status: 'invited',
      changes: rows.map((row) => ({ id: row.id, oldStatus: 'submitted' })),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data).toMatchObject({ changed: 3, mails: 2 });
    expect((res.data as BulkStatusResult).rows.map((row) => row.mail)).toEqual([false, true, true]);
    const jobs = await sql<{ vehicle_id: string }>(
      `select payload->>'vehicleId' as vehicle_id from outbox
        where job = 'invitation.issue' and payload->>'vehicleId' = any(?::text[])`,
      [`{${rows.map((row) => row.id).join(',')}}`],
    );
    // The job issues every invitation (start number, zone); it mails only those who may be contacted.
    expect(jobs).toHaveLength(3);
  });

  it('balances the reviewers once the rows entered or left review', async () => {
    const rows = await insertSubmittedApplications(t, 3, { label: `pruef-${RUN}`, model: `Pruef${RUN}` });
    const ids = rows.map((row) => row.id);
    const open = async () =>
      (
        await sql<{ vehicle_id: string }>(
          `select vehicle_id from review_assignment where submitted_at is null and vehicle_id = any(?::uuid[])`,
          [`{${ids.join(',')}}`],
        )
      ).map((row) => row.vehicle_id);
    const left = await apply(admin, {
      status: 'waitlist',
      changes: ids.map((id) => ({ id, oldStatus: 'submitted' })),
    });
    expect(left.data).toMatchObject({ changed: 3 });
    expect(await open()).toEqual([]);
    const back = await apply(admin, {
      status: 'submitted',
      changes: ids.map((id) => ({ id, oldStatus: 'waitlist' })),
    });
    expect(back.data).toMatchObject({ changed: 3, mails: 3 });
    expect(new Set(await open())).toEqual(new Set(ids));
    const out = await apply(reviewer, {
      status: 'rejected',
      changes: ids.map((id) => ({ id, oldStatus: 'submitted' })),
    });
    expect(out.data).toMatchObject({ changed: 3 });
    expect(await open()).toEqual([]);
  });

  it('refuses rows of another edition than the request’s, and changes them in theirs', async () => {
    const next = await createEdition(t.orm.em.fork(), { year: 2070 });
    const [other] = await insertSubmittedApplications(t, 1, {
      label: `zukunft-${RUN}`,
      model: `Zukunft${RUN}`,
      editionId: next.id,
    });
    const body = { status: 'in_review', changes: [{ id: other!.id, oldStatus: 'submitted' }] };
    const here = await apply(admin, body);
    expect(here.data).toMatchObject({
      changed: 0,
      refused: 1,
      rows: [{ id: other!.id, outcome: 'refused', status: null, reason: BULK_STATUS_MESSAGES.notInEdition }],
    });
    const previewed = (
      await preview(
        admin,
        { status: 'in_review', filter: { status: 'all', q: `zukunft${RUN}` } },
        '?edition=2070',
      )
    ).data as BulkStatusPreview;
    expect(previewed.changes.map((row) => row.id)).toEqual([other!.id]);
    const there = await apply(admin, body, '?edition=2070');
    expect(there.data).toMatchObject({ changed: 1, refused: 0 });
  });
});

describe('limits and refusals', () => {
  it('takes at most 500 applications per request, with a German message', async () => {
    const ids = Array.from({ length: BULK_STATUS_MAX + 1 }, () => randomUUID());
    const tooMany = await apply(admin, {
      status: 'waitlist',
      changes: ids.map((id) => ({ id, oldStatus: 'submitted' })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.message).toBe(
      'Höchstens 500 Bewerbungen lassen sich auf einmal ändern. Bitte grenzen Sie die Auswahl ein.',
    );
    expect((await preview(admin, { status: 'waitlist', ids })).data.message).toBe(
      BULK_STATUS_MESSAGES.tooMany,
    );

    await insertSubmittedApplications(t, BULK_STATUS_MAX + 1, {
      label: `trabi-${RUN}`,
      model: `Trabant${RUN}`,
    });
    const filtered = await preview(admin, {
      status: 'waitlist',
      filter: { status: 'submitted', q: `trabant${RUN}` },
    });
    expect(filtered.status).toBe(400);
    expect(filtered.data.message).toBe(
      'Der Filter trifft 501 Bewerbungen; höchstens 500 lassen sich auf einmal ändern. Bitte grenzen Sie die Auswahl mit Status oder Suche ein.',
    );
  });

  it('refuses bodies that are not one selection, in German', async () => {
    const id = randomUUID();
    const cases: [unknown, string][] = [
      [{ status: 'waitlist' }, BULK_STATUS_MESSAGES.selection],
      [{ status: 'waitlist', ids: [id], filter: { status: 'all' } }, BULK_STATUS_MESSAGES.selection],
      [{ status: 'waitlist', ids: [] }, BULK_STATUS_MESSAGES.empty],
      [{ status: 'waitlist', ids: [id, id.toUpperCase()] }, BULK_STATUS_MESSAGES.duplicate],
      [{ status: 'waitlist', ids: ['x'] }, BULK_STATUS_MESSAGES.id],
      [{ status: 'bald', ids: [id] }, BULK_STATUS_MESSAGES.status],
    ];
    for (const [body, message] of cases) {
      const res = await preview(admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.data.message, JSON.stringify(body)).toBe(message);
    }
    const noOld = await apply(admin, { status: 'waitlist', changes: [{ id }] });
    expect(noOld.status).toBe(400);
    expect(noOld.data.message).toBe(BULK_STATUS_MESSAGES.oldStatus);
  });

  it('is for reviewers and admins: an applicant gets 403, a stranger 401', async () => {
    const [own] = await insertSubmittedApplications(t, 1, { label: `eigen-${RUN}`, model: `Eigen${RUN}` });
    const body = { status: 'confirmed', changes: [{ id: own!.id, oldStatus: 'submitted' }] };
    expect((await apply(applicant, body)).status).toBe(403);
    expect((await preview(applicant, { status: 'confirmed', ids: [own!.id] })).status).toBe(403);
    expect((await t.client().post('/api/admin/vehicles/bulk-status', body)).status).toBe(401);
    expect(await logRows([own!.id], 'confirmed')).toHaveLength(0);
    const byReviewer = await apply(reviewer, body);
    expect(byReviewer.data).toMatchObject({ changed: 1 });
  });
});
