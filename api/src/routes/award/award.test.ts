import { randomBytes } from 'node:crypto';
import { AWARD_MESSAGES, mailboxOf } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unseal } from '../../core/crypto/seal.js';
import { lookBack } from '../../core/editions/editions.js';
import { Award, AwardVote, AwardVoter } from '../../core/model/award.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { VisitorRegistration } from '../../core/model/visitor-registration.entity.js';
import {
  createTestContext,
  uniqueEmail,
  type SignedIn,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';
import { insertVotableCar } from '../../testing/award.js';

/** The links of the newest award mail to the address, and their tokens. */
async function linksFor(t: TestContext, email: string) {
  const rows = await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'asc' } });
  const row = rows
    .filter((r) => r.payload.to === email && r.payload.template === 'award-confirmation')
    .at(-1);
  if (!row) throw new Error(`no award mail to ${email}`);
  expect(JSON.stringify(row.payload.props)).toBe('{}');
  const links = unseal<{ confirmUrl: string; votesUrl: string }>(
    t.config.sessionSecret,
    String(row.payload.sealed),
  );
  return {
    confirm: new URL(links.confirmUrl).searchParams.get('token')!,
    votes: new URL(links.votesUrl).searchParams.get('token')!,
    confirmPath: new URL(links.confirmUrl).pathname,
  };
}

const mailCount = async (t: TestContext, email: string) =>
  (await t.orm.em.fork().find(Outbox, { job: 'email.send' })).filter(
    (r) => r.payload.to === email && r.payload.template === 'award-confirmation',
  ).length;

