/**
 * The permission matrix: every route the API serves (read from its routers, so a route added without
 * a row fails here) against every actor, each cell sent to the real server and database. Requests
 * are valid wherever the actor may act, so a 2xx shows access and a 401/403/404 shows refusal rather
 * than a validation error. Routes that consume what they act on (a link token, a draft, a session)
 * build a fresh one per cell; `fresh` rows even act as a new account of the actor's role.
 */
import { randomUUID } from 'node:crypto';
import { createEdition } from '../core/editions/editions.js';
import { QUEUE_NAMES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResetToken } from '../core/accounts/reset-token.js';
import { User } from '../core/model/user.entity.js';
import { Consent } from '../core/model/consent.entity.js';
import { invitationConfirmUrl, invitationDeclineUrl } from '../core/invitations/invitation-links.js';
import { issueInvitation } from '../core/invitations/invitation.issue.js';
import { createVisitorToken } from '../core/visitors/visitor.service.js';
import { createAwardToken } from '../core/award/award.js';
import { AwardVoter } from '../core/model/award.entity.js';
import { runStatement } from '../core/db/db.queries.js';
import { insertVotableCar, openVotingForTest } from '../testing/award.js';
import { VisitorRegistration } from '../core/model/visitor-registration.entity.js';
import { SignExport } from '../core/model/sign-export.entity.js';
import { JuryClass, JuryInvite } from '../core/model/jury.entity.js';
import { insertJudge } from '../core/jury/jury.queries.js';
import { objectPathOf, signExportKey } from '../core/storage/objects.js';
import { insertNumberedCar } from '../testing/signs.js';
import {
  ACTORS,
  changeStatus,
  createTestContext,
  APPLYING_NOON,
  EVENT_DAY_NOON,
  testClock,
  createVehicle,
  createWorld,
  insertImage,
  insertReadySet,
  insertConfirmedUser,
  putObject,
  insertSentMail,
  makeRoomForVehicle,
  PASSWORD,
  routesOf,
  signInAs,
  uniqueEmail,
  type Account,
  type Actor,
  type TestClient,
  type TestContext,
  type World,
  SUBMISSION_CONSENTS,
  insertCar,
} from '../testing/index.js';

/** Who sends a cell's request, and whose data it is about. */
interface Cell {
  actor: Actor;
  client: TestClient;
  /** The acting account (none when anonymous). */
  me?: Account;
  /** The applicant whose vehicles the request is about. */
  owner: Account;
}

interface Request {
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  /** `METHOD path` exactly as the router names it. */
  route: string;
  /** What this row's request shows, when a route has more than one row. */
  case?: string;
  /** Every cell acts as a new account of its role (the request changes or ends the account). */
  fresh?: boolean;
  /**
   * Expected status for anon, owner, other, reviewer, admin, and the staff member who owns this
   * application (a reviewer acting on vehicles of their own: the world's and `owner`'s are theirs).
   */
  expect: [number, number, number, number, number, number, number];
  request(cell: Cell): Request | Promise<Request>;
}

/** Routes served outside the API's routers (bull-board mounts an app of its own). */
const MOUNTED = [
  'GET /admin/queues',
  'GET /admin/queues/api/queues',
  'GET /admin/queues/api/queues/:queueName/:jobId',
  'GET /admin/queues/api/queues/:queueName/:jobId/logs',
  'GET /admin/queues/api/queues/:queueName/:jobId/flow',
  'PUT /admin/queues/api/queues/:queueName/pause',
  'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus',
  'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus',
  'PUT /admin/queues/api/queues/:queueName/:jobId/clean',
];

let t: TestContext;
/** The world as made; `world` is it, or for the staff member who owns the application, theirs. */
let base: World;
let world: World;

const em = () => t.orm.em.fork();
const account = () => signInAs(t, 'owner');

/** A new vehicle of the owner through the API; the cells create more than an account may hold. */
async function ownersVehicle(owner: Account, overrides: Record<string, unknown> = {}) {
  await makeRoomForVehicle(t, owner.id, { keep: [world.draft, world.submitted, world.confirmed] });
  return createVehicle(owner.client, overrides);
}

/** An invited vehicle of the owner with its invitation issued (as the job would). */
async function freshInvitation(
  owner: Account,
): Promise<{ code: string; token: string; declineToken: string; vehicleId: string; invitationId: string }> {
  const vehicle = await ownersVehicle(owner, { status: 'submitted' });
  await changeStatus(world.admin, vehicle.id, 'submitted', 'invited');
  const issued = await issueInvitation(t.orm.em, vehicle.id, {
    event: { ...t.event, parkingZones: [{ name: 'Nord', capacity: 1000 }] },
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });
  const id = issued!.invitation.id;
  const token = new URL(invitationConfirmUrl(t.config.publicUrl, t.config.sessionSecret, issued!.invitation))
    .searchParams;
  const decline = new URL(
    invitationDeclineUrl(t.config.publicUrl, t.config.sessionSecret, issued!.invitation),
  ).searchParams;
  return {
    code: issued!.invitation.qrCode,
    token: token.get('token')!,
    declineToken: decline.get('token')!,
    vehicleId: vehicle.id,
    invitationId: id,
  };
}

/** An invitation its owner has confirmed: the gate lets it in. */
async function confirmedInvitation(owner: Account): Promise<{ code: string; invitationId: string }> {
  const invitation = await freshInvitation(owner);
  const confirmed = await t.client().post('/api/invitations/confirm', { token: invitation.token });
  expect(confirmed.status).toBe(200);
  return { code: invitation.code, invitationId: invitation.invitationId };
}

/** Makes `reviewerId` one of the application's reviewers (as an admin's reassignment would); their id. */
async function assignTo(vehicleId: string, reviewerId: string): Promise<string> {
  const connection = t.orm.em.getConnection();
  const taken = await connection.execute<{ id: string }[]>(
    `select id from review_assignment where vehicle_id = ? and reviewer_id = ?`,
    [vehicleId, reviewerId],
  );
  if (!taken.length) {
    await connection.execute(
      `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_by, assigned_at)
       select gen_random_uuid(), edition_id, id, ?, ?, now() from vehicle where id = ?`,
      [reviewerId, world.admin.id, vehicleId],
      'run',
    );
  }
  return reviewerId;
}

/** A confirmed car of the owner holding a start number (it gets a windshield sign); its id. */
async function carWithSign(owner: Account): Promise<string> {
  return (await insertNumberedCar(t, { ownerId: owner.id, name: 'Schildauto' })).vehicleId;
}

/** A rendered sign PDF, a car's or (without one) the edition's A4 set; its id and object path. */
async function readySign(vehicleId: string | null): Promise<{ id: string; path: string }> {
  const fork = em();
  const edition = t.event.edition.id;
  const row =
    (vehicleId ? null : await fork.findOne(SignExport, { edition, format: 'a4', vehicle: null })) ??
    fork.create(SignExport, { id: randomUUID(), edition, format: 'a4', vehicle: vehicleId });
  Object.assign(row, { status: 'ready', progress: 100, signCount: 1, fileKey: signExportKey(row.id) });
  await fork.flush();
  await putObject(t, signExportKey(row.id), 'application/pdf');
  return { id: row.id, path: objectPathOf(signExportKey(row.id)) };
}

