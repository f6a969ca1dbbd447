import { randomUUID } from 'node:crypto';
import { CONSENTS, DEFAULT_RETENTION, PRIVACY_MESSAGES, RETENTION_RULES } from '@schlosstreffen/shared';
import type { Consent, PublicVehicle, StatusHistoryEntry } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { planQuartettExport } from '../../core/quartett/export.js';
import { createTestContext, createVehicle, type SignedIn, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;
let reviewer: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await t.signIn('admin', { firstName: 'Anna' });
  reviewer = await t.signIn('reviewer', { firstName: 'Rita' });
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

/** An application as the wizard sends it, confirmed by an admin. */
async function confirmedApplication(owner: SignedIn, name: string) {
  const vehicle = await createVehicle(owner.client, { name, status: 'submitted' });
  for (const [from, to] of [
    ['submitted', 'invited'],
    ['invited', 'confirmed'],
  ]) {
    const res = await admin.client.patch(`/api/admin/vehicles/${vehicle.id}/status`, {
      status: to,
      oldStatus: from,
    });
    expect(res.status, res.text).toBe(200);
  }
  return vehicle;
}

const consentsOf = async (owner: SignedIn) =>
  (await owner.client.get('/api/account/consents')).data as Consent[];
const withdraw = (owner: SignedIn, consent: Consent | undefined) =>
  owner.client.post(`/api/account/consents/${consent!.id}/withdraw`, {});
const publicIds = async () =>
  ((await t.client().get('/api/vehicles/public')).data as PublicVehicle[]).map((entry) => entry.id);

describe('consents', () => {
  it('records the wizard’s three consents with their wording, and none for a draft', async () => {
    const owner = await t.signIn('user');
    const submitted = await createVehicle(owner.client, { status: 'submitted' });
    await createVehicle(owner.client, { name: 'Nur ein Entwurf' });
    const consents = await consentsOf(owner);
    expect(consents).toHaveLength(3);
    for (const consent of consents) {
      expect(consent).toMatchObject({
        vehicleId: submitted.id,
        version: CONSENTS[consent.kind].version,
        wording: CONSENTS[consent.kind].text,
        source: 'application',
        withdrawnAt: null,
      });
    }
    expect(new Set(consents.map((consent) => consent.kind))).toEqual(
      new Set(['media', 'quartett', 'contact']),
    );
    expect((await owner.client.get('/api/auth/user')).data).toMatchObject({
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    });

    // Staff and the owner see a vehicle's consents; anyone else sees nothing.
    expect((await admin.client.get(`/api/vehicles/${submitted.id}/consents`)).data).toHaveLength(3);
    expect((await reviewer.client.get(`/api/vehicles/${submitted.id}/consents`)).status).toBe(200);
    expect((await owner.client.get(`/api/vehicles/${submitted.id}/consents`)).status).toBe(200);
    const stranger = await t.signIn('user');
    expect((await stranger.client.get(`/api/vehicles/${submitted.id}/consents`)).status).toBe(404);
    expect((await t.client().get(`/api/vehicles/${submitted.id}/consents`)).status).toBe(401);
    expect(await consentsOf(stranger)).toEqual([]);
  });

  it('withdrawing the media consent takes the vehicle off the public page, logged in its history', async () => {
    const owner = await t.signIn('user', { firstName: 'Mia', lastName: 'Medien' });
    const vehicle = await confirmedApplication(owner, 'Öffentlich');
    expect(await publicIds()).toContain(vehicle.id);

    const media = (await consentsOf(owner)).find((consent) => consent.kind === 'media');
    const stranger = await t.signIn('user');
    expect((await withdraw(stranger, media)).status).toBe(404);
    const res = await withdraw(owner, media);
    expect(res.status, res.text).toBe(200);
    expect(res.data).toMatchObject({ id: media!.id, withdrawnAt: expect.any(String) });
    expect((await withdraw(owner, media)).status).toBe(409);

    expect(await publicIds()).not.toContain(vehicle.id);
    expect((await owner.client.get('/api/auth/user')).data.consentMedia).toBe(false);
    const history = (await admin.client.get(`/api/vehicles/${vehicle.id}/reviews`))
      .data as StatusHistoryEntry[];
    expect(history[0]).toMatchObject({
      kind: 'consent_withdrawn',
      oldStatus: 'confirmed',
      newStatus: 'confirmed',
      actorName: 'Mia Medien',
      commentInternal: PRIVACY_MESSAGES.consentWithdrawnLog(CONSENTS.media.label),
    });
    // The log still replays to the stored status, and the public list agrees with it.
    const { rebuildProjections } = await import('../../core/status-log/projections.js');
    const report = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(report).toMatchObject({ mismatches: [], publicListDrift: 0 });
  });

  it('withdrawing the quartett consent keeps the vehicle out of future prints', async () => {
    const owner = await t.signIn('user');
    const printed = await confirmedApplication(owner, 'Kartenwagen');
    const withdrawn = await confirmedApplication(owner, 'Ohne Karte');
    const quartett = (await consentsOf(owner)).find(
      (consent) => consent.kind === 'quartett' && consent.vehicleId === withdrawn.id,
    );
    expect((await withdraw(owner, quartett)).status).toBe(200);

    const set = await admin.client.post('/api/admin/quartett-sets', { title: `Druck ${randomUUID()}` });
    expect(set.status).toBe(201);
    const plan = await planQuartettExport(t.orm.em, set.data.id as string);
    const names = plan && plan !== 'empty' ? plan.cards.map((card) => card.name) : [];
    expect(names).toContain('Kartenwagen');
    expect(names).not.toContain('Ohne Karte');
    expect(printed.id).not.toBe(withdrawn.id);
  });

  it('withdrawing the contact consent stops mails about the application, invitation included', async () => {
    const owner = await t.signIn('user');
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });
    const contact = (await consentsOf(owner)).find((consent) => consent.kind === 'contact');
    expect((await withdraw(owner, contact)).status).toBe(200);

    const mailsTo = () => t.orm.em.fork().count(Outbox, { job: 'email.send', payload: { to: owner.email } });
    const before = await mailsTo();
    expect(before).toBeGreaterThan(0);
    await admin.client.patch(`/api/admin/vehicles/${vehicle.id}/status`, {
      status: 'waitlist',
      oldStatus: 'submitted',
    });
    await admin.client.patch(`/api/admin/vehicles/${vehicle.id}/status`, {
      status: 'invited',
      oldStatus: 'waitlist',
    });
    const issued = await issueInvitation(t.orm.em, vehicle.id, {
      event: t.event,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
      jobId: randomUUID(),
    });
    expect(issued).toMatchObject({ created: true, mailJobId: null });
    expect(await mailsTo()).toBe(before);
  });
});

describe('GET /api/admin/retention', () => {
  it('shows admins the periods in force and the last run', async () => {
    const res = await admin.client.get('/api/admin/retention');
    expect(res.status).toBe(200);
    expect(res.data.periods).toHaveLength(Object.keys(RETENTION_RULES).length);
    expect(res.data.periods).toContainEqual({
      rule: 'unconfirmedVisitors',
      label: RETENTION_RULES.unconfirmedVisitors.label,
      description: RETENTION_RULES.unconfirmedVisitors.description,
      days: DEFAULT_RETENTION.unconfirmedVisitors,
    });
    expect(res.data).toHaveProperty('lastRun');
    expect((await reviewer.client.get('/api/admin/retention')).status).toBe(403);
    expect((await t.client().get('/api/admin/retention')).status).toBe(401);
  });
});
