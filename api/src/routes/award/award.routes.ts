import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import {
  AWARD_MESSAGES,
  AWARD_VOTER_HINT_COOKIE,
  AwardConfirmSchema,
  AwardCorrectionSchema,
  AwardMomentsSchema,
  AwardVoteSchema,
  EDITION_MESSAGES,
  mailboxOf,
} from '@schlosstreffen/shared';
import type { AwardAdminView, ServerMessage } from '@schlosstreffen/shared/api';
import { RateLimiterRes } from 'rate-limiter-flexible';
import {
  AwardService,
  closeAward,
  correctAwardResult,
  openAward,
  setAwardMoments,
} from '../../core/award/award.js';
import { awardAdminView } from '../../core/award/award-admin.js';
import { networkOf } from '../../core/award/network.js';
import { invalid, limitReached } from '../../core/errors.js';
import { requestNow, requireRole, type AppContext, type AppState } from '../../http/context.js';
import type { Limiter } from '../../http/rate-limit.js';
import { strictRouter } from '../../http/router.js';
import { validate } from '../../http/validate.js';
import { audited, auditOf } from '../../http/audited.js';

export interface AwardRouteDeps {
  em: EntityManager;
  secret: string;
  publicUrl: string;
  onOutbox?: () => void;
  /** Addresses given with votes, per network. */
  addressLimiter: Limiter;
  /**
   * One point per network and address and hour: an address given again from the same network (the
   * next car, a second try) does not count as new there, whether or not it is stored.
   */
  addressSeenLimiter: Limiter;
  /** Votes cast and taken back, per network. */
  voteLimiter: Limiter;
  /** Whether the voter cookie is sent over HTTPS only. */
  secureCookies: boolean;
  /** How many votes run at once (a default per process when unset). */
  voteSlots?: VoteSlots;
}

/** The voter cookie: a signed voter id, separate from the session, for this browser's confirmed address. */
export const VOTER_COOKIE = 'st_voter';
const VOTER_COOKIE_DAYS = 60;
/**
 * A random value naming this browser (nothing else) while its votes wait for their address's
 * confirmation: the votes remember its hash, and the confirm page counts that browser's votes.
 */
export const VOTE_BROWSER_COOKIE = 'st_vote_browser';
const VOTE_BROWSER_DAYS = 7;
const BROWSER_VALUE = /^[A-Za-z0-9_-]{24}$/;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

function yearOf(ctx: AppContext): number {
  const raw = ctx.params.year ?? '';
  if (!/^\d{4}$/.test(raw)) throw invalid(EDITION_MESSAGES.yearParam);
  return Number(raw);
}

function startNumberOf(ctx: AppContext): number {
  const raw = ctx.params.startNumber ?? '';
  if (!/^\d{1,6}$/.test(raw)) throw invalid(AWARD_MESSAGES.startNumber);
  return Number(raw);
}

