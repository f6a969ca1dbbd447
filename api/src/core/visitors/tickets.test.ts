import { randomUUID } from 'node:crypto';
import { VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
import type { AdminEditionList, VisitorTicketView } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unseal } from '../crypto/seal.js';
import { Edition } from '../model/edition.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { VisitorTicket } from '../model/visitor-ticket.entity.js';
import { runDueWork } from '../scheduler.js';
import {
  APPLYING_NOON,
  createTestContext,
  testClock,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';
import { allocateTickets } from './tickets.js';
import { createVisitorToken, deleteVisitorRegistration, ticketLinksOf } from './visitor.service.js';

/**
 * Visitor tickets on the real database: the capacity holds under 200 confirmations at once, the
 * waiting list moves up in the order of confirmation, once per place given back, also when two
 * are given back at the same moment; an unsubscribe keeps the ticket; a deletion frees the place.
 */
const clock = testClock(APPLYING_NOON);
let t: TestContext;
let admin: SignedIn;
const em = () => t.orm.em.fork();
const year = () => t.event.edition.year;

beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    now: testClock(APPLYING_NOON).now,
    env: { RATE_LIMIT_FACTOR: '1000' },
  });
  admin = await t.signIn('admin');
});
afterAll(() => t?.close());
beforeEach(async () => {
  await em().nativeDelete(VisitorRegistration, {});
  await em().nativeDelete(Outbox, {});
});

const setCapacity = async (capacity: number | null) => {
  const res = await admin.client.patch(`/api/admin/editions/${year()}`, {
    visitorTickets: capacity === null ? null : { capacity },
  });
  return res;
};

/** Registrations of the current edition written straight into the table, not yet confirmed. */
async function signUps(count: number): Promise<string[]> {
  const fork = em();
  const rows = Array.from({ length: count }, (_, i) =>
    fork.create(VisitorRegistration, {
      id: randomUUID(),
      edition: t.event.edition.id,
      firstName: `Vera${i}`,
      lastName: 'Besuch',
      email: `besuch-${randomUUID()}@example.de`,
    }),
  );
  await fork.flush();
  return rows.map((row) => row.id);
}

/** The worker's allocation job for the current edition. */
const allocate = () =>
  t.orm.em
    .fork()
    .transactional((tx) =>
      allocateTickets(
        tx,
        t.event.edition.id,
        clock.now(),
        ticketLinksOf(t.config.publicUrl, t.config.sessionSecret),
      ),
    );

const confirm = (id: string) =>
  t.client().post('/api/visitor-registrations/confirm', {
    token: createVisitorToken(t.config.sessionSecret, id, 'confirm'),
  });

const ticketOf = (id: string) => em().findOneOrFail(VisitorTicket, { registration: id });
const mails = async (template: string) =>
  (await em().find(Outbox, { job: 'email.send' })).filter(
    (row) => (row.payload as { template: string }).template === template,
  );
/** The ticket secret mailed to a registration. */
async function mailedSecret(id: string): Promise<string> {
  const email = (await em().findOneOrFail(VisitorRegistration, id)).email;
  const mail = (await mails('visitor-ticket'))
    .filter((row) => (row.payload as { to: string }).to === email)
    .at(-1)!;
  return unseal<{ ticketSecret: string }>(
    t.config.sessionSecret,
    (mail.payload as { sealed: string }).sealed,
  )!.ticketSecret;
}