describe('the visitors award', () => {
  let t: TestContext;
  let admin: SignedIn;
  let year: number;
  const cars: number[] = [];

  beforeAll(async () => {
    t = await createTestContext({ relay: false, env: { TRUST_PROXY: '1' } });
    admin = await t.signIn('admin');
    const owner = await t.signIn('user');
    year = t.event.edition.year;
    for (const name of ['Rote Göttin', 'Blauer Blitz', 'Grüner Gecko', 'Gelbe Gefahr', 'Weißer Wal'])
      cars.push(await insertVotableCar(t, owner.id, name));
  });
  afterAll(() => t?.close());
  beforeEach(() => t.resetRateLimits());

  const votesPath = () => `/api/award/${year}/votes`;
  const ranking = async () => {
    const res = await admin.client.get(`/api/admin/award/${year}`);
    expect(res.status).toBe(200);
    return res.data as {
      state: string;
      ranking: { startNumber: number; votes: number; pending: number; rank: number; name: string }[];
      totalVotes: number;
      pendingVotes: number;
      networks: { network: string; votes: number; pending: number; voters: number }[];
      final: boolean;
    };
  };
  const countedFor = async (startNumber: number) =>
    (await ranking()).ranking.find((row) => row.startNumber === startNumber)?.votes ?? 0;

  /** A browser that votes with a new address and confirms it by the mailed link's button. */
  async function confirmedBrowser(
    ip = '198.51.100.7',
  ): Promise<{ client: TestClient; email: string; votesToken: string }> {
    const client = t.client();
    const email = uniqueEmail('publikum');
    const first = await client.post(votesPath(), { startNumber: cars[0], email }, { 'x-forwarded-for': ip });
    expect(first.status).toBe(202);
    const links = await linksFor(t, email);
    const confirmed = await client.post('/api/award/confirm', { token: links.confirm });
    expect(confirmed.status).toBe(200);
    return { client, email, votesToken: links.votes };
  }

  it('refuses votes before voting opens, then an admin opens it', async () => {
    const res = await t.client().post(votesPath(), { startNumber: cars[0], email: uniqueEmail('frueh') });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe(AWARD_MESSAGES.notOpen);
    expect((await t.client().post(`/api/admin/award/${year}/open`)).status).toBe(401);
    const opened = await admin.client.post(`/api/admin/award/${year}/open`);
    expect(opened.status).toBe(200);
    expect((await ranking()).state).toBe('open');
  });

  it('keeps a vote pending until the address is confirmed by the button, never by a GET', async () => {
    const before = await countedFor(cars[1]!);
    const browser = t.client();
    const email = uniqueEmail('wartend');
    const res = await browser.post(votesPath(), { startNumber: cars[1], email });
    expect(res.status).toBe(202);
    expect(res.data).toMatchObject({ status: 'pending', message: AWARD_MESSAGES.pending });
    expect(await countedFor(cars[1]!)).toBe(before);
    expect((await ranking()).ranking.find((row) => row.startNumber === cars[1])?.pending).toBeGreaterThan(0);

    const links = await linksFor(t, email);
    expect(links.confirmPath).toBe('/publikumsliebling/bestaetigen');
    // A scanner's GET of the mailed page's API path changes nothing.
    const scanned = await t.client().get(`/api/award/confirm?token=${encodeURIComponent(links.confirm)}`);
    expect(scanned.status).toBeGreaterThanOrEqual(400);
    expect((await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email })).confirmedAt).toBeNull();
    // A second vote from the unconfirmed address sends no second mail within the hour.
    await browser.post(votesPath(), { startNumber: cars[2], email });
    expect(await mailCount(t, email)).toBe(1);

    const confirmed = await browser.post('/api/award/confirm', { token: links.confirm });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.votes.sort()).toEqual([cars[1], cars[2]].sort());
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    expect(voter.confirmedVia).toBe('link');
    expect(await countedFor(cars[1]!)).toBe(before + 1);

    const me = await browser.get(`/api/award/${year}/me`);
    expect(me.data).toMatchObject({ state: 'open', confirmed: true });
    expect(me.data.votes.sort()).toEqual([cars[1], cars[2]].sort());
    // Another browser without the cookie sees nothing of it.
    expect((await t.client().get(`/api/award/${year}/me`)).data).toMatchObject({
      confirmed: false,
      votes: [],
    });
  });

  it('never counts votes someone else typed in with an address when its owner confirms it', async () => {
    const before = [await countedFor(cars[3]!), await countedFor(cars[4]!)];
    const email = uniqueEmail('fremd');
    const stranger = t.client();
    for (const car of [cars[3], cars[4]])
      expect((await stranger.post(votesPath(), { startNumber: car, email })).status).toBe(202);
    const links = await linksFor(t, email);

    // The owner opens the mailed link in a browser of their own: the page lists the waiting votes
    // as cast elsewhere, and the button alone does not make them count.
    const owner = t.client();
    const listed = await owner.post('/api/award/confirm/pending', { token: links.confirm });
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual({
      year,
      confirmed: false,
      votes: expect.arrayContaining([
        expect.objectContaining({ startNumber: cars[3], pending: true, thisBrowser: false }),
        expect.objectContaining({ startNumber: cars[4], pending: true, thisBrowser: false }),
      ]),
    });
    const confirmed = await owner.post('/api/award/confirm', { token: links.confirm });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.votes).toEqual([]);
    expect([await countedFor(cars[3]!), await countedFor(cars[4]!)]).toEqual(before);
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    expect(voter.confirmedAt).not.toBeNull();
    expect(await t.orm.em.fork().count(AwardVote, { voter: voter.id })).toBe(0);
    // From now on the owner's browser votes for itself.
    expect((await owner.post(votesPath(), { startNumber: cars[4] })).status).toBe(201);
    expect(await countedFor(cars[4]!)).toBe(before[1]! + 1);
  });

  it('counts the waiting votes of the browser that confirms, or those the person picks elsewhere', async () => {
    const email = uniqueEmail('handy');
    const phone = t.client();
    expect((await phone.post(votesPath(), { startNumber: cars[3], email })).status).toBe(202);
    const links = await linksFor(t, email);
    const listed = await phone.post('/api/award/confirm/pending', { token: links.confirm });
    expect(listed.data.votes).toEqual([expect.objectContaining({ startNumber: cars[3], thisBrowser: true })]);

    // The mail app opens the link in a browser of its own, where the person picks their car.
    const before = await countedFor(cars[3]!);
    const mailApp = t.client();
    expect(
      (await mailApp.post('/api/award/confirm/pending', { token: links.confirm })).data.votes[0].thisBrowser,
    ).toBe(false);
    const refused = await mailApp.post('/api/award/confirm', { token: links.confirm, startNumbers: 'alle' });
    expect(refused.status).toBe(400);
    const picked = await mailApp.post('/api/award/confirm', {
      token: links.confirm,
      startNumbers: [cars[3]],
    });
    expect(picked.status).toBe(200);
    expect(picked.data.votes).toEqual([cars[3]]);
    expect(await countedFor(cars[3]!)).toBe(before + 1);
    // The reading changes nothing; a bad token reads nothing.
    expect((await t.client().post('/api/award/confirm/pending', { token: 'abc.def' })).status).toBe(400);
  });

  it("keeps each browser's waiting votes: another browser's votes take none away", async () => {
    const email = uniqueEmail('zwei');
    const own = t.client();
    const other = t.client();
    for (const car of [cars[0], cars[1]])
      expect((await own.post(votesPath(), { startNumber: car, email })).status).toBe(202);
    // Another browser typing the address fills its own three waiting votes, and none of the first's goes.
    for (const car of [cars[2], cars[3], cars[4]])
      expect((await other.post(votesPath(), { startNumber: car, email })).status).toBe(202);
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    const waitingPerBrowser = async () => {
      const rows = await t.orm.em.fork().find(AwardVote, { voter: voter.id });
      return [...new Set(rows.map((row) => row.browser))].map(
        (browser) => rows.filter((row) => row.browser === browser).length,
      );
    };
    expect((await waitingPerBrowser()).sort()).toEqual([2, 3]);
    // Each browser holds three at most, whatever the other did.
    const fourth = await other.post(votesPath(), { startNumber: cars[0], email });
    expect(fourth.status).toBe(409);
    expect(fourth.data.message).toBe(AWARD_MESSAGES.waitingFull);
    expect((await own.post(votesPath(), { startNumber: cars[2], email })).status).toBe(202);
    expect((await waitingPerBrowser()).sort()).toEqual([3, 3]);

    // The mailbox holder sees the cars of every browser, this browser's ticked.
    const links = await linksFor(t, email);
    const listed = await own.post('/api/award/confirm/pending', { token: links.confirm });
    expect(
      (listed.data.votes as { startNumber: number; pending: boolean; thisBrowser: boolean }[])
        .map(({ startNumber, pending, thisBrowser }) => ({ startNumber, pending, thisBrowser }))
        .sort((a, b) => a.startNumber - b.startNumber),
    ).toEqual(cars.map((startNumber, index) => ({ startNumber, pending: true, thisBrowser: index <= 2 })));
    // More than three are refused before anything changes; three picked across browsers count.
    const tooMany = await own.post('/api/award/confirm', {
      token: links.confirm,
      startNumbers: [cars[0], cars[3], cars[4], cars[1]],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.message).toBe(AWARD_MESSAGES.pickedTooMany(3));
    const picked = await own.post('/api/award/confirm', {
      token: links.confirm,
      startNumbers: [cars[0], cars[3], cars[4]],
    });
    expect(picked.status).toBe(200);
    expect(picked.data.votes.slice().sort()).toEqual([cars[0], cars[3], cars[4]].sort());
    expect(await t.orm.em.fork().count(AwardVote, { voter: voter.id, browser: { $ne: '' } })).toBe(0);
  });

  it('holds a browser to three waiting votes however many arrive at once', async () => {
    const email = uniqueEmail('gleichzeitig');
    const browser = t.client();
    expect((await browser.post(votesPath(), { startNumber: cars[0], email })).status).toBe(202);
    const results = await Promise.all(
      cars.slice(1).map((car) => browser.post(votesPath(), { startNumber: car, email })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([202, 202, 409, 409]);
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    expect(await t.orm.em.fork().count(AwardVote, { voter: voter.id })).toBe(3);
  });

  it('counts picked votes only within the three: more than are free are refused with nothing changed', async () => {
    const { client: own, email } = await confirmedBrowser();
    expect((await own.post(votesPath(), { startNumber: cars[1] })).status).toBe(201);
    const tablet = t.client();
    for (const car of [cars[2], cars[3]])
      expect((await tablet.post(votesPath(), { startNumber: car, email })).status).toBe(202);
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    const rows = async () =>
      (await t.orm.em.fork().find(AwardVote, { voter: voter.id }))
        .map((row) => `${row.browser ? 'wartet' : 'zählt'}:${row.vehicle.id}`)
        .sort();
    const before = await rows();
    const links = await linksFor(t, email);
    // Two counted, one free: the tablet's two waiting ones (its default) do not fit.
    const refused = await tablet.post('/api/award/confirm', { token: links.confirm });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(AWARD_MESSAGES.pickedTooMany(1));
    expect(
      (await tablet.post('/api/award/confirm', { token: links.confirm, startNumbers: [cars[2], cars[3]] }))
        .data.message,
    ).toBe(AWARD_MESSAGES.pickedTooMany(1));
    expect(await rows()).toEqual(before);
    const one = await tablet.post('/api/award/confirm', { token: links.confirm, startNumbers: [cars[3]] });
    expect(one.status).toBe(200);
    expect(one.data.votes.slice().sort()).toEqual([cars[0], cars[1], cars[3]].sort());
  });

  it('answers a vote with an address alike whatever the address did: never seen, waiting, confirmed, three counted', async () => {
    const fresh = uniqueEmail('nie');
    const waiting = uniqueEmail('wartet');
    expect((await t.client().post(votesPath(), { startNumber: cars[0], email: waiting })).status).toBe(202);
    const { client: confirmedClient, email: confirmed } = await confirmedBrowser('198.51.100.20');
    const { client: fullClient, email: full } = await confirmedBrowser('198.51.100.21');
    for (const car of [cars[1], cars[2]])
      expect((await fullClient.post(votesPath(), { startNumber: car })).status).toBe(201);
    expect((await confirmedClient.get(`/api/award/${year}/me`)).data.votes).toHaveLength(1);
    expect((await fullClient.get(`/api/award/${year}/me`)).data.votes).toHaveLength(3);

    // One new browser per address casts four votes: each answer is the same for every address.
    const answers = [];
    for (const [index, email] of [fresh, waiting, confirmed, full].entries()) {
      const browser = t.client();
      const seen = [];
      for (const car of cars.slice(0, 4)) {
        const res = await browser.post(
          votesPath(),
          { startNumber: car, email },
          { 'x-forwarded-for': `198.18.${index}.1` },
        );
        seen.push({ status: res.status, body: res.data });
      }
      answers.push(seen);
    }
    expect(answers[0]).toEqual([
      ...Array(3).fill({
        status: 202,
        body: { message: AWARD_MESSAGES.pending, status: 'pending', votes: [] },
      }),
      { status: 409, body: { message: AWARD_MESSAGES.waitingFull } },
    ]);
    for (const seen of answers.slice(1)) expect(seen).toEqual(answers[0]);
    // Nothing counted for the confirmed addresses meanwhile.
    expect((await confirmedClient.get(`/api/award/${year}/me`)).data.votes).toHaveLength(1);
    expect((await fullClient.get(`/api/award/${year}/me`)).data.votes).toHaveLength(3);
  });

  it('takes one mailbox as one voter however its address is spelled, and mails each vote to the address as typed', async () => {
    const tag = randomBytes(4).toString('hex');
    const spellings = [`fan.${tag}+1@gmail.com`, `fan.${tag}+2@gmail.com`, `f.a.n.${tag}@googlemail.com`];
    const mailbox = `fan${tag}@gmail.com`;
    const browser = t.client();
    for (const [index, email] of spellings.entries())
      expect((await browser.post(votesPath(), { startNumber: cars[index], email })).status).toBe(202);
    expect(await t.orm.em.fork().count(AwardVoter, { mailbox })).toBe(1);
    // The first spelling got the mail (the next ones within the hour go to the same mailbox).
    expect(await mailCount(t, spellings[0]!)).toBe(1);
    const links = await linksFor(t, spellings[0]!);
    const confirmed = await browser.post('/api/award/confirm', { token: links.confirm });
    expect(confirmed.data.votes.slice().sort()).toEqual(cars.slice(0, 3).sort());
    // Counted votes hold one a car, three in all, whichever spelling the browser gives.
    const again = await browser.post(votesPath(), { startNumber: cars[3] });
    expect(again.status).toBe(409);
    expect(again.data.message).toBe(AWARD_MESSAGES.tooMany);
    const exported = await t.client().post('/api/award/my-votes/export', { token: links.votes });
    expect(exported.data).toMatchObject({ email: mailbox });
    expect(exported.data.votes).toHaveLength(3);
  });

  it('a bad token confirms nothing', async () => {
    const res = await t.client().post('/api/award/confirm', { token: 'abc.def' });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(AWARD_MESSAGES.linkInvalid);
  });

  it('counts at once with the cookie, refuses a fourth car, and moves a vote', async () => {
    const { client } = await confirmedBrowser();
    const before = await countedFor(cars[3]!);
    for (const car of [cars[1], cars[2]]) {
      const res = await client.post(votesPath(), { startNumber: car });
      expect(res.status).toBe(201);
      expect(res.data.status).toBe('counted');
    }
    const again = await client.post(votesPath(), { startNumber: cars[1] });
    expect(again.data.message).toBe(AWARD_MESSAGES.alreadyCounted);
    const fourth = await client.post(votesPath(), { startNumber: cars[3] });
    expect(fourth.status).toBe(409);
    expect(fourth.data.message).toBe(AWARD_MESSAGES.tooMany);

    const taken = await client.delete(`${votesPath()}/${cars[0]}`);
    expect(taken.status).toBe(200);
    expect(taken.data.votes).not.toContain(cars[0]);
    const moved = await client.post(votesPath(), { startNumber: cars[3] });
    expect(moved.status).toBe(201);
    expect(moved.data.votes).toHaveLength(3);
    expect(await countedFor(cars[3]!)).toBe(before + 1);
  });

  it('refuses three votes at once beyond the third: the slots hold', async () => {
    const { client } = await confirmedBrowser();
    const results = await Promise.all(
      cars.slice(1).map((car) => client.post(votesPath(), { startNumber: car })),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(2);
    expect(results.filter((res) => res.status === 409)).toHaveLength(2);
  });

  it('answers 404 for an unknown start number', async () => {
    const { client } = await confirmedBrowser();
    const res = await client.post(votesPath(), { startNumber: 9999 });
    expect(res.status).toBe(404);
    expect(res.data.message).toBe(AWARD_MESSAGES.unknownCar);
  });

  it('lets a verified account vote without a mail', async () => {
    const voter = await t.signIn('user');
    const res = await voter.client.post(votesPath(), { startNumber: cars[4] });
    expect(res.status).toBe(201);
    const row = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: mailboxOf(voter.email) });
    expect(row.confirmedVia).toBe('account');
    expect(await mailCount(t, voter.email.toLowerCase())).toBe(0);
  });

  it("never counts votes someone else typed in with an account's address when the account votes", async () => {
    const account = await t.signIn('user');
    const stranger = await t
      .client()
      .post(
        votesPath(),
        { startNumber: cars[2], email: account.email },
        { 'x-forwarded-for': '198.51.100.90' },
      );
    expect(stranger.status).toBe(202);
    const res = await account.client.post(votesPath(), { startNumber: cars[3] });
    expect(res.status).toBe(201);
    expect(res.data.votes).toEqual([cars[3]]);
  });

  it('answers a vote with a confirmed address as with any other, and counts it only after the button in that browser', async () => {
    const { client: own, email } = await confirmedBrowser();
    const counted = async () =>
      (await own.get(`/api/award/${year}/me`)).data.votes.slice().sort() as number[];
    expect(await counted()).toEqual([cars[0]]);
    const before = await countedFor(cars[4]!);

    // A stranger typing the address learns nothing: the same answer as for a new address.
    const stranger = t.client();
    const res = await stranger.post(votesPath(), { startNumber: cars[4], email });
    expect(res.status).toBe(202);
    expect(res.data).toEqual({ message: AWARD_MESSAGES.pending, status: 'pending', votes: [] });
    const fresh = await t.client().post(votesPath(), { startNumber: cars[4], email: uniqueEmail('neu') });
    expect(fresh.data).toEqual(res.data);
    expect(await countedFor(cars[4]!)).toBe(before);
    expect(await counted()).toEqual([cars[0]]);

    // The owner's confirmed browser votes for it itself: it counts (the stranger's stays waiting there).
    expect((await own.post(votesPath(), { startNumber: cars[4] })).status).toBe(201);
    expect(await countedFor(cars[4]!)).toBe(before + 1);
    expect(await counted()).toEqual([cars[0], cars[4]].sort());

    // With all three slots counted a stranger's vote still gets the same answer, and nothing changes.
    expect((await own.post(votesPath(), { startNumber: cars[1] })).status).toBe(201);
    const full = await t.client().post(votesPath(), { startNumber: cars[2], email });
    expect(full.data).toEqual(res.data);
    expect(await counted()).toEqual([cars[0], cars[1], cars[4]].sort());

    // A new device of the owner: its vote waits for the mailed link opened there.
    expect((await own.delete(`/api/award/${year}/votes/${cars[1]}`)).status).toBe(200);
    const tablet = t.client();
    expect((await tablet.post(votesPath(), { startNumber: cars[3], email })).status).toBe(202);
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    // Within the hour no second mail: the first mail's link serves every browser.
    const links = await linksFor(t, email);
    const listed = await tablet.post('/api/award/confirm/pending', { token: links.confirm });
    expect(listed.data).toMatchObject({ confirmed: true });
    expect(listed.data.votes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ startNumber: cars[3], pending: true, thisBrowser: true }),
        expect.objectContaining({ startNumber: cars[0], pending: false }),
      ]),
    );
    const confirmed = await tablet.post('/api/award/confirm', { token: links.confirm });
    expect(confirmed.data.votes.slice().sort()).toEqual([cars[0], cars[3], cars[4]].sort());
    expect(await t.orm.em.fork().count(AwardVote, { voter: voter.id, browser: { $ne: '' } })).toBe(0);
  });

  it('records a confirmed visitor sign-up of the mailbox as the confirmation, with its time', async () => {
    const email = uniqueEmail('besuch');
    const signedUpAt = new Date('2026-02-01T10:00:00Z');
    const em = t.orm.em.fork();
    // Signed up with a tag, voting without: one mailbox.
    em.create(VisitorRegistration, {
      edition: t.event.edition.id,
      firstName: 'Anna',
      lastName: 'Schmidt',
      email: email.replace('@', '+treffen@'),
      confirmedAt: signedUpAt,
    });
    await em.flush();
    const client = t.client();
    await client.post(votesPath(), { startNumber: cars[0], email });
    await client.post('/api/award/confirm', { token: (await linksFor(t, email)).confirm });
    const voter = await t.orm.em.fork().findOneOrFail(AwardVoter, { mailbox: email });
    expect(voter.confirmedVia).toBe('visitor');
    expect(voter.confirmedAt?.toISOString()).toBe(signedUpAt.toISOString());
  });

  it('while open, deleting an address takes its votes out, and the address starts from zero', async () => {
    const { client, email, votesToken } = await confirmedBrowser();
    const counted = await countedFor(cars[0]!);
    const exported = await t.client().post('/api/award/my-votes/export', { token: votesToken });
    expect(exported.status).toBe(200);
    expect(exported.data).toMatchObject({ email, edition: year, votes: [{ startNumber: cars[0] }] });

    const deleted = await t.client().post('/api/award/my-votes/delete', { token: votesToken });
    expect(deleted.status).toBe(200);
    expect(await countedFor(cars[0]!)).toBe(counted - 1);
    expect(await t.orm.em.fork().count(AwardVoter, { mailbox: email })).toBe(0);
    // The old cookie names a voter that is gone: the browser has to confirm again.
    const stale = await client.post(votesPath(), { startNumber: cars[0] });
    expect(stale.status).toBe(409);
    expect(stale.data.message).toBe(AWARD_MESSAGES.emailNeeded);
    const back = await client.post(votesPath(), { startNumber: cars[0], email });
    expect(back.status).toBe(202);
    expect(await countedFor(cars[0]!)).toBe(counted - 1);
  });

  it('shows the admin the votes per network (IPv4 as /24, IPv6 as /48)', async () => {
    await confirmedBrowser('203.0.113.44');
    await confirmedBrowser('203.0.113.45');
    await confirmedBrowser('2001:db8:aa:bb:1::9');
    const { networks } = await ranking();
    expect(networks.find((row) => row.network === '203.0.113.x')).toMatchObject({ votes: 2, voters: 2 });
    expect(networks.find((row) => row.network === '2001:db8:aa::/48')).toMatchObject({ votes: 1, voters: 1 });
    expect(JSON.stringify(networks)).not.toContain('203.0.113.44');
  });

  it('closing refuses votes, writes the results and queues the certificates; a deletion keeps the results', async () => {
    const { client, votesToken } = await confirmedBrowser();
    // A vote still waiting when voting closes never joins the count.
    const waitingEmail = uniqueEmail('zu-spaet');
    const waiting = t.client();
    expect((await waiting.post(votesPath(), { startNumber: cars[2], email: waitingEmail })).status).toBe(202);
    const before = await ranking();
    const closed = await admin.client.post(`/api/admin/award/${year}/close`);
    expect(closed.status).toBe(200);
    const award = await t.orm.em.fork().findOneOrFail(Award, { edition: t.event.edition.id });
    expect(award.closedAt).not.toBeNull();
    const results = award.results!;
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.rank).toBe(1);
    for (const row of results)
      expect(row.votes).toBe(before.ranking.find((r) => r.startNumber === row.startNumber)?.votes);
    const jobs = await t.orm.em.fork().find(Outbox, { job: 'award.certificates' });
    expect(jobs.map((job) => job.payload)).toEqual([{ editionId: t.event.edition.id }]);

    const late = await client.post(votesPath(), { startNumber: cars[1] });
    expect(late.status).toBe(409);
    expect(late.data.message).toBe(AWARD_MESSAGES.closed);
    expect((await client.delete(`${votesPath()}/${cars[0]}`)).status).toBe(409);
    const tooLate = await waiting.post('/api/award/confirm', {
      token: (await linksFor(t, waitingEmail)).confirm,
    });
    expect(tooLate.status).toBe(409);
    expect(tooLate.data.message).toBe(AWARD_MESSAGES.closed);

    await t.client().post('/api/award/my-votes/delete', { token: votesToken });
    const after = await ranking();
    expect(after.final).toBe(true);
    expect(after.ranking.map(({ startNumber, votes, rank }) => ({ startNumber, votes, rank }))).toEqual(
      results.map(({ startNumber, votes, rank }) => ({ startNumber, votes, rank })),
    );
    // The look back shows the first three from the final totals.
    const look = await lookBack(t.orm.em.fork(), year, new Date(t.event.end.getTime() + 24 * 3600_000));
    expect(look.award?.title).toBe(`Publikumsliebling ${year}`);
    expect(look.award?.winners.map(({ rank, startNumber, votes }) => ({ rank, startNumber, votes }))).toEqual(
      results
        .filter((row) => row.rank <= 3)
        .map(({ rank, startNumber, votes }) => ({ rank, startNumber, votes })),
    );
    // Closing again changes nothing and queues nothing more.
    expect((await admin.client.post(`/api/admin/award/${year}/close`)).status).toBe(200);
    expect(await t.orm.em.fork().count(Outbox, { job: 'award.certificates' })).toBe(1);
  });
});

