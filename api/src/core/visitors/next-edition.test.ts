import { DEFAULT_RETENTION, VISITOR_NEXT_EDITION_CONSENT } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, uniqueEmail, type TestContext } from '../../testing/index.js';
import { eventOfEdition } from '../editions/edition-events.js';
import { createEdition, currentEdition, makeCurrent } from '../editions/editions.js';
import { Edition } from '../model/edition.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { runRetention } from '../privacy/retention.js';
import { noticeNextEdition } from './next-edition-notices.js';

const DAY = 24 * 3600 * 1000;
let t: TestContext;
/** The first edition (the spec's 2026 meeting) ends on 20 June 2026. */
let ended: Date;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  ended = t.event.end;
});
afterAll(() => t?.close());

const config = () => ({ publicUrl: t.config.publicUrl, secret: t.config.sessionSecret });

/** The notices due at `asOf`, for the edition current then (as the scheduler runs them). */
const notice = async (asOf: Date) =>
  noticeNextEdition(t.orm.em, config(), eventOfEdition(await currentEdition(t.orm.em.fork(), asOf)), asOf);

async function signUp(name: string, nextEdition?: boolean, confirmed = true) {
  const email = uniqueEmail(name.toLowerCase());
  const res = await t.client().post('/api/visitor-registrations', {
    firstName: name,
    lastName: 'Besuch',
    email,
    ...(nextEdition === undefined ? {} : { nextEdition }),
  });
  expect(res.status, res.text).toBe(201);
  if (confirmed) {
    await t.orm.em
      .fork()
      .nativeUpdate(VisitorRegistration, { email }, { confirmedAt: new Date(ended.getTime() - DAY) });
  }
  return email;
}

const rowOf = (email: string) => t.orm.em.fork().findOne(VisitorRegistration, { email });

describe("a visitor's wish to hear about the next edition", () => {
  it('is recorded with its wording, only when ticked, kept past the edition until the one mail, then ends with it', async () => {
    const wishes = await signUp('Wilma', true);
    const plain = await signUp('Paul');
    const unticked = await signUp('Uwe', false);
    const unconfirmed = await signUp('Ute', true, false);
    const already = await signUp('Anke', true);

    const recorded = (await rowOf(wishes))!;
    expect(recorded.nextEditionConsentAt).toBeInstanceOf(Date);
    expect(recorded.nextEditionConsentVersion).toBe(VISITOR_NEXT_EDITION_CONSENT.version);
    expect((await rowOf(plain))!.nextEditionConsentAt).toBeNull();
    expect((await rowOf(unticked))!.nextEditionConsentAt).toBeNull();

    // Retention after the edition: only the confirmed wishes stay.
    const afterEdition = new Date(ended.getTime() + (DEFAULT_RETENTION.visitorsAfterEvent + 1) * DAY);
    await runRetention(t.orm.em, { asOf: afterEdition, periods: DEFAULT_RETENTION });
    expect(await rowOf(wishes)).not.toBeNull();
    expect(await rowOf(already)).not.toBeNull();
    expect(await rowOf(plain)).toBeNull();
    expect(await rowOf(unticked)).toBeNull();
    expect(await rowOf(unconfirmed)).toBeNull();

    // No next edition yet: nothing to tell.
    expect(await notice(afterEdition)).toBe(0);

    const em = t.orm.em.fork();
    await createEdition(em, { year: 2027 });
    const announced = new Date('2026-11-01T10:00:00+01:00');
    await makeCurrent(em, 2027, announced);
    // One of them signed up for 2027 already: no mail about it, but the wish is fulfilled.
    em.create(VisitorRegistration, {
      edition: await em.findOneOrFail(Edition, { year: 2027 }),
      email: already,
      firstName: 'Anke',
      lastName: 'Besuch',
      confirmedAt: announced,
    });
    await em.flush();

    const asOf = new Date(announced.getTime() + 60_000);
    expect(await notice(asOf)).toBe(1);
    expect(await notice(asOf)).toBe(0);
    const mails = await t.orm.em.fork().find(Outbox, { job: 'email.send' });
    const notices = mails.filter(
      (row) => (row.payload as { template: string }).template === 'visitor-next-edition',
    );
    expect(notices.map((row) => (row.payload as { to: string }).to)).toEqual([wishes]);
    expect((notices[0]!.payload as { props: unknown }).props).toEqual({
      firstName: 'Wilma',
      signUpUrl: `${t.config.publicUrl}/visitor-registration`,
    });
    // The links are sealed, not stored in clear.
    expect(JSON.stringify(notices[0]!.payload)).not.toContain('abmelden');
    expect((await rowOf(wishes))!.nextEditionNotifiedAt).toEqual(asOf);

    // Told: from now on the sign-up ends with its edition.
    await runRetention(t.orm.em, { asOf, periods: DEFAULT_RETENTION });
    expect(await t.orm.em.fork().count(VisitorRegistration, { email: wishes })).toBe(0);
    expect(
      await t.orm.em.fork().count(VisitorRegistration, { email: already, edition: { year: 2026 } }),
    ).toBe(0);
    expect(
      await t.orm.em.fork().count(VisitorRegistration, { email: already, edition: { year: 2027 } }),
    ).toBe(1);
  });

  it('is not kept for ever: without a next edition the sign-up goes after its own period', async () => {
    const waiting = await signUp('Wanda', true);
    const longAfter = new Date(ended.getTime() + (DEFAULT_RETENTION.visitorsForNextEdition + 1) * DAY);
    const removed = await runRetention(t.orm.em, { asOf: longAfter, periods: DEFAULT_RETENTION });
    expect(removed.visitorsForNextEdition).toBeGreaterThanOrEqual(1);
    expect(await rowOf(waiting)).toBeNull();
  });
});
