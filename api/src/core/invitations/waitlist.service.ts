import type { EntityManager } from '@mikro-orm/postgresql';
import type { PendingAudit } from '../pending-audit.js';
import type { User } from '../model/user.entity.js';
import { conflictsOn, scoresVisibleTo } from '../reviews/reviews.js';
import { setAutoMoveUp } from '../settings/settings.js';
import { placesOverview } from './places-overview.js';
import { chosenEdition } from '../editions/edition-events.js';
import { placesAt, type PlacesOptions, type PlacesSource } from './places.js';
import { advanceWaitlist, inviteFromWaitlist, type MovedUp } from './waitlist.js';

export interface WaitlistServiceOptions {
  places: PlacesSource;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
  /** The app's clock: an edition that is over invites nobody from its waitlist. */
  now?: () => Date;
}

/** The staff's side of moving up: the overview, the automatic switch, inviting a suggested vehicle. */
export class WaitlistService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: WaitlistServiceOptions,
  ) {}

  /**
   * Moving up in the edition of `year` (the current one when absent), as `viewer` may see it: the
   * order always, a candidate's score only under blind review, and which candidates they may not
   * invite (their own, or of a person they declared a bias towards).
   */
  async overview(viewer: User, year?: number, now = new Date()) {
    const view = await placesOverview(this.em, await this.placesIn(year, now), now);
    const ids = view.candidates.map((candidate) => candidate.vehicleId);
    const visible = await scoresVisibleTo(this.em, viewer, ids);
    const conflicts = await conflictsOn(this.em, viewer, ids);
    return {
      ...view,
      candidates: view.candidates.map((candidate) => {
        const hidden = !visible.has(candidate.vehicleId) && candidate.score !== null;
        return {
          ...candidate,
          score: hidden ? null : candidate.score,
          scoreHidden: hidden,
          conflict: conflicts.get(candidate.vehicleId) ?? null,
        };
      }),
    };
  }

  private async placesIn(year: number | undefined, at: Date): Promise<PlacesOptions> {
    const { publicUrl, secret } = this.options.places;
    return { event: await chosenEdition(this.options.places.events, year, at), publicUrl, secret };
  }

  /**
   * Switches automatic moving up (and records `audit` with it); switched on, places given up while
   * it was off are passed on now.
   */
  async setAutoMoveUp(enabled: boolean, audit?: PendingAudit): Promise<void> {
    await this.em.transactional(async (tx) => {
      await setAutoMoveUp(tx, enabled);
      audit?.record(tx, { details: { autoMoveUp: enabled } });
    });
    if (!enabled) return;
    const report = await advanceWaitlist(
      this.em,
      await placesAt(this.options.places, new Date()),
      new Date(),
    );
    if (report.invited.length) this.options.onOutbox?.();
  }

  /** Invites a waitlisted vehicle of the edition of `year` (the current one when absent). */
  async invite(admin: User, vehicleId: string, year?: number): Promise<MovedUp> {
    const at = this.options.now?.() ?? new Date();
    const invited = await inviteFromWaitlist(this.em, await this.placesIn(year, at), admin, vehicleId, at);
    this.options.onOutbox?.();
    return invited;
  }
}
