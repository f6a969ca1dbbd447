import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITION_MESSAGES, venueDateTime } from '@schlosstreffen/shared';
import { createEdition, makeCurrent, openApplications } from '../../core/editions/editions.js';
import {
  APPLYING_NOON,
  createTestContext,
  createVehicle,
  testClock,
  type SignedIn,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';

/** The default first edition's deadline is 31 March 2026: applications close at midnight after it. */
const LAST_EVENING = new Date('2026-03-31T23:30:00+02:00');
const DAY_AFTER = new Date('2026-04-01T00:00:00+02:00');
const CLOSED = EDITION_MESSAGES.closed('Schlosstreffen 2026', '31. März 2026');

const clock = testClock(APPLYING_NOON);
let t: TestContext;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  owner = await t.signIn('user', { firstName: 'Frieda' });
});
afterAll(() => t?.close());

describe("an edition's application window", () => {
  it('takes a submission on the deadline day, and none from midnight after it', async () => {
    const onTime = await createVehicle(owner.client, { model: 'M3 E30' });
    const late = await createVehicle(owner.client, { model: 'M3 E36' });

    const lastEvening = await clock.during(LAST_EVENING, () =>
      owner.client.patch(`/api/vehicles/${onTime.id}`, { status: 'submitted', ...SUBMISSION_CONSENTS }),
    );
    expect(lastEvening.status, lastEvening.text).toBe(200);

    const refused = await clock.during(DAY_AFTER, () =>
      owner.client.patch(`/api/vehicles/${late.id}`, { status: 'submitted', ...SUBMISSION_CONSENTS }),
    );
    expect([refused.status, refused.data.message]).toEqual([409, CLOSED]);
    // The draft stays a draft, editable as it was.
    const draft = await owner.client.get(`/api/vehicles/${late.id}`);
    expect(draft.data.status).toBe('draft');
  });

  it('refuses new applications after the deadline, drafts and the wizard’s submissions alike', async () => {
    for (const status of ['draft', 'submitted'] as const) {
      const res = await clock.during(DAY_AFTER, () =>
        owner.client.post('/api/vehicles', {
          brand: 'Opel',
          model: 'Kadett C',
          year: 1977,
          ps: 105,
          weightKg: 900,
          topSpeedKmh: 190,
          zeroToHundredS: 9.0,
          status,
          ...(status === 'submitted' ? SUBMISSION_CONSENTS : {}),
        }),
      );
      expect([res.status, res.data.message]).toEqual([409, CLOSED]);
    }
  });

  it('an edition in preparation takes drafts; submitting waits for its opening', async () => {
    const em = t.orm.em.fork();
    await createEdition(em, { year: 2027 });
    const current = new Date('2026-09-01T10:00:00+02:00');
    await makeCurrent(em, 2027, current);
    clock.set(new Date('2026-10-01T10:00:00+02:00'));

    const draft = await createVehicle(owner.client, { model: 'M2 CS' });
    const early = await owner.client.patch(`/api/vehicles/${draft.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect([early.status, early.data.message]).toEqual([
      409,
      EDITION_MESSAGES.notYetOpen('Schlosstreffen 2027', null),
    ]);
    expect(early.data.message).toContain('Der Termin wird noch bekannt gegeben.');

    const opensAt = new Date('2026-11-01T09:00:00+01:00');
    await openApplications(em, 2027, opensAt);
    const announced = await owner.client.patch(`/api/vehicles/${draft.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect([announced.status, announced.data.message]).toEqual([
      409,
      EDITION_MESSAGES.notYetOpen('Schlosstreffen 2027', venueDateTime(opensAt)),
    ]);
    expect(announced.data.message).toContain('ab 01.11.2026, 09:00 Uhr');

    clock.set(opensAt);
    const opened = await owner.client.patch(`/api/vehicles/${draft.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(opened.status, opened.text).toBe(200);
  });
});
