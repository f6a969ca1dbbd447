/**
 * Every audited route walked, as the routers declare them (the API's and the queue dashboard's): each
 * is sent as a real request by a staff member, from an address a trusted proxy names, in three
 * spellings. Upper case and a trailing slash answer 404 and leave nothing; the route as defined
 * leaves exactly one row with its action, actor, role, address and route. A route marked audited
 * that the walk does not know how to send fails. Then the admin page's read: filters, pages, names.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStatement } from '../core/db/db.queries.js';
import { createEdition } from '../core/editions/editions.js';
import { AuditLog } from '../core/model/audit-log.entity.js';
import { User } from '../core/model/user.entity.js';
import { JuryClass, JuryInvite } from '../core/model/jury.entity.js';
import { insertJudge } from '../core/jury/jury.queries.js';
import { insertNumberedCar } from '../testing/signs.js';
import { exportRefunds } from '../core/payments/payments-admin.js';
import { VisitorRegistration } from '../core/model/visitor-registration.entity.js';
import {
  APPLYING_NOON,
  auditedRoutesOf,
  createTestContext,
  createWorld,
  insertBankLine,
  insertCar,
  insertConfirmedUser,
  openTestPayment,
  setTestFee,
  TEST_FEE,
  insertReadySet,
  insertSentMail,
  insertSubmittedApplications,
  PASSWORD,
  testClock,
  uniqueEmail,
  type Account,
  type TestContext,
  type World,
} from '../testing/index.js';
import { QUEUE_DASHBOARD_PATH } from '../routes/queues/queue-dashboard.js';

let t: TestContext;
let world: World;
const clock = testClock(APPLYING_NOON);
const em = () => t.orm.em.fork();

beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    // Behind one proxy: the address is the proxy's last X-Forwarded-For entry.
    env: { RATE_LIMIT_FACTOR: '1000', TRUST_PROXY: '1' },
    now: clock.now,
  });
  world = await createWorld(t);
});
afterAll(() => t?.close());

interface Send {
  as: 'admin' | 'reviewer';
  method: string;
  path: string;
  json?: unknown;
  /** A file sent as bytes instead of JSON (a bank statement). */
  body?: string;
  /** The row's expected target, when known before the answer. */
  target?: string;
  details?: Record<string, unknown>;
  /** The app's clock for the request; inside the application window when absent. */
  at?: Date;
}

/** The day after the meeting: its record is frozen, and only an admin's correction changes it. */
const DAY_AFTER = new Date('2026-06-21T12:00:00+02:00');
/** A week after it: the jury's results too are part of the record. */
const WEEK_AFTER = new Date('2026-06-27T12:00:00+02:00');

/** A new open jury class of the edition, with one criterion and no judges. */
async function juryClassOf(editionId: string): Promise<string> {
  const fork = em();
  const juryClass = fork.create(JuryClass, {
    edition: editionId,
    name: `Klasse ${randomUUID().slice(0, 8)}`,
    position: 9,
    scope: { zones: [], categories: [], yearFrom: null, yearTo: null },
    criteria: [{ id: 'k-lack', name: 'Lack', weight: 1, max: 10 }],
    places: 2,
  });
  await fork.flush();
  return juryClass.id;
}

let editionYear = 2070;
async function freshEdition(): Promise<number> {
  editionYear += 1;
  await createEdition(em(), { year: editionYear });
  return editionYear;
}

async function confirmedVisitor(): Promise<void> {
  const email = uniqueEmail('besuch');
  const res = await t.client().post('/api/visitor-registrations', {
    firstName: 'Vera',
    lastName: 'Besuch',
    email,
  });
  expect(res.status, res.text).toBe(201);
  await em().nativeUpdate(VisitorRegistration, { email }, { confirmedAt: new Date() });
}

const DRAFT = { subject: 'Neuigkeiten', body: 'Die Tore öffnen um 10 Uhr.' };
async function draftUpdate(): Promise<string> {
  const res = await world.admin.client.post('/api/admin/visitor-updates', DRAFT);
  expect(res.status, res.text).toBe(201);
  return res.data.id as string;
}

/** A failed job in the email queue (taken and failed by hand, as a worker would). */
async function failedJob(): Promise<string> {
  // The queue holds only this job (a job retried before waits again), so it is the one taken next.
  await t.queues.email.drain();
  // One attempt: failing it needs no backoff strategy (the worker's own).
  const job = await t.queues.email.add(
    'email.send',
    { template: 'invitation', to: 'x@example.de', props: {} },
    { attempts: 1 },
  );
  const worker = new Worker('email', null, {
    connection: t.redis.duplicate(),
    prefix: t.prefix,
    autorun: false,
  });
  try {
    const token = randomUUID();
    const taken = await worker.getNextJob(token);
    expect(taken?.id).toBe(job.id);
    await taken!.moveToFailed(new Error('SMTP nicht erreichbar'), token, false);
  } finally {
    await worker.close();
  }
  return job.id!;
}

