import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../model/user.entity.js';
import { setAutoMoveUp } from '../settings/settings.js';
import { placesOverview } from './places-overview.js';
import { placesAt, type PlacesSource } from './places.js';
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

  async overview(now = new Date()) {
    return placesOverview(this.em, await placesAt(this.options.places, now), now);
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

  async invite(admin: User, vehicleId: string): Promise<MovedUp> {
    const invited = await inviteFromWaitlist(
      this.em,
      await placesAt(this.options.places, new Date()),
      admin,
      vehicleId,
    );
    this.options.onOutbox?.();
    return invited;
  }
}