/** One point for the network; over the limit a 429 with the German message. */
async function consumeFor(limiter: Limiter, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes)
      throw limitReached(message, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/**
 * Votes held to a few at once per api process, so a meeting day's spike of votes never takes the
 * database connections the gate's routes need (the pool holds 10): beyond `running` they wait in
 * arrival order, beyond `waiting` more they are asked to try again in a moment.
 */
export class VoteSlots {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly running = 4,
    private readonly waiting = 500,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) throw limitReached(AWARD_MESSAGES.busy, 2);
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

const tokenOf = (ctx: AppContext): unknown => (ctx.request.body as { token?: unknown } | undefined)?.token;

export function awardRoutes(deps: AwardRouteDeps): Router<AppState> {
  const { em } = deps;
  const award = new AwardService(em, {
    secret: deps.secret,
    publicUrl: deps.publicUrl,
    onOutbox: deps.onOutbox,
  });
  const router = strictRouter<AppState>();
  const slots = deps.voteSlots ?? new VoteSlots();

  /**
   * The per-network limit of new addresses, counting a mailbox once per network and hour. Whether
   * it counts depends only on what this network sent, never on what is stored, so the limit tells
   * nobody whether an address voted.
   */
  const newAddressFrom = async (network: string, email: string) => {
    const pair = `${network}:${sha256Hex(mailboxOf(email))}`;
    const seen = await deps.addressSeenLimiter.consume(pair).then(
      () => false,
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return true;
        throw error;
      },
    );
    if (seen) return;
    try {
      await consumeFor(deps.addressLimiter, network, AWARD_MESSAGES.tooManyAddresses);
    } catch (error) {
      await deps.addressSeenLimiter.delete(pair);
      throw error;
    }
  };

  /** Who votes in this request: the voter cookie's id, and a signed-in account with a verified address. */
  const whoOf = (ctx: AppContext) => {
    const user = ctx.state.user;
    return {
      voterId: award.voterOfCookie(ctx.cookies.get(VOTER_COOKIE)),
      account: user?.emailVerified ? { email: user.email } : null,
    };
  };
  const noStore = (ctx: AppContext) => ctx.set('Cache-Control', 'no-store');
  /** The browser's own random value, if it has a well-formed one. */
  const browserOf = (ctx: AppContext): string | null => {
    const value = ctx.cookies.get(VOTE_BROWSER_COOKIE);
    return value && BROWSER_VALUE.test(value) ? value : null;
  };
  /** What the votes remember of the browser: its value's hash. */
  const browserHashOf = (ctx: AppContext): string | null => {
    const value = browserOf(ctx);
    return value && sha256Hex(value);
  };
  const browserCookie = (ctx: AppContext, value: string | null) =>
    ctx.cookies.set(VOTE_BROWSER_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      maxAge: value ? VOTE_BROWSER_DAYS * 24 * 3600 * 1000 : undefined,
      overwrite: true,
    });

  router.get('/award/:year/me', async (ctx) => {
    noStore(ctx);
    ctx.body = await award.me(yearOf(ctx), whoOf(ctx), requestNow(ctx));
  });

  router.post('/award/:year/votes', async (ctx) => {
    const year = yearOf(ctx);
    const input = validate(AwardVoteSchema, ctx.request.body);
    const network = networkOf(ctx.ip);
    await consumeFor(deps.voteLimiter, network, AWARD_MESSAGES.tooManyVotes);
    const browser = browserOf(ctx) ?? randomBytes(18).toString('base64url');
    const who = { ...whoOf(ctx), browser: sha256Hex(browser) };
    const result = await slots.run(() =>
      award.vote(year, input, who, network, requestNow(ctx), () =>
        newAddressFrom(network, input.email ?? ''),
      ),
    );
    if (result.status === 'pending') browserCookie(ctx, browser);
    noStore(ctx);
    ctx.status = result.status === 'counted' ? 201 : 202;
    ctx.body = result;
  });

  router.delete('/award/:year/votes/:startNumber', async (ctx) => {
    const year = yearOf(ctx);
    const startNumber = startNumberOf(ctx);
    const network = networkOf(ctx.ip);
    await consumeFor(deps.voteLimiter, network, AWARD_MESSAGES.tooManyVotes);
    noStore(ctx);
    ctx.body = await slots.run(() => award.withdraw(year, startNumber, whoOf(ctx), network, requestNow(ctx)));
  });

  // What the confirm page lists before its button (reads only; the token stays out of the address).
  router.post('/award/confirm/pending', async (ctx) => {
    const pending = await award.pendingVotes(tokenOf(ctx), browserHashOf(ctx));
    if (!pending) throw invalid(AWARD_MESSAGES.linkInvalid);
    noStore(ctx);
    ctx.body = pending;
  });

  // The confirm page's button (a GET of the mailed link only opens the page, which changes nothing).
  router.post('/award/confirm', async (ctx) => {
    const input = validate(AwardConfirmSchema, ctx.request.body);
    const browser = browserHashOf(ctx);
    const confirmed = await award.confirm(input.token, requestNow(ctx), {
      browser,
      startNumbers: input.startNumbers,
    });
    if (!confirmed) throw invalid(AWARD_MESSAGES.linkInvalid);
    if (browser) browserCookie(ctx, null);
    const kept = {
      sameSite: 'lax',
      secure: deps.secureCookies,
      maxAge: VOTER_COOKIE_DAYS * 24 * 3600 * 1000,
    } as const;
    ctx.cookies.set(VOTER_COOKIE, award.voterCookie(confirmed.voterId), {
      ...kept,
      httpOnly: true,
      overwrite: true,
    });
    ctx.cookies.set(AWARD_VOTER_HINT_COOKIE, '1', { ...kept, httpOnly: false, overwrite: true });
    noStore(ctx);
    ctx.body = confirmed.result;
  });

  // 'Meine Stimmen herunterladen' and 'Meine Stimmen löschen' of the mailed link's page.
  router.post('/award/my-votes/export', async (ctx) => {
    const data = await award.exportVoter(tokenOf(ctx));
    if (!data) throw invalid(AWARD_MESSAGES.linkInvalid);
    noStore(ctx);
    ctx.set('Content-Disposition', 'attachment; filename="meine-stimmen.json"');
    ctx.body = data;
  });

  router.post('/award/my-votes/delete', async (ctx) => {
    if (!(await award.deleteByLink(tokenOf(ctx), requestNow(ctx)))) throw invalid(AWARD_MESSAGES.linkInvalid);
    ctx.cookies.set(VOTER_COOKIE, null, { httpOnly: true, sameSite: 'lax', secure: deps.secureCookies });
    ctx.cookies.set(AWARD_VOTER_HINT_COOKIE, null, {
      httpOnly: false,
      sameSite: 'lax',
      secure: deps.secureCookies,
    });
    ctx.body = { message: AWARD_MESSAGES.deleted } satisfies ServerMessage;
  });

  const admin = requireRole('admin');
  const target = (ctx: AppContext) => ctx.params.year;

  router.get('/admin/award/:year', admin, async (ctx) => {
    noStore(ctx);
    ctx.body = (await awardAdminView(em.fork(), yearOf(ctx), requestNow(ctx))) satisfies AwardAdminView;
  });

  router.post('/admin/award/:year/open', admin, audited('award.open', { target }), async (ctx) => {
    const year = yearOf(ctx);
    await openAward(em.fork(), year, requestNow(ctx), (tx) => auditOf(ctx).record(tx));
    ctx.body = { message: AWARD_MESSAGES.opened } satisfies ServerMessage;
  });

  router.post('/admin/award/:year/close', admin, audited('award.close', { target }), async (ctx) => {
    const year = yearOf(ctx);
    const { closedNow } = await closeAward(em.fork(), year, requestNow(ctx), (tx) => auditOf(ctx).record(tx));
    if (!closedNow) await auditOf(ctx).write(em, { details: { alreadyClosed: true } });
    deps.onOutbox?.();
    ctx.body = { message: AWARD_MESSAGES.closedNow } satisfies ServerMessage;
  });

  router.patch('/admin/award/:year', admin, audited('award.schedule', { target }), async (ctx) => {
    const year = yearOf(ctx);
    const input = validate(AwardMomentsSchema, ctx.request.body);
    await setAwardMoments(
      em.fork(),
      year,
      {
        opensAt: input.opensAt ? new Date(input.opensAt) : null,
        closesAt: input.closesAt ? new Date(input.closesAt) : null,
      },
      requestNow(ctx),
      (tx) => auditOf(ctx).record(tx, { details: { opensAt: input.opensAt, closesAt: input.closesAt } }),
    );
    ctx.body = { message: AWARD_MESSAGES.saved } satisfies ServerMessage;
  });

  // An admin's correction of the final totals (a past edition's too): a car's votes, with a reason.
  router.post('/admin/award/:year/correction', admin, audited('award.correct', { target }), async (ctx) => {
    const year = yearOf(ctx);
    const input = validate(AwardCorrectionSchema, ctx.request.body);
    await correctAwardResult(em.fork(), year, input, requestNow(ctx), auditOf(ctx));
    deps.onOutbox?.();
    ctx.body = { message: AWARD_MESSAGES.corrected } satisfies ServerMessage;
  });

  return router;
}