/** Years of editions the rows create: each cell its own. */
let editionYear = 2060;

/** A new edition in preparation; its year. */
async function freshEdition(): Promise<number> {
  editionYear += 1;
  await createEdition(em(), { year: editionYear });
  return editionYear;
}

async function freshVisitor(): Promise<string> {
  const email = uniqueEmail('besuch');
  const res = await t.client().post('/api/visitor-registrations', {
    firstName: 'Vera',
    lastName: 'Besuch',
    email,
  });
  expect(res.status, res.text).toBe(201);
  return (await em().findOneOrFail(VisitorRegistration, { email })).id;
}

let awardCar: number | undefined;
/** Voting of the world's edition open, with a car to vote for: its start number. */
async function votingOpen(): Promise<number> {
  awardCar ??= await insertVotableCar(t, base.owner.id, 'Matrix-Auto');
  await openVotingForTest(t, new Date(APPLYING_NOON.getTime() - 3600_000));
  return awardCar;
}

/** A new address's pending vote; the token of its mailed link for the purpose. */
async function freshAwardVoter(purpose: 'confirm' | 'votes'): Promise<string> {
  const startNumber = await votingOpen();
  const email = uniqueEmail('stimme');
  const res = await t.client().post(`/api/award/${t.event.edition.year}/votes`, { startNumber, email });
  expect(res.status, res.text).toBe(202);
  const voter = await em().findOneOrFail(AwardVoter, { mailbox: email });
  return createAwardToken(t.config.sessionSecret, voter.id, purpose);
}

/** A reviewer's account (not signed in); its id. */
async function freshReviewer(): Promise<string> {
  const { id } = await insertConfirmedUser(t);
  await em().nativeUpdate(User, { id }, { role: 'reviewer' });
  return id;
}

const UPDATE_DRAFT = { subject: 'Neuigkeiten', body: 'Die Tore öffnen um 10 Uhr.' };

/** A draft update written by the admin. */
async function freshUpdate(): Promise<string> {
  const res = await world.admin.client.post('/api/admin/visitor-updates', UPDATE_DRAFT);
  expect(res.status, res.text).toBe(201);
  return res.data.id as string;
}

async function confirmVisitor(id: string): Promise<void> {
  await em().nativeUpdate(VisitorRegistration, { id }, { confirmedAt: new Date() });
}

async function freshResetToken(userId: string): Promise<string> {
  const { token, hash, expiresAt } = createResetToken();
  await em().nativeUpdate(User, { id: userId }, { resetToken: hash, resetTokenExpiry: expiresAt });
  return token;
}

async function freshEmailChange(userId: string): Promise<string> {
  const { token, hash, expiresAt } = createResetToken();
  await em().nativeUpdate(
    User,
    { id: userId },
    { pendingEmail: uniqueEmail('neu'), emailChangeToken: hash, emailChangeExpiry: expiresAt },
  );
  return token;
}

/** A pending email change of the account; the token of the link that cancels it. */
async function freshEmailChangeCancel(userId: string): Promise<string> {
  const change = createResetToken();
  const cancel = createResetToken();
  await em().nativeUpdate(
    User,
    { id: userId },
    {
      pendingEmail: uniqueEmail('neu'),
      emailChangeToken: change.hash,
      emailChangeExpiry: change.expiresAt,
      emailChangeCancelToken: cancel.hash,
    },
  );
  return cancel.token;
}

/** Presigns and PUTs a small image as the client, like the browser; returns the path to attach. */
async function freshUpload(client: TestClient): Promise<string> {
  const signed = await client.post('/api/objects/upload', {
    filename: 'auto.jpg',
    type: 'image/jpeg',
    size: 1,
  });
  expect(signed.status, signed.text).toBe(200);
  const put = await fetch(signed.data.uploadURL, {
    method: 'PUT',
    headers: signed.data.headers,
    body: Buffer.from('x'),
  });
  expect(put.status).toBe(200);
  return signed.data.objectPath as string;
}

const vehicleBody = {
  brand: 'Audi',
  model: 'Sport Quattro',
  year: 1985,
  ps: 306,
  weightKg: 1300,
  topSpeedKmh: 250,
  zeroToHundredS: 4.8,
};