const year = () => String(t.event.edition.year);
const QUEUES_API = `${QUEUE_DASHBOARD_PATH}/api/queues`;

/** A queue-dashboard read of one failed job's data. */
async function jobRead(suffix = ''): Promise<Send> {
  const job = await failedJob();
  return {
    as: 'admin',
    method: 'GET',
    path: `${QUEUES_API}/email/${job}${suffix}`,
    target: 'email',
    details: { job },
  };
}

/** How the walk sends each entry; built before the row count is taken, so its setup does not count. */
const SENDS: Record<string, () => Promise<Send>> = {
  'GET /admin/queues/api/queues': async () => {
    await failedJob();
    return {
      as: 'admin',
      method: 'GET',
      path: `${QUEUES_API}?activeQueue=email&status=failed&page=1`,
      target: 'email',
      details: { state: 'failed', page: '1' },
    };
  },
  'GET /admin/queues/api/queues/:queueName/:jobId': () => jobRead(),
  'GET /admin/queues/api/queues/:queueName/:jobId/logs': () => jobRead('/logs'),
  'GET /admin/queues/api/queues/:queueName/:jobId/flow': async () => {
    const send = await jobRead('/flow');
    return { ...send, details: { ...send.details, flow: true } };
  },
  'GET /api/admin/vehicles.csv': async () => ({
    as: 'reviewer',
    method: 'GET',
    path: '/api/admin/vehicles.csv?status=submitted&q=Golf',
    target: year(),
    details: { status: 'submitted', search: true },
  }),
  'GET /api/admin/vehicles/:id/earlier': async () => ({
    as: 'reviewer',
    method: 'GET',
    path: `/api/admin/vehicles/${world.submitted}/earlier`,
    target: world.submitted,
  }),
  'POST /api/admin/vehicles/bulk-status/preview': async () => ({
    as: 'reviewer',
    method: 'POST',
    path: '/api/admin/vehicles/bulk-status/preview',
    json: { status: 'waitlist', filter: { status: 'submitted', q: '' } },
    target: year(),
  }),
  'GET /api/admin/media.zip': async () => ({
    as: 'reviewer',
    method: 'GET',
    path: '/api/admin/media.zip',
    target: year(),
  }),
  'GET /api/admin/visitors': async () => {
    await confirmedVisitor();
    return { as: 'admin', method: 'GET', path: '/api/admin/visitors', target: year() };
  },
  'GET /api/admin/visitors.csv': async () => ({
    as: 'admin',
    method: 'GET',
    path: `/api/admin/visitors.csv?edition=${year()}`,
    target: year(),
  }),
  'GET /api/admin/audit': async () => ({
    as: 'admin',
    method: 'GET',
    path: '/api/admin/audit?action=visitors.list&from=2026-03-01&limit=5',
    details: { action: 'visitors.list', since: '2026-03-01' },
  }),
  'POST /api/admin/vehicles/:id/emails/:mailId/resend': async () => {
    const mail = await insertSentMail(t, world.submitted);
    return {
      as: 'reviewer',
      method: 'POST',
      path: `/api/admin/vehicles/${world.submitted}/emails/${mail}/resend`,
      json: {},
      target: world.submitted,
      details: { mail },
    };
  },
  'PUT /api/admin/waitlist/settings': async () => ({
    as: 'admin',
    method: 'PUT',
    path: '/api/admin/waitlist/settings',
    json: { autoMoveUp: true },
    details: { autoMoveUp: true },
  }),
  'POST /api/admin/visitor-updates': async () => ({
    as: 'admin',
    method: 'POST',
    path: '/api/admin/visitor-updates',
    json: DRAFT,
  }),
  'PATCH /api/admin/visitor-updates/:id': async () => {
    const id = await draftUpdate();
    return {
      as: 'admin',
      method: 'PATCH',
      path: `/api/admin/visitor-updates/${id}`,
      json: { ...DRAFT, subject: 'Neu' },
      target: id,
    };
  },
  'POST /api/admin/visitor-updates/:id/send': async () => {
    await confirmedVisitor();
    const id = await draftUpdate();
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/visitor-updates/${id}/send`,
      json: {},
      target: id,
    };
  },
  'POST /api/admin/editions': async () => {
    editionYear += 1;
    return {
      as: 'admin',
      method: 'POST',
      path: '/api/admin/editions',
      json: { year: editionYear },
      target: String(editionYear),
      details: { fields: ['year'] },
    };
  },
  'PATCH /api/admin/editions/:year': async () => {
    const edition = await freshEdition();
    return {
      as: 'admin',
      method: 'PATCH',
      path: `/api/admin/editions/${edition}`,
      json: { parkingZones: [{ name: 'Nord', capacity: 40 }] },
      target: String(edition),
      details: { fields: ['parkingZones'] },
    };
  },
  'POST /api/admin/editions/:year/open': async () => {
    const edition = await freshEdition();
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/editions/${edition}/open`,
      json: {},
      target: String(edition),
      details: { at: null },
    };
  },
  'POST /api/admin/editions/:year/current': async () => {
    const edition = await freshEdition();
    // Far ahead: the current edition of the other entries stays the same.
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/editions/${edition}/current`,
      json: { at: '2099-12-31T00:00:00Z' },
      target: String(edition),
      details: { at: '2099-12-31T00:00:00Z' },
    };
  },
  'POST /api/admin/quartett-sets': async () => ({
    as: 'admin',
    method: 'POST',
    path: '/api/admin/quartett-sets',
    json: { title: 'Druck' },
    target: year(),
  }),
  'POST /api/admin/signs': async () => {
    // Signs are for confirmed cars holding a start number.
    await insertCar(t, { ownerId: world.admin.id });
    return { as: 'admin', method: 'POST', path: '/api/admin/signs', json: { format: 'a4' }, target: year() };
  },
  'POST /api/admin/award/:year/open': async () => ({
    as: 'admin',
    method: 'POST',
    path: `/api/admin/award/${year()}/open`,
    json: {},
    target: year(),
  }),
  'POST /api/admin/award/:year/close': async () => ({
    as: 'admin',
    method: 'POST',
    path: `/api/admin/award/${year()}/close`,
    json: {},
    target: year(),
  }),
  'PATCH /api/admin/award/:year': async () => ({
    as: 'admin',
    method: 'PATCH',
    path: `/api/admin/award/${year()}`,
    json: { opensAt: null, closesAt: null },
    target: year(),
  }),
  // The jury: the world's class (judged by the world's judge and reviewer) and classes made here.
  'GET /api/admin/jury/:year': async () => ({
    as: 'admin',
    method: 'GET',
    path: `/api/admin/jury/${year()}`,
    target: year(),
  }),
  'POST /api/admin/jury/:year/classes': async () => ({
    as: 'admin',
    method: 'POST',
    path: `/api/admin/jury/${year()}/classes`,
    json: { name: `Klasse ${randomUUID().slice(0, 8)}`, criteria: [{ name: 'Lack', weight: 2 }], places: 3 },
    target: year(),
  }),
  'PATCH /api/admin/jury/:year/classes/:id': async () => ({
    as: 'admin',
    method: 'PATCH',
    path: `/api/admin/jury/${year()}/classes/${world.juryClass}`,
    json: {
      name: 'Bester Umbau',
      criteria: [{ id: 'k-gesamt', name: 'Gesamteindruck', weight: 1 }],
      places: 1,
      judgeIds: [world.judge.id, world.reviewer.id],
      headJudgeId: world.judge.id,
    },
    target: year(),
    details: { classId: world.juryClass },
  }),
  'DELETE /api/admin/jury/:year/classes/:id': async () => {
    const id = await juryClassOf(t.event.edition.id);
    return {
      as: 'admin',
      method: 'DELETE',
      path: `/api/admin/jury/${year()}/classes/${id}`,
      target: year(),
      details: { classId: id },
    };
  },
  'POST /api/admin/jury/:year/judges': async () => ({
    as: 'admin',
    method: 'POST',
    path: `/api/admin/jury/${year()}/judges`,
    json: { email: (await insertConfirmedUser(t)).email },
    target: year(),
  }),
  'PATCH /api/admin/jury/:year/judges/:userId': async () => {
    const judge = await insertConfirmedUser(t);
    await insertJudge(em(), t.event.edition.id, judge.id, []);
    return {
      as: 'admin',
      method: 'PATCH',
      path: `/api/admin/jury/${year()}/judges/${judge.id}`,
      json: { classIds: [world.juryClass] },
      target: year(),
      details: { userId: judge.id, classes: 1 },
    };
  },
  'DELETE /api/admin/jury/:year/judges/:userId': async () => {
    const judge = await insertConfirmedUser(t);
    await insertJudge(em(), t.event.edition.id, judge.id, [world.juryClass]);
    return {
      as: 'admin',
      method: 'DELETE',
      path: `/api/admin/jury/${year()}/judges/${judge.id}`,
      target: year(),
      details: { userId: judge.id },
    };
  },
  'DELETE /api/admin/jury/:year/invites/:id': async () => {
    const fork = em();
    const invite = fork.create(JuryInvite, {
      edition: t.event.edition.id,
      email: uniqueEmail('eingeladen'),
      tokenHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
      classIds: [],
    });
    await fork.flush();
    return {
      as: 'admin',
      method: 'DELETE',
      path: `/api/admin/jury/${year()}/invites/${invite.id}`,
      target: year(),
      details: { inviteId: invite.id },
    };
  },
  // Payments: the current edition with a fee, cars of their own with their payments.
  'GET /api/admin/payments/:year': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    return { as: 'admin', method: 'GET', path: `/api/admin/payments/${year()}`, target: year() };
  },
  'GET /api/admin/payments/:year/kassenbericht.csv': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    return {
      as: 'admin',
      method: 'GET',
      path: `/api/admin/payments/${year()}/kassenbericht.csv`,
      target: year(),
    };
  },
  'POST /api/admin/payments/:year/import': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const id = randomUUID().replace(/-/g, '').slice(0, 20);
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/payments/${year()}/import`,
      body: `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>2026-05-04T22:00:00+02:00</CreDtTm></GrpHdr>
<Stmt><Id>${id}</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">25.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2026-05-04</Dt></BookgDt><AcctSvcrRef>${id}</AcctSvcrRef>
<NtryDtls><TxDtls><RmtInf><Ustrd>Startgeld ohne Verwendungszweck</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`,
      target: year(),
      details: { counts: expect.objectContaining({ unassigned: 1 }) },
    };
  },
  'POST /api/admin/payments/:year/entries/:id/assign': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    const entry = await insertBankLine(t, t.event.edition.id, { amountCents: 2500 });
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/payments/${year()}/entries/${entry}/assign`,
      json: { paymentId: payment.id },
      target: year(),
      details: { entry, payment: payment.id, amountCents: 2500 },
    };
  },
  'POST /api/admin/payments/:year/payments/:id/waive': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/payments/${year()}/payments/${payment.id}/waive`,
      json: { reason: 'Fahrzeug des Hauptsponsors' },
      target: year(),
      details: { payment: payment.id, reason: 'Fahrzeug des Hauptsponsors' },
    };
  },
  'POST /api/admin/payments/:year/refunds/export': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    await insertBankLine(t, t.event.edition.id, { amountCents: 3000, paymentId: payment.id });
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/payments/${year()}/refunds/export`,
      json: {},
      target: year(),
    };
  },
  'GET /api/admin/payments/:year/refunds/:id/file': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    await insertBankLine(t, t.event.edition.id, { amountCents: 2700, paymentId: payment.id });
    const made = await exportRefunds(t.orm.em.fork(), Number(year()), world.admin.id, new Date());
    return {
      as: 'admin',
      method: 'GET',
      path: `/api/admin/payments/${year()}/refunds/${made.id}/file`,
      target: year(),
      details: { export: made.id },
    };
  },
  'POST /api/admin/payments/:year/refunds/:id/confirm': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    await insertBankLine(t, t.event.edition.id, { amountCents: 2600, paymentId: payment.id });
    const made = await exportRefunds(t.orm.em.fork(), Number(year()), world.admin.id, new Date());
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/payments/${year()}/refunds/${made.id}/confirm`,
      json: {},
      target: year(),
      details: { export: made.id },
    };
  },
  'POST /api/admin/check-in/cash': async () => {
    await setTestFee(t, t.event.edition.id, TEST_FEE);
    const owner = await insertConfirmedUser(t);
    const { vehicleId, startNumber } = await insertNumberedCar(t, { ownerId: owner.id });
    const payment = await openTestPayment(t, vehicleId);
    return {
      as: 'admin',
      method: 'POST',
      path: '/api/admin/check-in/cash',
      json: { code: String(startNumber), gate: 'Nord' },
      target: year(),
      details: { payment: payment.id, amountCents: 2500, gate: 'Nord' },
    };
  },
  'POST /api/jury/classes/:id/close': async () => {
    // A class of its own with one car nobody scored: an admin closes it anyway, with a reason.
    const owner = await insertConfirmedUser(t);
    await insertNumberedCar(t, { ownerId: owner.id });
    const id = await juryClassOf(t.event.edition.id);
    await insertJudge(em(), t.event.edition.id, world.reviewer.id, [id]);
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/jury/classes/${id}/close`,
      json: { forceReason: 'Die Jury ist nicht rechtzeitig fertig geworden.' },
      target: year(),
      details: { classId: id, forced: true, reason: 'Die Jury ist nicht rechtzeitig fertig geworden.' },
    };
  },
  'POST /api/admin/jury/:year/publish': async () => {
    // An edition of its own whose classes (copied from the newest) are all closed.
    const fresh = await freshEdition();
    await runStatement(
      em(),
      `update jury_class set closed_at = now(), record = '{"rows": [], "tieBreaks": []}'
        where edition_id = (select id from edition where year = ?)`,
      [fresh],
    );
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/jury/${fresh}/publish`,
      target: String(fresh),
    };
  },
  'POST /api/admin/jury/:year/correction': async () => {
    // A closed class of the past meeting: the places of start numbers 1 and 2 swapped.
    const id = await juryClassOf(t.event.edition.id);
    const row = (startNumber: number, place: number) => ({
      vehicleId: randomUUID(),
      startNumber,
      name: `Auto ${startNumber}`,
      judges: 1,
      mean: 10 - place,
      heaviestMean: 10 - place,
      rank: place,
      place,
      tieBreak: null,
    });
    await runStatement(em(), `update jury_class set closed_at = now(), record = ? where id = ?`, [
      JSON.stringify({ rows: [row(1, 1), row(2, 2)], tieBreaks: [] }),
      id,
    ]);
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/jury/${year()}/correction`,
      json: { classId: id, places: [2, 1], reason: 'Rechenfehler beim Zusammenzählen.' },
      target: year(),
      details: { classId: id, from: [1, 2], to: [2, 1], reason: 'Rechenfehler beim Zusammenzählen.' },
      at: WEEK_AFTER,
    };
  },
  'POST /api/admin/award/:year/correction': async () => {
    // Final totals written: one car with five votes.
    const results = [{ vehicleId: randomUUID(), startNumber: 1, name: 'Audi', votes: 5, rank: 1 }];
    await runStatement(
      em(),
      `insert into award (edition_id, opened_at, closed_at, results, created_at) values (?, now(), now(), ?, now())
       on conflict (edition_id) do update set closed_at = excluded.closed_at, results = excluded.results`,
      [t.event.edition.id, JSON.stringify(results)],
    );
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/award/${year()}/correction`,
      json: { startNumber: 1, votes: 4, reason: 'Eine Stimme doppelt gezählt.' },
      target: year(),
      details: { startNumber: 1, votes: { from: 5, to: 4 } },
      at: DAY_AFTER,
    };
  },
  'POST /api/admin/quartett-sets/:id/release': async () => {
    const set = await insertReadySet(t, world.admin.id);
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/quartett-sets/${set.id}/release`,
      json: {},
      target: set.id,
    };
  },
  'PUT /api/admin/reviews/settings': async () => {
    const settings = (await world.admin.client.get('/api/admin/reviews/settings')).data as {
      reviewersPerApplication: number;
      categories: unknown[];
    };
    return {
      as: 'admin',
      method: 'PUT',
      path: '/api/admin/reviews/settings',
      json: { reviewersPerApplication: settings.reviewersPerApplication, categories: settings.categories },
      target: year(),
      details: {
        reviewersPerApplication: settings.reviewersPerApplication,
        categories: settings.categories.length,
      },
    };
  },
  'PUT /api/admin/texts': async () => ({
    as: 'admin',
    method: 'PUT',
    path: '/api/admin/texts',
    json: { faq: [{ question: 'Gibt es einen Dresscode?', answer: 'Nein.' }], introduction: null },
    target: year(),
    details: { set: ['faq'], reset: ['introduction'] },
  }),
  'PUT /api/admin/mail-templates/:mail': async () => {
    const { version } = (await world.admin.client.get('/api/admin/mail-templates/application-waitlist'))
      .data as {
      version: number;
    };
    return {
      as: 'admin',
      method: 'PUT',
      path: '/api/admin/mail-templates/application-waitlist',
      json: { subject: 'Warteliste', body: 'Hallo {vorname}, du wartest.', baseVersion: version },
      target: year(),
      details: { mail: 'application-waitlist', version: version + 1, from: version },
    };
  },
  'POST /api/admin/mail-templates/:mail/restore': async () => {
    const { version } = (await world.admin.client.get('/api/admin/mail-templates/application-waitlist'))
      .data as {
      version: number;
    };
    return {
      as: 'admin',
      method: 'POST',
      path: '/api/admin/mail-templates/application-waitlist/restore',
      json: { baseVersion: version },
      target: year(),
      details: { mail: 'application-waitlist', version: version + 1 },
    };
  },
  'POST /api/admin/vehicles/:id/assignments': async () => {
    // An open review of the reviewer's, moved to the admin.
    const [application] = await insertSubmittedApplications(t, 1, { label: `umverteilt-${randomUUID()}` });
    await em()
      .getConnection()
      .execute(
        `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_by, assigned_at)
         select gen_random_uuid(), edition_id, id, ?, ?, now() from vehicle where id = ?
         on conflict do nothing`,
        [world.reviewer.id, world.admin.id, application!.id],
        'run',
      );
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/vehicles/${application!.id}/assignments`,
      json: { from: world.reviewer.id, to: world.admin.id },
      target: application!.id,
      details: { from: world.reviewer.id, to: world.admin.id },
    };
  },
  'POST /api/admin/vehicles/:id/correction': async () => {
    const [application] = await insertSubmittedApplications(t, 1, { label: `korrigiert-${randomUUID()}` });
    return {
      as: 'admin',
      method: 'POST',
      path: `/api/admin/vehicles/${application!.id}/correction`,
      json: { status: 'rejected', reason: 'Beim Treffen falsch erfasst.' },
      target: application!.id,
      details: { status: { from: 'submitted', to: 'rejected' } },
      at: DAY_AFTER,
    };
  },
  'POST /api/admin/reviews/conflicts': async () => ({
    as: 'reviewer',
    method: 'POST',
    path: '/api/admin/reviews/conflicts',
    json: { email: (await insertConfirmedUser(t)).email },
  }),
  'DELETE /api/admin/reviews/conflicts/:id': async () => {
    const declared = await world.reviewer.client.post('/api/admin/reviews/conflicts', {
      email: (await insertConfirmedUser(t)).email,
    });
    expect(declared.status, declared.text).toBe(201);
    const id = (declared.data as { people: Array<{ id: string }> }).people[0]!.id;
    return { as: 'reviewer', method: 'DELETE', path: `/api/admin/reviews/conflicts/${id}`, target: id };
  },
  'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus': async () => ({
    as: 'admin',
    method: 'PUT',
    path: `${QUEUE_DASHBOARD_PATH}/api/queues/email/retry/failed`,
    target: 'email',
    details: { state: 'failed' },
  }),
  'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus': async () => ({
    as: 'admin',
    method: 'PUT',
    path: `${QUEUE_DASHBOARD_PATH}/api/queues/email/clean/completed`,
    target: 'email',
    details: { state: 'completed' },
  }),
  'PUT /admin/queues/api/queues/:queueName/:jobId/retry': async () => {
    const job = await failedJob();
    return {
      as: 'admin',
      method: 'PUT',
      path: `${QUEUE_DASHBOARD_PATH}/api/queues/email/${job}/retry`,
      target: 'email',
      details: { job },
    };
  },
  'PUT /admin/queues/api/queues/:queueName/:jobId/clean': async () => {
    const job = await failedJob();
    return {
      as: 'admin',
      method: 'PUT',
      path: `${QUEUE_DASHBOARD_PATH}/api/queues/email/${job}/clean`,
      target: 'email',
      details: { job },
    };
  },
};

