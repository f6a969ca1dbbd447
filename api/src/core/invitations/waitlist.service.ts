import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../model/user.entity.js';
import { setAutoMoveUp } from '../settings/settings.js';
import { placesOverview } from './places-overview.js';
import { chosenEdition } from '../editions/edition-events.js';
import { placesAt, type PlacesOptions, type PlacesSource } from './places.js';
import { advanceWaitlist, inviteFromWaitlist, type MovedUp } from './waitlist.js';

export interface WaitlistServiceOptions {
  places: PlacesSource;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
}

/** The staff's side of moving up: the overview, the automatic switch, inviting a suggested vehicle. */
export class WaitlistService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: WaitlistServiceOptions,
  ) {}

  /** Moving up in the edition of `year` (the current one when absent). */
  async overview(year?: number, now = new Date()) {
    return placesOverview(this.em, await this.placesIn(year, now), now);
  }

  private async placesIn(year: number | undefined, at: Date): Promise<PlacesOptions> {
    const { publicUrl, secret } = this.options.places;
    return { event: await chosenEdition(this.options.places.events, year, at), publicUrl, secret };
  }

  /** Switches automatic moving up; switched on, places given up while it was off are passed on now. */
  async setAutoMoveUp(enabled: boolean): Promise<void> {
    await setAutoMoveUp(this.em, enabled);
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
    const invited = await inviteFromWaitlist(
      this.em,
      await this.placesIn(year, new Date()),
      admin,
      vehicleId,
    );
    this.options.onOutbox?.();
    return invited;
  }
}