const ROWS: Row[] = [
  {
    route: 'GET /healthz',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/healthz' }),
  },
  { route: 'GET /readyz', expect: [200, 200, 200, 200, 200, 200, 200], request: () => ({ path: '/readyz' }) },
  {
    route: 'GET /healthz/ready',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/healthz/ready' }),
  },

  // The visitors' award.
  {
    route: 'GET /api/award/:year/me',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: `/api/award/${t.event.edition.year}/me` }),
  },
  {
    route: 'POST /api/award/:year/votes',
    case: 'anonymous: pending until the address is confirmed; accounts with a verified address: counted',
    expect: [202, 201, 201, 201, 201, 201, 201],
    request: async () => ({
      path: `/api/award/${t.event.edition.year}/votes`,
      json: { startNumber: await votingOpen(), email: uniqueEmail('stimme') },
    }),
  },
  {
    route: 'DELETE /api/award/:year/votes/:startNumber',
    case: 'anonymous without a confirmed address: nothing to take back',
    expect: [409, 200, 200, 200, 200, 200, 200],
    request: async () => ({ path: `/api/award/${t.event.edition.year}/votes/${await votingOpen()}` }),
  },
  {
    route: 'POST /api/award/confirm',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({ path: '/api/award/confirm', json: { token: await freshAwardVoter('confirm') } }),
  },
  {
    route: 'POST /api/award/confirm/pending',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/award/confirm/pending',
      json: { token: await freshAwardVoter('confirm') },
    }),
  },
  {
    route: 'POST /api/award/my-votes/export',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/award/my-votes/export',
      json: { token: await freshAwardVoter('votes') },
    }),
  },
  {
    route: 'POST /api/award/my-votes/delete',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/award/my-votes/delete',
      json: { token: await freshAwardVoter('votes') },
    }),
  },
  {
    route: 'GET /api/admin/award/:year',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/api/admin/award/${t.event.edition.year}` }),
  },
  {
    route: 'PATCH /api/admin/award/:year',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({
      path: `/api/admin/award/${t.event.edition.year}`,
      json: { opensAt: null, closesAt: null },
    }),
  },
  {
    route: 'POST /api/admin/award/:year/open',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      await runStatement(em(), `delete from award where edition_id = ?`, [t.event.edition.id]);
      return { path: `/api/admin/award/${t.event.edition.year}/open`, json: {} };
    },
  },
  {
    route: 'POST /api/admin/award/:year/close',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      await votingOpen();
      return { path: `/api/admin/award/${t.event.edition.year}/close`, json: {} };
    },
  },
  {
    route: 'POST /api/admin/award/:year/correction',
    case: 'admins only, once the final totals are written (the clock is the day after the meeting)',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const startNumber = await votingOpen();
      const results = [{ vehicleId: randomUUID(), startNumber, name: 'Matrix-Auto', votes: 5, rank: 1 }];
      await runStatement(em(), `update award set closed_at = now(), results = ? where edition_id = ?`, [
        JSON.stringify(results),
        t.event.edition.id,
      ]);
      return {
        path: `/api/admin/award/${t.event.edition.year}/correction`,
        json: { startNumber, votes: 4, reason: 'Eine Stimme doppelt gezählt.' },
      };
    },
  },
  // No METRICS_TOKEN here: the metrics are off, for everyone (metrics.test.ts has them on).
  {
    route: 'GET /metrics',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: '/metrics' }),
  },

  // Accounts.
  {
    route: 'GET /api/auth/user',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/auth/user' }),
  },
  {
    route: 'POST /api/auth/register',
    fresh: true,
    expect: [201, 201, 201, 201, 201, 201, 201],
    request: () => ({
      path: '/api/auth/register',
      json: { firstName: 'Nora', lastName: 'Neu', email: uniqueEmail('neu'), password: PASSWORD },
    }),
  },
  {
    route: 'POST /api/auth/login',
    fresh: true,
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ me }) => ({
      path: '/api/auth/login',
      json: { email: (me ?? (await account())).email, password: PASSWORD },
    }),
  },
  {
    route: 'POST /api/auth/logout',
    fresh: true,
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/auth/logout', json: {} }),
  },
  {
    route: 'POST /api/auth/forgot-password',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: ({ me }) => ({ path: '/api/auth/forgot-password', json: { email: me?.email ?? uniqueEmail() } }),
  },
  {
    route: 'POST /api/auth/verify-reset-token',
    case: 'the token is the proof, not the session',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ owner }) => ({
      path: '/api/auth/verify-reset-token',
      json: { token: await freshResetToken(owner.id) },
    }),
  },
  {
    route: 'POST /api/auth/reset-password',
    fresh: true,
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ me }) => ({
      path: '/api/auth/reset-password',
      json: {
        token: await freshResetToken((me ?? (await account())).id),
        newPassword: 'ein-neues-passwort-2',
      },
    }),
  },
  {
    route: 'PATCH /api/auth/profile',
    fresh: true,
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: ({ me }) => ({
      path: '/api/auth/profile',
      json: { firstName: 'Mara', lastName: 'Anders', email: me?.email ?? uniqueEmail() },
    }),
  },
  {
    route: 'POST /api/auth/confirm-email',
    fresh: true,
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ me }) => ({
      path: '/api/auth/confirm-email',
      json: { token: await freshEmailChange((me ?? (await account())).id) },
    }),
  },
  {
    route: 'POST /api/auth/resend-confirmation',
    case: 'a confirmed account is told so, nothing is sent',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/auth/resend-confirmation', json: {} }),
  },
  {
    route: 'POST /api/auth/cancel-email-change',
    case: 'the token is the proof, not the session',
    fresh: true,
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ me }) => ({
      path: '/api/auth/cancel-email-change',
      json: { token: await freshEmailChangeCancel((me ?? (await account())).id) },
    }),
  },
  {
    route: 'POST /api/auth/change-password',
    fresh: true,
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({
      path: '/api/auth/change-password',
      json: { currentPassword: PASSWORD, newPassword: 'ein-neues-passwort-2' },
    }),
  },

  // One's own data.
  {
    route: 'GET /api/account/consents',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/account/consents' }),
  },
  {
    route: 'POST /api/account/consents/:id/withdraw',
    case: "the owner's consent",
    expect: [401, 200, 404, 404, 404, 200, 404],
    request: async ({ owner }) => {
      const vehicle = await ownersVehicle(owner, { status: 'submitted' });
      const consent = await em().findOneOrFail(Consent, { vehicle: vehicle.id, kind: 'media' });
      return { path: `/api/account/consents/${consent.id}/withdraw`, json: {} };
    },
  },
  {
    route: 'POST /api/vehicles/:id/consents/instagram',
    // The owner's own choice for their confirmed car; to anyone else the car is not there.
    expect: [401, 201, 404, 404, 404, 201, 404],
    request: async ({ owner }) => {
      await makeRoomForVehicle(t, owner.id, { keep: [world.draft, world.submitted, world.confirmed] });
      const { vehicleId } = await insertCar(t, { ownerId: owner.id });
      return { path: `/api/vehicles/${vehicleId}/consents/instagram`, json: {} };
    },
  },
  {
    route: 'GET /api/vehicles/:id/consents',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: () => ({ path: `/api/vehicles/${world.submitted}/consents` }),
  },
  {
    route: 'GET /api/account/export',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/account/export' }),
  },
  {
    route: 'POST /api/account/export',
    fresh: true,
    expect: [401, 201, 201, 201, 201, 201, 201],
    request: () => ({ path: '/api/account/export', json: {} }),
  },
  {
    route: 'POST /api/account/delete',
    fresh: true,
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/account/delete', json: { password: PASSWORD } }),
  },

  // Visitors.
  {
    route: 'POST /api/visitor-registrations',
    expect: [201, 201, 201, 201, 201, 201, 201],
    request: () => ({
      path: '/api/visitor-registrations',
      json: { firstName: 'Vera', lastName: 'Besuch', email: uniqueEmail('besuch') },
    }),
  },
  {
    route: 'GET /api/visitor-registrations/confirm',
    case: 'a GET only leads to the page',
    expect: [302, 302, 302, 302, 302, 302, 302],
    request: () => ({ path: '/api/visitor-registrations/confirm?token=abc' }),
  },
  {
    route: 'GET /api/visitor-registrations/unsubscribe',
    case: 'a GET only leads to the page',
    expect: [302, 302, 302, 302, 302, 302, 302],
    request: () => ({ path: '/api/visitor-registrations/unsubscribe?token=abc' }),
  },
  {
    route: 'GET /api/visitor-tickets/:secret',
    case: 'a secret that names no ticket: only the ticket link opens its page',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: `/api/visitor-tickets/VT${'A'.repeat(32)}` }),
  },
  {
    route: 'POST /api/visitor-tickets/:secret/return',
    case: 'a secret that names no ticket',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: `/api/visitor-tickets/VT${'A'.repeat(32)}/return`, json: {} }),
  },
  {
    route: 'POST /api/visitor-registrations/confirm',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/visitor-registrations/confirm',
      json: { token: createVisitorToken(t.config.sessionSecret, await freshVisitor(), 'confirm') },
    }),
  },
  {
    route: 'POST /api/visitor-registrations/unsubscribe',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/visitor-registrations/unsubscribe',
      json: { token: createVisitorToken(t.config.sessionSecret, await freshVisitor(), 'unsubscribe') },
    }),
  },
  {
    route: 'POST /api/visitor-registrations/next-edition',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => ({
      path: '/api/visitor-registrations/next-edition',
      json: { token: createVisitorToken(t.config.sessionSecret, await freshVisitor(), 'next-edition') },
    }),
  },
  {
    route: 'GET /api/admin/visitors',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/visitors' }),
  },
  {
    route: 'GET /api/admin/visitors.csv',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/visitors.csv' }),
  },
  {
    route: 'GET /api/admin/visitor-updates',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/visitor-updates' }),
  },
  {
    route: 'POST /api/admin/visitor-updates',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: () => ({ path: '/api/admin/visitor-updates', json: UPDATE_DRAFT }),
  },
  {
    route: 'GET /api/admin/visitor-updates/:id',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/visitor-updates/${await freshUpdate()}` }),
  },
  {
    route: 'GET /api/admin/visitor-updates/:id/preview',
    case: 'a draft whose preview is not rendered yet answers 404 to the admin',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: async () => ({ path: `/api/admin/visitor-updates/${await freshUpdate()}/preview` }),
  },
  {
    route: 'PATCH /api/admin/visitor-updates/:id',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/visitor-updates/${await freshUpdate()}`, json: UPDATE_DRAFT }),
  },
  {
    route: 'POST /api/admin/visitor-updates/:id/test',
    expect: [401, 403, 403, 403, 202, 403, 403],
    request: async () => ({ path: `/api/admin/visitor-updates/${await freshUpdate()}/test`, json: {} }),
  },
  {
    route: 'POST /api/admin/visitor-updates/:id/send',
    expect: [401, 403, 403, 403, 202, 403, 403],
    request: async () => {
      await confirmVisitor(await freshVisitor());
      return { path: `/api/admin/visitor-updates/${await freshUpdate()}/send`, json: {} };
    },
  },
  {
    route: 'GET /api/admin/retention',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/retention' }),
  },
  {
    route: 'GET /api/admin/audit',
    case: 'the audit log of staff actions: admins only',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/audit?action=visitors.list' }),
  },

  // The second factor of a staff sign-in (STAFF_SECOND_FACTOR is off here: no sign-in waits for
  // one, so every cell is refused; second-factor.test.ts runs the steps with the setting on).
  {
    route: 'GET /api/auth/second-factor/setup',
    expect: [401, 401, 401, 401, 401, 401, 401],
    request: () => ({ path: '/api/auth/second-factor/setup' }),
  },
  {
    route: 'POST /api/auth/second-factor/setup',
    expect: [401, 401, 401, 401, 401, 401, 401],
    request: () => ({ path: '/api/auth/second-factor/setup', json: { code: '123456' } }),
  },
  {
    route: 'POST /api/auth/second-factor/verify',
    expect: [401, 401, 401, 401, 401, 401, 401],
    request: () => ({ path: '/api/auth/second-factor/verify', json: { code: '123456' } }),
  },

  // The Team page: admins only.
  {
    route: 'GET /api/admin/team',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/team' }),
  },
  {
    route: 'POST /api/admin/team',
    case: 'a confirmed account becomes a reviewer',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({
      path: '/api/admin/team',
      json: { email: (await insertConfirmedUser(t)).email, role: 'reviewer' },
    }),
  },
  {
    route: 'DELETE /api/admin/team/:id',
    case: "a reviewer's role taken away",
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/team/${await freshReviewer()}` }),
  },
  {
    route: 'POST /api/admin/team/:id/reset-second-factor',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/team/${await freshReviewer()}/reset-second-factor`, json: {} }),
  },

  // Vehicles.
  {
    route: 'GET /api/vehicles/public',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/vehicles/public' }),
  },
  {
    route: 'GET /api/vehicles',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: '/api/vehicles' }),
  },
  {
    route: 'POST /api/vehicles',
    expect: [401, 201, 201, 201, 201, 201, 201],
    request: () => ({ path: '/api/vehicles', json: vehicleBody }),
  },
  {
    route: 'GET /api/vehicles/:id',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: () => ({ path: `/api/vehicles/${world.draft}` }),
  },
  {
    route: 'PATCH /api/vehicles/:id',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: () => ({ path: `/api/vehicles/${world.draft}`, json: { color: 'Guardsrot' } }),
  },
  {
    route: 'PATCH /api/vehicles/:id',
    case: 'submitting a draft',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: async ({ owner }) => ({
      path: `/api/vehicles/${(await ownersVehicle(owner)).id}`,
      json: { status: 'submitted', ...SUBMISSION_CONSENTS },
    }),
  },
  {
    route: 'DELETE /api/vehicles/:id',
    expect: [401, 204, 404, 204, 204, 204, 404],
    request: async ({ owner }) => ({ path: `/api/vehicles/${(await ownersVehicle(owner)).id}` }),
  },
  {
    route: 'GET /api/vehicles/:id/girocode.svg',
    case: 'an edition without a fee: nothing to pay',
    expect: [401, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: `/api/vehicles/${world.draft}/girocode.svg` }),
  },
  {
    route: 'GET /api/vehicles/:id/reviews',
    case: 'internal notes stay with staff',
    expect: [401, 403, 404, 200, 200, 403, 404],
    request: () => ({ path: `/api/vehicles/${world.submitted}/reviews` }),
  },
  {
    route: 'GET /api/admin/vehicles',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/vehicles' }),
  },
  {
    route: 'GET /api/admin/vehicles.csv',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/vehicles.csv?status=all&q=audi' }),
  },
  {
    route: 'PATCH /api/admin/vehicles/:id/status',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: async ({ owner }) => ({
      path: `/api/admin/vehicles/${(await ownersVehicle(owner, { status: 'submitted' })).id}/status`,
      json: { status: 'in_review', oldStatus: 'submitted' },
    }),
  },
  {
    route: 'POST /api/admin/vehicles/:id/correction',
    case: 'admins only, once the edition is over (the clock is the day after the meeting)',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async ({ owner }) => ({
      path: `/api/admin/vehicles/${(await ownersVehicle(owner, { status: 'submitted' })).id}/correction`,
      json: { status: 'rejected', reason: 'Beim Treffen falsch erfasst' },
    }),
  },
  {
    route: 'POST /api/admin/vehicles/bulk-status/preview',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({
      path: '/api/admin/vehicles/bulk-status/preview',
      json: { status: 'waitlist', filter: { status: 'submitted', q: '' } },
    }),
  },
  {
    route: 'POST /api/admin/vehicles/bulk-status',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: async ({ owner }) => ({
      path: '/api/admin/vehicles/bulk-status',
      json: {
        status: 'in_review',
        changes: [{ id: (await ownersVehicle(owner, { status: 'submitted' })).id, oldStatus: 'submitted' }],
      },
    }),
  },

  // Reviewing: a reviewer's own reviews and biases; the review of an application by whoever is
  // assigned; an edition's categories, the load per reviewer and moving a review for admins.
  {
    route: 'GET /api/admin/reviews/mine',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/reviews/mine' }),
  },
  {
    route: 'GET /api/admin/reviews/settings',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/reviews/settings' }),
  },
  {
    route: 'PUT /api/admin/reviews/settings',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const settings = (await world.admin.client.get('/api/admin/reviews/settings')).data as {
        reviewersPerApplication: number;
        categories: Array<{ id: string; name: string; weight: number }>;
      };
      return {
        path: '/api/admin/reviews/settings',
        json: { reviewersPerApplication: settings.reviewersPerApplication, categories: settings.categories },
      };
    },
  },
  // The public texts of an edition: staff read them, admins change them.
  {
    route: 'GET /api/admin/texts',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/texts' }),
  },
  {
    route: 'PUT /api/admin/texts',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({
      path: '/api/admin/texts',
      json: { faq: [{ question: 'Gibt es einen Dresscode?', answer: 'Nein.' }] },
    }),
  },
  // The mails' texts of an edition: admins only (they change what every applicant reads).
  {
    route: 'GET /api/admin/mail-templates',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/mail-templates' }),
  },
  {
    route: 'GET /api/admin/mail-templates/:mail',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/mail-templates/application-rejected' }),
  },
  {
    route: 'PUT /api/admin/mail-templates/:mail',
    case: 'saved over the version in use',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const { version } = (await world.admin.client.get('/api/admin/mail-templates/application-rejected'))
        .data as { version: number };
      return {
        path: '/api/admin/mail-templates/application-rejected',
        json: { subject: 'Deine Bewerbung', body: 'Hallo {vorname},\n\nleider nicht.', baseVersion: version },
      };
    },
  },
  {
    route: 'POST /api/admin/mail-templates/:mail/restore',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const { version } = (await world.admin.client.get('/api/admin/mail-templates/application-rejected'))
        .data as { version: number };
      return {
        path: '/api/admin/mail-templates/application-rejected/restore',
        json: { baseVersion: version },
      };
    },
  },
  {
    route: 'GET /api/admin/mail-templates/:mail/sample',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/api/admin/mail-templates/invitation/sample?fahrzeug=${world.submitted}` }),
  },
  {
    route: 'POST /api/admin/mail-templates/:mail/test',
    expect: [401, 403, 403, 403, 202, 403, 403],
    request: () => ({
      path: '/api/admin/mail-templates/application-rejected/test',
      json: { subject: 'Test', body: 'Hallo {vorname}' },
    }),
  },
  {
    route: 'GET /api/admin/reviews/load',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/reviews/load' }),
  },
  {
    route: 'GET /api/admin/reviews/conflicts',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/reviews/conflicts' }),
  },
  {
    route: 'POST /api/admin/reviews/conflicts',
    expect: [401, 403, 403, 201, 201, 201, 403],
    request: async () => ({
      path: '/api/admin/reviews/conflicts',
      json: { email: (await insertConfirmedUser(t)).email },
    }),
  },
  {
    route: 'DELETE /api/admin/reviews/conflicts/:id',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: async ({ actor, client }) => {
      if (actor !== 'reviewer' && actor !== 'admin' && actor !== 'staffOwner')
        return { path: `/api/admin/reviews/conflicts/${randomUUID()}` };
      const declared = await client.post('/api/admin/reviews/conflicts', {
        email: (await insertConfirmedUser(t)).email,
      });
      const people = (declared.data as { people: Array<{ id: string }> }).people;
      return { path: `/api/admin/reviews/conflicts/${people[0]!.id}` };
    },
  },
  {
    route: 'GET /api/admin/vehicles/:id',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: () => ({ path: `/api/admin/vehicles/${world.submitted}` }),
  },
  {
    route: 'GET /api/admin/vehicles/:id/review',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: () => ({ path: `/api/admin/vehicles/${world.submitted}/review` }),
  },
  {
    route: 'POST /api/admin/vehicles/:id/review',
    case: 'by the assigned reviewer or admin',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: async ({ owner, me }) => {
      const vehicle = await ownersVehicle(owner, { status: 'submitted' });
      if (me) await assignTo(vehicle.id, me.id);
      const settings = (await world.admin.client.get('/api/admin/reviews/settings')).data as {
        categories: Array<{ id: string }>;
      };
      return {
        path: `/api/admin/vehicles/${vehicle.id}/review`,
        json: { scores: Object.fromEntries(settings.categories.map((c) => [c.id, 7])) },
      };
    },
  },
  {
    route: 'POST /api/admin/vehicles/:id/assignments',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async ({ owner }) => {
      const vehicle = await ownersVehicle(owner, { status: 'submitted' });
      const from = await assignTo(vehicle.id, world.reviewer.id);
      return { path: `/api/admin/vehicles/${vehicle.id}/assignments`, json: { from, to: world.admin.id } };
    },
  },

  // Images.
  {
    route: 'POST /api/objects/upload',
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({
      path: '/api/objects/upload',
      json: { filename: 'a.jpg', type: 'image/jpeg', size: 1000 },
    }),
  },
  {
    route: 'POST /api/vehicles/:id/media',
    case: "the actor's own upload to the owner's draft",
    expect: [401, 201, 404, 201, 201, 201, 404],
    request: async ({ client, me, owner }) => ({
      path: `/api/vehicles/${(await ownersVehicle(owner)).id}/media`,
      json: { url: me ? await freshUpload(client) : '/objects/uploads/x/y.jpg' },
    }),
  },
  {
    route: 'POST /api/vehicles/:id/media',
    case: "someone else's upload",
    expect: [401, 403, 404, 201, 201, 201, 404],
    request: async ({ owner }) => ({
      path: `/api/vehicles/${(await ownersVehicle(owner)).id}/media`,
      json: { url: await freshUpload(world.other.client) },
    }),
  },
  {
    route: 'PATCH /api/vehicles/:id/media',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: () => ({
      path: `/api/vehicles/${world.submitted}/media`,
      json: { updates: [{ id: world.mediaOfSubmitted, cropX: 40 }] },
    }),
  },
  {
    route: 'DELETE /api/vehicles/:id/media/:mediaId',
    expect: [401, 204, 404, 204, 204, 204, 404],
    request: async ({ owner }) => {
      const vehicle = await ownersVehicle(owner);
      return { path: `/api/vehicles/${vehicle.id}/media/${(await insertImage(t, vehicle.id)).id}` };
    },
  },
  {
    route: 'GET /api/admin/media',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/media' }),
  },
  {
    route: 'GET /api/admin/media.zip',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/media.zip' }),
  },

  // Quartett.
  {
    route: 'GET /api/admin/quartett-sets',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/quartett-sets' }),
  },
  {
    route: 'POST /api/admin/quartett-sets',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: () => ({ path: '/api/admin/quartett-sets', json: { title: 'Schlosstreffen 2026' } }),
  },
  {
    route: 'GET /api/admin/quartett-sets/:id',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/api/admin/quartett-sets/${world.quartettSet}` }),
  },
  // Windshield signs: an edition's set for admins, a car's sign for its owner and staff.
  {
    route: 'GET /api/admin/signs',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/signs' }),
  },
  {
    route: 'POST /api/admin/signs',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: async ({ owner }) => {
      await carWithSign(owner);
      return { path: '/api/admin/signs', json: { format: 'a5' } };
    },
  },
  {
    route: 'GET /api/admin/signs/:id',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/signs/${(await readySign(null)).id}` }),
  },
  {
    route: 'GET /api/vehicles/:id/sign',
    expect: [401, 200, 404, 200, 200, 200, 404],
    request: async ({ owner }) => {
      const vehicleId = await carWithSign(owner);
      await readySign(vehicleId);
      return { path: `/api/vehicles/${vehicleId}/sign` };
    },
  },
  {
    route: 'POST /api/vehicles/:id/sign',
    expect: [401, 202, 404, 202, 202, 202, 404],
    request: async ({ owner }) => ({ path: `/api/vehicles/${await carWithSign(owner)}/sign`, json: {} }),
  },
  {
    route: 'POST /api/admin/quartett-sets/:id/release',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const set = await insertReadySet(t, world.admin.id);
      return { path: `/api/admin/quartett-sets/${set.id}/release`, json: {} };
    },
  },

  // Invitations and the gate.
  {
    route: 'POST /api/invitations/confirm',
    case: 'the token is the proof, not the session',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ owner }) => ({
      path: '/api/invitations/confirm',
      json: { token: (await freshInvitation(owner)).token },
    }),
  },
  {
    route: 'POST /api/invitations/decline',
    case: 'the token is the proof, not the session',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async ({ owner }) => ({
      path: '/api/invitations/decline',
      json: { token: (await freshInvitation(owner)).declineToken },
    }),
  },
  {
    route: 'GET /api/admin/vehicles/:id/earlier',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: () => ({ path: `/api/admin/vehicles/${world.submitted}/earlier` }),
  },
  {
    route: 'GET /api/admin/vehicles/:id/emails',
    expect: [401, 403, 403, 200, 200, 403, 403],
    request: () => ({ path: `/api/admin/vehicles/${world.submitted}/emails` }),
  },
  {
    route: 'POST /api/admin/vehicles/:id/emails/:mailId/resend',
    case: 'a mail of its own per cell (each is resent once)',
    expect: [401, 403, 403, 202, 202, 403, 403],
    request: async () => ({
      path: `/api/admin/vehicles/${world.submitted}/emails/${await insertSentMail(t, world.submitted)}/resend`,
      json: {},
    }),
  },
  {
    route: 'POST /api/vehicles/:id/reapply',
    case: "the owner's own car only; one of the current edition has applied already",
    expect: [401, 409, 404, 404, 404, 409, 404],
    request: async ({ owner }) => ({
      path: `/api/vehicles/${(await ownersVehicle(owner, { status: 'submitted' })).id}/reapply`,
      json: {},
    }),
  },
  {
    route: 'POST /api/vehicles/:id/decline',
    case: "declining is the owner's own act; staff change statuses instead",
    expect: [401, 200, 404, 403, 403, 200, 404],
    request: async ({ owner }) => ({
      path: `/api/vehicles/${(await freshInvitation(owner)).vehicleId}/decline`,
      json: {},
    }),
  },
  {
    route: 'GET /api/admin/waitlist',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/waitlist' }),
  },
  {
    route: 'PUT /api/admin/waitlist/settings',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/api/admin/waitlist/settings', json: { autoMoveUp: true } }),
  },
  {
    route: 'POST /api/admin/waitlist/invite',
    expect: [401, 403, 403, 201, 201, 403, 403],
    request: async ({ owner }) => {
      const vehicle = await ownersVehicle(owner, { status: 'submitted' });
      await changeStatus(world.admin, vehicle.id, 'submitted', 'waitlist');
      return { path: '/api/admin/waitlist/invite', json: { vehicleId: vehicle.id } };
    },
  },
  // Editions ('Ausgaben'): changed by admins only; the look back on one that has ended is public.
  {
    route: 'GET /api/editions/:year/look-back',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: `/api/editions/${t.event.edition.year}/look-back` }),
  },
  {
    route: 'GET /api/editions/:year/vehicles/:startNumber',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async () => {
      const { startNumber } = await insertCar(t, { ownerId: (await account()).id, photos: 1 });
      return { path: `/api/editions/${t.event.edition.year}/vehicles/${startNumber}` };
    },
  },
  {
    route: 'GET /api/admin/editions',
    // Reviewers too: the edition switch of the staff screens lists them.
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/editions' }),
  },
  {
    route: 'POST /api/admin/editions',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: () => {
      editionYear += 1;
      return { path: '/api/admin/editions', json: { year: editionYear } };
    },
  },
  {
    route: 'PATCH /api/admin/editions/:year',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({
      path: `/api/admin/editions/${await freshEdition()}`,
      json: { parkingZones: [{ name: 'Nord', capacity: 40 }] },
    }),
  },
  {
    route: 'POST /api/admin/editions/:year/open',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({ path: `/api/admin/editions/${await freshEdition()}/open`, json: {} }),
  },
  {
    route: 'POST /api/admin/editions/:year/current',
    // Far ahead: the current edition of the other rows stays the same.
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => ({
      path: `/api/admin/editions/${await freshEdition()}/current`,
      json: { at: '2099-12-31T00:00:00Z' },
    }),
  },
  {
    route: 'POST /api/admin/check-in',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: async ({ owner }) => ({
      path: '/api/admin/check-in',
      json: { code: (await confirmedInvitation(owner)).code },
    }),
  },
  {
    route: 'GET /api/admin/check-in/list',
    case: 'the gate list: staff only',
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/check-in/list' }),
  },
  {
    route: 'POST /api/admin/check-in/sync',
    case: "a gate's queued scans: staff only",
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: async ({ owner }) => ({
      path: '/api/admin/check-in/sync',
      json: {
        deviceId: randomUUID(),
        gate: 'Tor 1',
        scans: [
          {
            id: randomUUID(),
            invitationId: (await confirmedInvitation(owner)).invitationId,
            scannedAt: EVENT_DAY_NOON.toISOString(),
          },
        ],
      },
    }),
  },
  {
    route: 'GET /api/admin/arrivals',
    case: "the 'Einlass' board: staff only",
    expect: [401, 403, 403, 200, 200, 200, 403],
    request: () => ({ path: '/api/admin/arrivals' }),
  },
  {
    route: 'ALL /api/{*rest}',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: '/api/gibt-es-nicht' }),
  },

  // Stored objects: who may see each kind.
  {
    route: 'GET /objects/{*key}',
    case: 'image of a vehicle under review: its owner and staff',
    expect: [404, 200, 404, 200, 200, 200, 404],
    request: () => ({ path: world.submittedImage }),
  },
  {
    route: 'GET /objects/{*key}',
    case: 'image of a confirmed vehicle: everyone',
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ path: world.confirmedImage }),
  },
  {
    route: 'GET /objects/{*key}',
    case: 'the quartett print PDF: admins',
    expect: [404, 404, 404, 404, 200, 404, 404],
    request: () => ({ path: world.quartettPdf }),
  },
  {
    route: 'GET /objects/{*key}',
    case: "an edition's windshield signs: admins",
    expect: [404, 404, 404, 404, 200, 404, 404],
    request: async () => ({ path: (await readySign(null)).path }),
  },
  {
    route: 'GET /objects/{*key}',
    case: "a car's windshield sign: its owner and staff",
    expect: [404, 200, 404, 200, 200, 200, 404],
    request: async ({ owner }) => ({ path: (await readySign(await carWithSign(owner))).path }),
  },
  {
    route: 'GET /objects/{*key}',
    case: 'a data export: the person it belongs to',
    expect: [404, 200, 404, 404, 404, 404, 404],
    request: () => ({ path: world.accountExport }),
  },
  {
    route: 'GET /objects/{*key}',
    case: 'a raw upload: nobody',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: world.rawUpload }),
  },

  // The queue dashboard (bull-board): admins read, retry and clean failed and completed jobs;
  // nothing else changes.
  {
    route: 'GET /admin/queues',
    expect: [302, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/admin/queues' }),
  },
  {
    route: 'GET /admin/queues/api/queues',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: '/admin/queues/api/queues' }),
  },
  // A job's data (a mail job names its recipient): admins only, each read audited.
  ...(['', '/logs', '/flow'] as const).map((suffix): Row => ({
    route: `GET /admin/queues/api/queues/:queueName/:jobId${suffix}`,
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: async () => {
      const job = await t.queues.email.add('email.send', {
        template: 'invitation',
        to: 'x@example.de',
        props: {},
      });
      return { path: `/admin/queues/api/queues/email/${job.id}${suffix}` };
    },
  })),
  {
    route: 'PUT /admin/queues/api/queues/:queueName/pause',
    expect: [401, 403, 403, 403, 403, 403, 403],
    request: () => ({ path: `/admin/queues/api/queues/${QUEUE_NAMES[0]}/pause` }),
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus',
    case: 'failed jobs: admins',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/admin/queues/api/queues/${QUEUE_NAMES[0]}/retry/failed` }),
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus',
    case: 'waiting jobs: nobody',
    expect: [401, 403, 403, 403, 403, 403, 403],
    request: () => ({ path: `/admin/queues/api/queues/${QUEUE_NAMES[0]}/retry/waiting` }),
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus',
    case: 'completed jobs: admins',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/admin/queues/api/queues/${QUEUE_NAMES[0]}/clean/completed` }),
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus',
    case: 'waiting or delayed jobs: nobody',
    expect: [401, 403, 403, 403, 403, 403, 403],
    request: () => ({ path: `/admin/queues/api/queues/${QUEUE_NAMES[0]}/clean/waiting` }),
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/:jobId/clean',
    case: 'a waiting job: nobody',
    expect: [401, 403, 403, 403, 403, 403, 403],
    request: async () => {
      const job = await t.queues.email.add('email.send', {
        template: 'invitation',
        to: 'x@example.de',
        props: {},
      });
      return { path: `/admin/queues/api/queues/email/${job.id}/clean` };
    },
  },
  // The jury: judges (the world's judge heads its class, the reviewer judges it too), organizers.
  {
    route: 'GET /api/jury',
    expect: [401, 403, 403, 200, 403, 403, 200],
    request: () => ({ path: '/api/jury' }),
  },
  {
    route: 'POST /api/jury/sync',
    expect: [401, 403, 403, 200, 403, 403, 200],
    request: () => ({ path: '/api/jury/sync', json: { deviceId: randomUUID(), entries: [] } }),
  },
  {
    route: 'GET /api/jury/classes/:id',
    expect: [401, 404, 404, 403, 200, 404, 200],
    request: () => ({ path: `/api/jury/classes/${world.juryClass}` }),
  },
  {
    route: 'POST /api/jury/classes/:id/close',
    case: 'a class without cars: those who may close it are told so',
    expect: [401, 404, 404, 403, 409, 404, 409],
    request: () => ({ path: `/api/jury/classes/${world.juryClass}/close`, json: {} }),
  },
  {
    route: 'POST /api/jury/accept',
    case: 'a link that names no invitation',
    expect: [401, 400, 400, 400, 400, 400, 400],
    request: () => ({ path: '/api/jury/accept', json: { token: 'kein-gueltiger-link' } }),
  },
  {
    route: 'GET /api/editions/:year/results',
    case: 'before publication',
    expect: [404, 404, 404, 404, 404, 404, 404],
    request: () => ({ path: `/api/editions/${t.event.edition.year}/results` }),
  },
  {
    route: 'GET /api/admin/jury/:year',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/api/admin/jury/${t.event.edition.year}` }),
  },
  {
    route: 'POST /api/admin/jury/:year/classes',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: () => ({
      path: `/api/admin/jury/${t.event.edition.year}/classes`,
      json: {
        name: `Klasse ${randomUUID().slice(0, 8)}`,
        criteria: [{ name: 'Lack', weight: 2 }],
        places: 3,
      },
    }),
  },
  {
    route: 'PATCH /api/admin/jury/:year/classes/:id',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({
      path: `/api/admin/jury/${t.event.edition.year}/classes/${world.juryClass}`,
      json: {
        name: 'Bester Umbau',
        criteria: [{ id: 'k-gesamt', name: 'Gesamteindruck', weight: 1 }],
        places: 1,
        judgeIds: [base.judge.id, base.reviewer.id],
        headJudgeId: base.judge.id,
      },
    }),
  },
  {
    route: 'DELETE /api/admin/jury/:year/classes/:id',
    expect: [401, 403, 403, 403, 204, 403, 403],
    request: async () => {
      const fork = em();
      const juryClass = fork.create(JuryClass, {
        edition: t.event.edition.id,
        name: `Klasse ${randomUUID().slice(0, 8)}`,
        position: 9,
        scope: { zones: [], categories: [], yearFrom: null, yearTo: null },
        criteria: [{ id: 'k-lack', name: 'Lack', weight: 1, max: 10 }],
        places: 1,
      });
      await fork.flush();
      return { path: `/api/admin/jury/${t.event.edition.year}/classes/${juryClass.id}` };
    },
  },
  {
    route: 'POST /api/admin/jury/:year/judges',
    expect: [401, 403, 403, 403, 201, 403, 403],
    request: async () => ({
      path: `/api/admin/jury/${t.event.edition.year}/judges`,
      json: { email: (await insertConfirmedUser(t)).email, classIds: [world.juryClass] },
    }),
  },
  {
    route: 'PATCH /api/admin/jury/:year/judges/:userId',
    expect: [401, 403, 403, 403, 204, 403, 403],
    request: async () => {
      const judge = await insertConfirmedUser(t);
      await insertJudge(em(), t.event.edition.id, judge.id, []);
      return {
        path: `/api/admin/jury/${t.event.edition.year}/judges/${judge.id}`,
        json: { classIds: [world.juryClass] },
      };
    },
  },
  {
    route: 'DELETE /api/admin/jury/:year/judges/:userId',
    expect: [401, 403, 403, 403, 204, 403, 403],
    request: async () => {
      const judge = await insertConfirmedUser(t);
      await insertJudge(em(), t.event.edition.id, judge.id, [world.juryClass]);
      return { path: `/api/admin/jury/${t.event.edition.year}/judges/${judge.id}` };
    },
  },
  {
    route: 'DELETE /api/admin/jury/:year/invites/:id',
    expect: [401, 403, 403, 403, 204, 403, 403],
    request: async () => {
      const fork = em();
      const invite = fork.create(JuryInvite, {
        edition: t.event.edition.id,
        email: uniqueEmail('eingeladen'),
        tokenHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
        classIds: [],
      });
      await fork.flush();
      return { path: `/api/admin/jury/${t.event.edition.year}/invites/${invite.id}` };
    },
  },
  {
    route: 'POST /api/admin/jury/:year/publish',
    case: 'a class still open: refused to those who may publish',
    expect: [401, 403, 403, 403, 409, 403, 403],
    request: () => ({ path: `/api/admin/jury/${t.event.edition.year}/publish` }),
  },
  {
    route: 'POST /api/admin/jury/:year/correction',
    case: 'before the jury deadline: refused to those who may correct',
    expect: [401, 403, 403, 403, 409, 403, 403],
    request: () => ({
      path: `/api/admin/jury/${t.event.edition.year}/correction`,
      json: { classId: world.juryClass, places: [1], reason: 'Ein Rechenfehler der Jury' },
    }),
  },
  {
    route: 'GET /api/admin/jury/:year/ceremony',
    expect: [401, 403, 403, 403, 200, 403, 403],
    request: () => ({ path: `/api/admin/jury/${t.event.edition.year}/ceremony` }),
  },
  // Payments ('Zahlungen', admins only: bank data): the world's edition has no fee.
  {
    route: 'GET /api/admin/payments/:year',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}` }),
  },
  {
    route: 'GET /api/admin/payments/:year/search',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}/search?q=ST26` }),
  },
  {
    route: 'POST /api/admin/payments/:year/import',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}/import` }),
  },
  {
    route: 'POST /api/admin/payments/:year/entries/:id/assign',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({
      path: `/api/admin/payments/${t.event.edition.year}/entries/${randomUUID()}/assign`,
      json: { paymentId: randomUUID() },
    }),
  },
  {
    route: 'POST /api/admin/payments/:year/payments/:id/waive',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({
      path: `/api/admin/payments/${t.event.edition.year}/payments/${randomUUID()}/waive`,
      json: { reason: 'Fahrzeug des Hauptsponsors' },
    }),
  },
  {
    route: 'POST /api/admin/payments/:year/refunds/export',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}/refunds/export`, json: {} }),
  },
  {
    route: 'GET /api/admin/payments/:year/refunds/:id/file',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}/refunds/${randomUUID()}/file` }),
  },
  {
    route: 'POST /api/admin/payments/:year/refunds/:id/confirm',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({
      path: `/api/admin/payments/${t.event.edition.year}/refunds/${randomUUID()}/confirm`,
      json: {},
    }),
  },
  {
    route: 'GET /api/admin/payments/:year/kassenbericht.csv',
    case: 'an edition without a fee',
    expect: [401, 403, 403, 403, 404, 403, 403],
    request: () => ({ path: `/api/admin/payments/${t.event.edition.year}/kassenbericht.csv` }),
  },
  {
    route: 'POST /api/admin/check-in/visitor',
    case: 'a visitor ticket at a gate without a list: staff only (no ticket of this code)',
    expect: [401, 403, 403, 404, 404, 404, 403],
    request: () => ({
      path: '/api/admin/check-in/visitor',
      json: { code: `VT${'x'.repeat(32)}`, kind: 'in' },
    }),
  },
  {
    route: 'POST /api/admin/check-in/cash',
    case: 'a confirmed car without a fee: nothing to pay at the gate',
    expect: [401, 403, 403, 409, 409, 409, 403],
    request: async ({ owner }) => ({
      path: '/api/admin/check-in/cash',
      json: { code: (await confirmedInvitation(owner)).code },
    }),
  },
];

