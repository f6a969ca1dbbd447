import { SUBMISSION_CONSENT_KINDS, CONSENTS } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consentWithdrawn } from '../../core/model/consent-state.js';
import { Consent } from '../../core/model/consent.entity.js';
import { User } from '../../core/model/user.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import {
  APPLYING_NOON,
  changeStatus,
  createTestContext,
  createVehicle,
  SUBMISSION_CONSENTS,
  testClock,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';

/**
 * Every submission of an application carries the three consents as the wizard names them and
 * records what it sent, once; drafts and staff changes record none.
 */

const clock = testClock(APPLYING_NOON);
let t: TestContext;
let admin: SignedIn;

const application = {
  brand: 'Opel',
  model: 'Manta B',
  year: 1982,
  ps: 110,
  weightKg: 1050,
  topSpeedKmh: 190,
  zeroToHundredS: 9.5,
};

/** What the wizard's last step says when its box is not ticked; the API answers with the same. */
const MISSING = {
  consentMedia: 'Einwilligung zur Mediennutzung ist erforderlich',
  consentQuartett: 'Einwilligung für Auto-Quartett ist erforderlich',
  consentContact: 'Einwilligung zur Kontaktaufnahme ist erforderlich',
} as const;
type ConsentField = keyof typeof MISSING;
const FIELDS = Object.keys(MISSING) as ConsentField[];

const without = (field: ConsentField) => ({ ...SUBMISSION_CONSENTS, [field]: undefined });
const consentsOf = (vehicleId: string) =>
  t.orm.em.fork().find(Consent, { vehicle: vehicleId }, { orderBy: { grantedAt: 'asc', kind: 'asc' } });
const flagsOf = async (userId: string) => {
  const user = await t.orm.em.fork().findOneOrFail(User, userId);
  return [user.consentMedia, user.consentQuartett, user.consentContact];
};
const vehiclesOf = (userId: string) => t.orm.em.fork().count(Vehicle, { user: userId });

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  admin = await t.signIn('admin', { firstName: 'Anna' });
});
afterAll(() => t?.close());
// Each test signs up owners of its own.
beforeEach(() => t.resetRateLimits());

describe('submitting from the wizard (POST /api/vehicles)', () => {
  it.each(FIELDS)('is refused without %s, naming it in German; nothing is created', async (field) => {
    const owner = await t.signIn('user');
    const refused = await owner.client.post('/api/vehicles', {
      ...application,
      status: 'submitted',
      ...without(field),
    });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe(MISSING[field]);
    expect(refused.data.issues).toEqual([{ field, message: MISSING[field] }]);
    // `false` is no consent either.
    const unticked = await owner.client.post('/api/vehicles', {
      ...application,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
      [field]: false,
    });
    expect([unticked.status, unticked.data.message]).toEqual([400, MISSING[field]]);
    expect(await vehiclesOf(owner.id)).toBe(0);
    expect(await flagsOf(owner.id)).toEqual([false, false, false]);
  });

  it('names every missing consent, beside other invalid fields', async () => {
    const owner = await t.signIn('user');
    const refused = await owner.client.post('/api/vehicles', { ...application, ps: 10, status: 'submitted' });
    expect(refused.status).toBe(400);
    expect(refused.data.issues).toEqual([
      { field: 'ps', message: 'Leistung muss zwischen 50 und 3000 PS liegen' },
      ...FIELDS.map((field) => ({ field, message: MISSING[field] })),
    ]);
  });

  it('records the three consents once, with their wording and version, and the account flags', async () => {
    const owner = await t.signIn('user');
    const created = await owner.client.post('/api/vehicles', {
      ...application,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(created.status, created.text).toBe(201);
    const consents = await consentsOf(created.data.id);
    expect(consents.map((consent) => consent.kind).sort()).toEqual([...SUBMISSION_CONSENT_KINDS].sort());
    for (const consent of consents) {
      expect(consent).toMatchObject({
        version: CONSENTS[consent.kind].version,
        wording: CONSENTS[consent.kind].text,
        source: 'application',
        grantedAt: APPLYING_NOON,
        withdrawnAt: null,
      });
      expect(consent.user.id).toBe(owner.id);
    }
    expect(await flagsOf(owner.id)).toEqual([true, true, true]);
  });

  it('needs no consents for a draft and records none', async () => {
    const owner = await t.signIn('user');
    const draft = await owner.client.post('/api/vehicles', application);
    expect(draft.status, draft.text).toBe(201);
    // Ticks sent with a draft are no submission: nothing is recorded.
    const ticked = await owner.client.post('/api/vehicles', { ...application, ...SUBMISSION_CONSENTS });
    expect(ticked.status, ticked.text).toBe(201);
    expect(await consentsOf(draft.data.id)).toEqual([]);
    expect(await consentsOf(ticked.data.id)).toEqual([]);
    expect(await flagsOf(owner.id)).toEqual([false, false, false]);
  });
});

describe('submitting a draft from the dashboard (PATCH /api/vehicles/:id)', () => {
  it.each(FIELDS)('is refused without %s, naming it; the draft stays a draft', async (field) => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, application);
    const refused = await owner.client.patch(`/api/vehicles/${id}`, {
      status: 'submitted',
      ...without(field),
    });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe(MISSING[field]);
    expect(refused.data.issues).toEqual([{ field, message: MISSING[field] }]);
    expect((await t.orm.em.fork().findOneOrFail(Vehicle, id)).status).toBe('draft');
    expect(await consentsOf(id)).toEqual([]);
  });

  it('records the consents it sent; an edit sent along is kept', async () => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, application);
    const submitted = await clock.during(new Date('2026-03-03T09:00:00+01:00'), () =>
      owner.client.patch(`/api/vehicles/${id}`, {
        status: 'submitted',
        ...SUBMISSION_CONSENTS,
        color: 'Rot',
      }),
    );
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.data).toMatchObject({ status: 'submitted', color: 'Rot' });
    const consents = await consentsOf(id);
    expect(consents.map((consent) => [consent.kind, consent.version, consent.grantedAt])).toEqual(
      (['contact', 'media', 'quartett'] as const).map((kind) => [
        kind,
        CONSENTS[kind].version,
        new Date('2026-03-03T09:00:00+01:00'),
      ]),
    );
    expect(await flagsOf(owner.id)).toEqual([true, true, true]);
  });

  it('withdrawing and accepting need no consents', async () => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, { ...application, status: 'submitted' });
    const withdrawn = await owner.client.patch(`/api/vehicles/${id}`, { status: 'draft' });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    await owner.client.patch(`/api/vehicles/${id}`, { status: 'submitted', ...SUBMISSION_CONSENTS });
    await changeStatus(admin, id, 'submitted', 'invited');
    const accepted = await owner.client.patch(`/api/vehicles/${id}`, { status: 'confirmed' });
    expect(accepted.status, accepted.text).toBe(200);
  });
});