describe('visitor tickets', () => {
  it('never gives one ticket more than the capacity under 200 confirmations at once; the rest wait', async () => {
    expect((await setCapacity(150)).status).toBe(200);
    const ids = await signUps(200);
    const answers = await Promise.all(ids.map((id) => confirm(id)));
    expect(answers.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.text}`)).toEqual([]);
    expect(new Set(answers.map((res) => res.data.message as string))).toEqual(
      new Set([VISITOR_TICKET_MESSAGES.confirmed]),
    );
    // The allocation jobs the confirmations queued, run as the worker runs them: several at once.
    const jobs = await em().count(Outbox, { job: 'visitor-tickets.allocate' });
    expect(jobs).toBe(200);
    await Promise.all(Array.from({ length: 8 }, () => allocate()));
    expect(await em().count(VisitorTicket, { state: 'issued' })).toBe(150);
    expect(await em().count(VisitorTicket, { state: 'waiting' })).toBe(50);
    expect(await mails('visitor-ticket')).toHaveLength(150);
    expect(await mails('visitor-ticket-waiting')).toHaveLength(50);
    // Confirming again, or the job again, changes nothing; those who wait are the last to confirm.
    expect((await confirm(ids[0]!)).status).toBe(200);
    await allocate();
    expect(await em().count(VisitorTicket, {})).toBe(200);
    const lastIssued = await em().findOneOrFail(
      VisitorTicket,
      { state: 'issued' },
      { orderBy: { queuedAt: 'desc' } },
    );
    const firstWaiting = await em().findOneOrFail(
      VisitorTicket,
      { state: 'waiting' },
      { orderBy: { queuedAt: 'asc' } },
    );
    expect(lastIssued.queuedAt.getTime()).toBeLessThanOrEqual(firstWaiting.queuedAt.getTime());

    // Organizers see the counts; raising the capacity moves the waiting list up at once.
    const list = (await admin.client.get('/api/admin/editions')).data as AdminEditionList;
    expect(list.editions.find((e) => e.year === year())!.visitorTickets).toEqual({
      capacity: 150,
      exitScanning: false,
      issued: 150,
      returned: 0,
      waiting: 50,
    });
    const below = await setCapacity(100);
    expect(below.status).toBe(400);
    expect(below.data.message).toBe(VISITOR_TICKET_MESSAGES.capacityBelowIssued(150));
    expect((await setCapacity(160)).status).toBe(200);
    expect(await em().count(VisitorTicket, { state: 'issued' })).toBe(160);
    const waiting = await em().find(VisitorTicket, { state: 'waiting' }, { orderBy: { queuedAt: 'asc' } });
    expect(waiting).toHaveLength(40);
  });

  it('gives a ticket given back to the next in line once, also when two come back at the same moment', async () => {
    expect((await setCapacity(2)).status).toBe(200);
    const [a, b, c, d, e] = await signUps(5);
    // One after the other (the clock moves on): the order of confirmation is the waiting list's.
    for (const [i, id] of [a!, b!, c!, d!, e!].entries()) {
      clock.set(new Date(APPLYING_NOON.getTime() + i * 60_000));
      expect((await confirm(id)).status).toBe(200);
      await allocate();
    }
    expect((await ticketOf(c!)).state).toBe('waiting');

    const [secretA, secretB] = [await mailedSecret(a!), await mailedSecret(b!)];
    const page = await t.client().get(`/api/visitor-tickets/${secretA}`);
    expect(page.status).toBe(200);
    expect(page.data as VisitorTicketView).toMatchObject({
      state: 'issued',
      firstName: 'Vera0',
      code: secretA,
    });
    expect(secretA).not.toMatch(/^\d+$/);

    const back = await Promise.all([
      t.client().post(`/api/visitor-tickets/${secretA}/return`, {}),
      t.client().post(`/api/visitor-tickets/${secretB}/return`, {}),
      t.client().post(`/api/visitor-tickets/${secretA}/return`, {}),
    ]);
    expect(back.map((res) => res.status).sort()).toEqual([200, 200, 409]);
    expect((await ticketOf(a!)).state).toBe('returned');
    // C and D confirmed first among the waiting: they move up, E still waits.
    expect([(await ticketOf(c!)).state, (await ticketOf(d!)).state, (await ticketOf(e!)).state]).toEqual([
      'issued',
      'issued',
      'waiting',
    ]);
    const movedUp = (await mails('visitor-ticket')).filter(
      (row) => (row.payload as { props: { movedUp: boolean } }).props.movedUp,
    );
    expect(movedUp).toHaveLength(2);
    expect(await mails('visitor-ticket-returned')).toHaveLength(2);
    expect((await t.client().get(`/api/visitor-tickets/${secretA}`)).data.state).toBe('returned');
  });

  it('keeps the ticket of a visitor who unsubscribes; a deleted registration frees its place at the next tick', async () => {
    expect((await setCapacity(1)).status).toBe(200);
    const [holder, next] = await signUps(2);
    await confirm(holder!);
    await allocate();
    await confirm(next!);
    await allocate();
    expect((await ticketOf(next!)).state).toBe('waiting');
    expect(await mails('visitor-ticket-waiting')).toHaveLength(1);
    const secret = await mailedSecret(holder!);

    const unsubscribed = await t.client().post('/api/visitor-registrations/unsubscribe', {
      token: createVisitorToken(t.config.sessionSecret, holder!, 'unsubscribe'),
    });
    expect(unsubscribed.status).toBe(200);
    const row = await em().findOneOrFail(VisitorRegistration, holder!);
    expect(row.unsubscribedAt).not.toBeNull();
    expect((await ticketOf(holder!)).state).toBe('issued');
    expect((await t.client().get(`/api/visitor-tickets/${secret}`)).data.state).toBe('issued');

    // Deleted: the ticket admits nobody any more; the scheduler gives the place to the next.
    await deleteVisitorRegistration(t.orm.em, holder!);
    expect((await t.client().get(`/api/visitor-tickets/${secret}`)).status).toBe(404);
    const schedule = {
      retention: t.config.retention,
      event: t.event,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
    };
    const tick = await runDueWork(t.orm.em, schedule, new Date(t.event.start.getTime() - 7 * 24 * 3600_000));
    expect(tick.visitorsMovedUp).toBe(1);
    expect((await ticketOf(next!)).state).toBe('issued');
    expect(
      (await runDueWork(t.orm.em, schedule, new Date(t.event.start.getTime() - 7 * 24 * 3600_000)))
        .visitorsMovedUp,
    ).toBe(0);
  });

  it('leaves pre-registration as it was without a capacity', async () => {
    expect((await setCapacity(null)).status).toBe(200);
    expect((await em().findOneOrFail(Edition, t.event.edition.id)).visitorTickets).toBeNull();
    const [id] = await signUps(1);
    const res = await confirm(id!);
    expect(res.status).toBe(200);
    expect(await em().count(Outbox, { job: 'visitor-tickets.allocate' })).toBe(0);
    await allocate();
    expect(await em().count(VisitorTicket, {})).toBe(0);
  });
});