const lastSeq = async (): Promise<string> => {
  const [row] = await em()
    .getConnection()
    .execute<{ seq: string | null }[]>('select max(seq)::text as seq from audit_log');
  return row?.seq ?? '0';
};
const rowsAfter = (seq: string) =>
  em().getConnection().execute<
    {
      actor_id: string;
      actor_role: string;
      action: string;
      target: string | null;
      details: Record<string, unknown>;
      ip: string | null;
      route: string | null;
    }[]
  >('select actor_id, actor_role, action, target, details, ip, route from audit_log where seq > ?::bigint order by seq', [seq]);

let address = 0;
const nextAddress = () => `203.0.113.${(address += 1)}`;

/** The path in upper case and with a trailing slash (the query string as it is). */
function otherSpellings(path: string): string[] {
  const [pathname, query] = path.split('?') as [string, string | undefined];
  const withQuery = (changed: string) => (query === undefined ? changed : `${changed}?${query}`);
  return [withQuery(pathname.toUpperCase()), withQuery(`${pathname}/`)];
}

describe('the audited routes', () => {
  const audited = () => auditedRoutesOf(t.app as never);

  it('are read from the routers: each with a label and a way to send it', () => {
    const routes = audited().map((entry) => entry.route);
    // The API's and the queue dashboard's.
    expect(routes).toContain('GET /api/admin/vehicles.csv');
    expect(routes).toContain(`PUT ${QUEUES_API}/:queueName/:jobId/retry`);
    expect(
      routes.filter((route) => !SENDS[route]),
      'audited routes the walk cannot send',
    ).toEqual([]);
    expect(
      Object.keys(SENDS).filter((route) => !routes.includes(route)),
      'sends for no audited route',
    ).toEqual([]);
    for (const entry of audited()) expect(AUDIT_ACTIONS[entry.action]).toBeTruthy();
  });

  it('every route of every router matches one spelling only (case-sensitive, no trailing slash)', () => {
    type Layer = { path: string; methods: string[]; opts: { sensitive?: boolean; strict?: boolean } };
    const layers = (t.app.middleware as Array<{ router?: { stack: Layer[] }; mounted?: { stack: Layer[] } }>)
      .flatMap((middleware) => [...(middleware.router?.stack ?? []), ...(middleware.mounted?.stack ?? [])])
      .filter((layer) => layer.methods.length > 0);
    expect(layers.length).toBeGreaterThan(100);
    expect(
      layers
        .filter((layer) => layer.opts.sensitive !== true || layer.opts.strict !== true)
        .map((l) => l.path),
    ).toEqual([]);
  });

  it('walks every audited route: as defined one row; in upper case or with a trailing slash 404 and none', async () => {
    const routes = audited();
    expect(routes.length).toBeGreaterThan(30);
    for (const entry of routes) {
      const label = entry.route;
      const sendOf = SENDS[entry.route];
      expect.soft(sendOf, `${label}: the walk cannot send it`).toBeDefined();
      if (!sendOf) continue;
      const send = await clock.during(APPLYING_NOON, sendOf);
      const actor: Account = world[send.as];
      const sendAs = async (path: string, ip: string) =>
        clock.during(send.at ?? APPLYING_NOON, () =>
          actor.client.request(send.method, path, {
            ...(send.body === undefined ? { json: send.json } : { body: send.body }),
            headers: {
              'x-forwarded-for': `198.51.100.99, ${ip}`,
              ...(send.body === undefined ? {} : { 'content-type': 'application/octet-stream' }),
            },
          }),
        );

      for (const path of otherSpellings(send.path)) {
        const before = await lastSeq();
        const res = await sendAs(path, nextAddress());
        expect.soft(res.status, `${label} as ${path}: ${res.text.slice(0, 300)}`).toBe(404);
        expect.soft(await rowsAfter(before), `${label} as ${path}`).toEqual([]);
      }

      const ip = nextAddress();
      const before = await lastSeq();
      const res = await sendAs(send.path, ip);
      expect
        .soft(res.status >= 200 && res.status < 300, `${label}: ${res.status} ${res.text.slice(0, 300)}`)
        .toBe(true);
      const rows = await rowsAfter(before);
      expect.soft(rows, label).toHaveLength(1);
      expect.soft(rows[0], label).toMatchObject({
        actor_id: actor.id,
        actor_role: send.as,
        action: entry.action,
        ip,
        route: entry.route,
        ...(send.target === undefined ? {} : { target: send.target }),
      });
      if (send.details) expect.soft(rows[0]?.details, label).toMatchObject(send.details);
      // Created ones name what was created.
      if (entry.route === 'POST /api/admin/visitor-updates') expect.soft(rows[0]?.target).toBe(res.data.id);
    }
  }, 180_000);

  it('answers 404 without a row for the spellings the router used to take', async () => {
    const before = await lastSeq();
    for (const [actor, method, path, json] of [
      [world.reviewer, 'GET', '/api/admin/Vehicles.csv', undefined],
      [world.reviewer, 'GET', '/api/admin/Media.zip', undefined],
      [world.admin, 'PUT', '/api/admin/Waitlist/Settings', { autoMoveUp: false }],
      [world.admin, 'GET', '/API/admin/visitors', undefined],
      [world.admin, 'GET', `${QUEUES_API}/Email/1`, undefined],
      [world.admin, 'GET', `${QUEUE_DASHBOARD_PATH.toUpperCase()}/api/queues?activeQueue=email`, undefined],
    ] as const) {
      const res = await actor.client.request(method, path, { json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/json/);
    }
    expect(await rowsAfter(before)).toEqual([]);
  });

  it('leaves no row for a refused request, a failed one or a route the list does not name', async () => {
    const before = await lastSeq();
    expect((await world.reviewer.client.get('/api/admin/visitors.csv')).status).toBe(403);
    expect((await t.client().get('/api/admin/media.zip')).status).toBe(401);
    expect((await world.admin.client.get(`/api/admin/vehicles/${randomUUID()}/earlier`)).status).toBe(404);
    expect((await world.admin.client.put('/api/admin/waitlist/settings', { autoMoveUp: 'ja' })).status).toBe(
      400,
    );
    expect((await world.admin.client.get('/api/admin/vehicles')).status).toBe(200);
    expect((await world.admin.client.put(`${QUEUE_DASHBOARD_PATH}/api/queues/email/pause`)).status).toBe(403);
    expect(await rowsAfter(before)).toEqual([]);
  });

  it('records the socket address when no proxy is trusted', async () => {
    const direct = await createTestContext({ relay: false, now: clock.now });
    try {
      const admin = await direct.signIn('admin');
      const res = await admin.client.get('/api/admin/visitors', { 'x-forwarded-for': '203.0.113.250' });
      expect(res.status).toBe(200);
      const [row] = await direct.orm.em.fork().find(AuditLog, { actorId: admin.id, action: 'visitors.list' });
      expect(row?.ip).toMatch(/^127\.0\.0\.1$|^::1$/);
    } finally {
      await direct.close();
    }
  });
});

describe('GET /api/admin/audit', () => {
  let reader: Account;
  let other: Account;
  const seeded: { action: AuditAction; actor: () => Account; at: string }[] = [
    { action: 'visitors.export_csv', actor: () => other, at: '2030-03-01T10:00:00Z' },
    // 23:30 UTC on 2 March is already 3 March at the venue.
    { action: 'media.export_zip', actor: () => other, at: '2030-03-02T23:30:00Z' },
    { action: 'visitors.export_csv', actor: () => reader, at: '2030-03-04T08:00:00Z' },
  ];

  beforeAll(async () => {
    const a = await t.signIn('admin', { firstName: 'Petra', lastName: 'Protokoll' });
    const b = await t.signIn('admin', { firstName: 'Otto', lastName: 'Anders' });
    reader = { client: a.client, id: a.id, email: a.email };
    other = { client: b.client, id: b.id, email: b.email };
    const fork = em();
    for (const row of seeded) {
      fork.create(AuditLog, {
        actorId: row.actor().id,
        actorRole: 'admin',
        action: row.action,
        target: '2030',
        details: {},
        ip: '192.0.2.1',
        createdAt: new Date(row.at),
      });
      // One per flush: `seq` follows insertion.
      await fork.flush();
    }
  });

  const read = async (query: string) => {
    const res = await reader.client.get(`/api/admin/audit?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.data as { entries: AuditEntry[]; next: string | null; people: { id: string; name: string }[] };
  };

  it('filters by person, action and venue dates, both days included, newest first', async () => {
    const byOther = await read(`person=${other.id}`);
    expect(byOther.entries.map((entry) => entry.action)).toEqual(['media.export_zip', 'visitors.export_csv']);
    expect(byOther.entries[0]).toMatchObject({
      actorName: 'Otto Anders',
      actorRole: 'admin',
      ip: '192.0.2.1',
    });

    const csv = await read('action=visitors.export_csv&from=2030-03-01&to=2030-03-31');
    expect(csv.entries.map((entry) => entry.actorId)).toEqual([reader.id, other.id]);

    // 3 March at the venue holds the row written at 23:30 UTC on 2 March, and nothing else.
    const day = await read('from=2030-03-03&to=2030-03-03');
    expect(day.entries.map((entry) => entry.action)).toEqual(['media.export_zip']);
    const upTo = await read(`person=${other.id}&to=2030-03-02`);
    expect(upTo.entries.map((entry) => entry.action)).toEqual(['visitors.export_csv']);

    expect(byOther.people).toEqual(
      expect.arrayContaining([
        { id: other.id, name: 'Otto Anders' },
        { id: reader.id, name: 'Petra Protokoll' },
      ]),
    );
  });

  it('pages with `before`, and is read by admins only', async () => {
    const first = await read(`person=${other.id}&limit=1`);
    expect(first.entries).toHaveLength(1);
    expect(first.next).not.toBeNull();
    const second = await read(`person=${other.id}&limit=1&before=${first.next}`);
    expect(second.entries.map((entry) => entry.action)).toEqual(['visitors.export_csv']);
    expect(second.next).toBeNull();

    expect((await world.reviewer.client.get('/api/admin/audit')).status).toBe(403);
    expect((await reader.client.get('/api/admin/audit?action=nichts')).status).toBe(400);
    expect((await reader.client.get('/api/admin/audit?from=2030-13-01')).status).toBe(400);
  });

  it("names a deleted account 'Gelöschtes Konto'", async () => {
    const gone = await t.signIn('reviewer');
    const fork = em();
    fork.create(AuditLog, {
      actorId: gone.id,
      actorRole: 'reviewer',
      action: 'vehicles.export_csv',
      details: {},
      ip: '192.0.2.9',
    });
    await fork.flush();
    expect((await gone.client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await em().count(User, { id: gone.id })).toBe(0);
    const page = await read(`person=${gone.id}`);
    expect(page.entries).toMatchObject([
      { actorName: 'Gelöschtes Konto', ip: null, action: 'vehicles.export_csv' },
    ]);
  });
});