describe('resubmitting', () => {
  it('after withdrawing the application: the consents still stand and are not recorded again', async () => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, { ...application, status: 'submitted' });
    expect(await consentsOf(id)).toHaveLength(3);
    await owner.client.patch(`/api/vehicles/${id}`, { status: 'draft' });
    // Asked again like every submission.
    const unasked = await owner.client.patch(`/api/vehicles/${id}`, { status: 'submitted' });
    expect([unasked.status, unasked.data.message]).toEqual([400, MISSING.consentMedia]);
    const again = await owner.client.patch(`/api/vehicles/${id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(again.status, again.text).toBe(200);
    const consents = await consentsOf(id);
    expect(consents).toHaveLength(3);
    expect(consents.every((consent) => consent.grantedAt.getTime() === APPLYING_NOON.getTime())).toBe(true);
  });

  it('after withdrawing a consent: that one is given anew, the others stand; the withdrawal ends', async () => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, { ...application, status: 'submitted' });
    const media = (await consentsOf(id)).find((consent) => consent.kind === 'media')!;
    const withdrawn = await owner.client.post(`/api/account/consents/${media.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(await consentWithdrawn(t.orm.em.fork(), id, 'media')).toBe(true);
    expect(await flagsOf(owner.id)).toEqual([false, true, true]);

    await owner.client.patch(`/api/vehicles/${id}`, { status: 'draft' });
    const resubmitted = await clock.during(new Date('2026-03-04T10:00:00+01:00'), () =>
      owner.client.patch(`/api/vehicles/${id}`, { status: 'submitted', ...SUBMISSION_CONSENTS }),
    );
    expect(resubmitted.status, resubmitted.text).toBe(200);
    const consents = await consentsOf(id);
    expect(consents.map((consent) => [consent.kind, consent.withdrawnAt !== null])).toEqual([
      ['contact', false],
      ['media', true],
      ['quartett', false],
      ['media', false],
    ]);
    expect(consents.at(-1)!.grantedAt).toEqual(new Date('2026-03-04T10:00:00+01:00'));
    expect(await consentWithdrawn(t.orm.em.fork(), id, 'media')).toBe(false);
    expect(await flagsOf(owner.id)).toEqual([true, true, true]);
  });
});

describe('staff', () => {
  it("a staff member's status change is no submission by the owner and records nothing", async () => {
    const owner = await t.signIn('user');
    const { id } = await createVehicle(owner.client, application);
    await changeStatus(admin, id, 'draft', 'submitted');
    expect(await consentsOf(id)).toEqual([]);

    // Through the owner's route too: the ticks are asked, but a staff member's are not the owner's.
    const other = (await createVehicle(owner.client, application)).id;
    const refused = await admin.client.patch(`/api/vehicles/${other}`, { status: 'submitted' });
    expect(refused.status).toBe(400);
    const submitted = await admin.client.patch(`/api/vehicles/${other}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(submitted.status, submitted.text).toBe(200);
    expect(await consentsOf(other)).toEqual([]);
    expect(await flagsOf(owner.id)).toEqual([false, false, false]);
    expect(await flagsOf(admin.id)).toEqual([false, false, false]);
  });
});