/**
 * The app's clock: inside the application window, where applications are made; on the event day
 * for the gate's requests (check-ins are taken on the event day only); after it for the look back
 * and an admin's correction of the record.
 */
const clock = testClock(APPLYING_NOON);
const DAY_AFTER = new Date(EVENT_DAY_NOON.getTime() + 24 * 3600_000);
const clockOf = (row: Row) =>
  row.route.includes('/check-in')
    ? EVENT_DAY_NOON
    : row.route.includes('/look-back') || row.route.includes('/correction')
      ? DAY_AFTER
      : APPLYING_NOON;

beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    env: { RATE_LIMIT_FACTOR: '1000' },
    now: clock.now,
  });
  base = world = await createWorld(t);
});
afterAll(() => t?.close());

const label = (row: Row) => (row.case ? `${row.route} (${row.case})` : row.route);

describe('the permission matrix', () => {
  it('has a row for every route the app serves, and no row for a route it does not', () => {
    const served = [...routesOf(t.app as never).map((route) => `${route.method} ${route.path}`), ...MOUNTED];
    const listed = new Set(ROWS.map((row) => row.route));
    expect(
      served.filter((route) => !listed.has(route)),
      'routes without a row',
    ).toEqual([]);
    expect(
      [...listed].filter((route) => !served.includes(route)),
      'rows for no route',
    ).toEqual([]);
    // The routers hold more than a handful of routes: reading them works.
    expect(served.length).toBeGreaterThan(40);
  });

  it.each(ROWS.map((row) => [label(row), row] as const))('%s', async (_label, row) => {
    const method = row.route.split(' ')[0]!;
    const answers: Record<string, number> = {};
    for (const [index, actor] of ACTORS.entries()) {
      let me: Account | undefined;
      // The staff member who owns the application acts on vehicles of their own: the world's
      // vehicles and the cell's `owner` are theirs.
      const owning = actor === 'staffOwner';
      world = owning ? { ...base, ...base.staffOwned } : base;
      let owner = owning ? world.staffOwner : world.owner;
      if (actor !== 'anon') {
        me = row.fresh ? await signInAs(t, actor) : world[actor];
        if (row.fresh && (actor === 'owner' || owning)) owner = me;
      }
      const client = me?.client ?? t.client();
      const request = await row.request({ actor, client, me, owner });
      const res = await clock.during(clockOf(row), () =>
        client.request(method === 'ALL' ? 'GET' : method, request.path, {
          json: request.json,
          headers: request.headers,
        }),
      );
      answers[actor] = res.status;
      expect.soft(res.status, `${label(row)} as ${actor}: ${res.text.slice(0, 300)}`).toBe(row.expect[index]);
      // A refusal says no more than that.
      if (res.status === 401 || res.status === 403) expect.soft(res.text.length).toBeLessThan(300);
    }
    world = base;
    expect(Object.keys(answers)).toEqual([...ACTORS]);
  });
});

describe('ids that name nothing', () => {
  it('answer as an unknown id would, before and after sign-in', async () => {
    expect((await t.client().get('/api/vehicles/not-a-uuid')).status).toBe(401);
    expect((await world.owner.client.get('/api/vehicles/not-a-uuid')).status).toBe(404);
    expect((await world.admin.client.get(`/api/vehicles/${randomUUID()}`)).status).toBe(404);
    expect((await world.admin.client.get('/api/admin/quartett-sets/kein-satz')).status).toBe(404);
    expect((await world.owner.client.get('/objects/%E0%A4%A')).status).toBe(404);
  });
});