describe('the visitors award limits', () => {
  let t: TestContext;
  let year: number;
  let car: number;

  beforeAll(async () => {
    t = await createTestContext({
      relay: false,
      env: { TRUST_PROXY: '1', AWARD_ADDRESSES_PER_HOUR: '3', AWARD_VOTES_PER_MINUTE: '8' },
    });
    const admin = await t.signIn('admin');
    const owner = await t.signIn('user');
    year = t.event.edition.year;
    car = await insertVotableCar(t, owner.id, 'Schneller Schwan');
    await admin.client.post(`/api/admin/award/${year}/open`);
  });
  afterAll(() => t?.close());
  beforeEach(() => t.resetRateLimits());

  const vote = (ip: string, email = uniqueEmail('netz')) =>
    t.client().post(`/api/award/${year}/votes`, { startNumber: car, email }, { 'x-forwarded-for': ip });

  it('limits new addresses per IPv4 address, in German, and other addresses go on', async () => {
    for (let i = 0; i < 3; i += 1) expect((await vote('192.0.2.10')).status).toBe(202);
    const refused = await vote('192.0.2.10');
    expect(refused.status).toBe(429);
    expect(refused.data.message).toBe(AWARD_MESSAGES.tooManyAddresses);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await vote('192.0.2.11')).status).toBe(202);
  });

  it('counts an address given again from the same network once, and one refused not at all', async () => {
    const again = uniqueEmail('wieder');
    for (let i = 0; i < 3; i += 1) expect((await vote('192.0.2.20', again)).status).toBe(202);
    expect((await vote('192.0.2.20')).status).toBe(202);
    expect((await vote('192.0.2.20')).status).toBe(202);
    const refusedAddress = uniqueEmail('abgewiesen');
    for (let i = 0; i < 2; i += 1) {
      const refused = await vote('192.0.2.20', refusedAddress);
      expect(refused.status).toBe(429);
      expect(refused.data.message).toBe(AWARD_MESSAGES.tooManyAddresses);
    }
    // Whether an address was stored before plays no part: one voted elsewhere counts as new here.
    expect((await vote('192.0.2.21', again)).status).toBe(202);
  });

  it('counts an IPv6 /64 as one network', async () => {
    for (let i = 1; i <= 3; i += 1) expect((await vote(`2001:db8:1:2::${i}`)).status).toBe(202);
    expect((await vote('2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await vote('2001:db8:1:3::1')).status).toBe(202);
  });

  it('limits votes per network and minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1)
      statuses.push(
        (
          await t
            .client()
            .post(`/api/award/${year}/votes`, { startNumber: car }, { 'x-forwarded-for': '192.0.2.99' })
        ).status,
      );
    expect(statuses.slice(0, 8).every((status) => status === 409)).toBe(true);
    expect(statuses[8]).toBe(429);
  });
});
