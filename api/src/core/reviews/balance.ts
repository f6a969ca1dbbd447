/**
 * Who reviews which application: a plan computed from the edition's state, pure so that it can be
 * reasoned about and tested at scale. Each application in review gets `perApplication` reviewers,
 * never its owner, never a reviewer who declared bias towards the owner and never one whose review of
 * it a bias ended (fewer when no one else is left: 'unterbesetzt'); new reviews go to whoever
 * has the fewest open ones; then open reviews move from the most to the least loaded reviewer until
 * the open loads differ by at most one (or no allowed move is left). A submitted review never moves,
 * nor does one an admin assigned by hand.
 */

export interface BalanceState {
  perApplication: number;
  /** Reviewers who take reviews. */
  reviewers: readonly string[];
  /** Everyone who may review when an admin assigns them (reviewers and admins). */
  staff: ReadonlySet<string>;
  /** Applications in review, in order of arrival. */
  applications: ReadonlyArray<{ id: string; ownerId: string }>;
  /** Reviewer id → ids of the people they are biased towards. */
  conflicts: ReadonlyMap<string, ReadonlySet<string>>;
  /** Application id → reviewers whose open review of it a bias ended: never assigned it again. */
  excluded?: ReadonlyMap<string, ReadonlySet<string>>;
  assignments: ReadonlyArray<{
    id: string;
    vehicleId: string;
    reviewerId: string | null;
    submitted: boolean;
    /** Assigned by an admin: stays where it is. */
    manual: boolean;
  }>;
}

export interface BalancePlan {
  /** Open assignments that go: their application left review, or their reviewer may no longer take it. */
  remove: string[];
  add: Array<{ vehicleId: string; reviewerId: string }>;
  /** Open assignments that move to another reviewer. */
  move: Array<{ id: string; to: string }>;
}

interface Open {
  /** An existing assignment's id; undefined for one this plan adds. */
  id?: string;
  vehicleId: string;
  reviewerId: string;
  movable: boolean;
}

export function planBalance(state: BalanceState): BalancePlan {
  const owners = new Map(state.applications.map((a) => [a.id, a.ownerId]));
  const reviewers = new Set(state.reviewers);
  const may = (reviewerId: string, vehicleId: string): boolean => {
    const owner = owners.get(vehicleId);
    return owner !== undefined && reviewers.has(reviewerId) && eligible(state, reviewerId, vehicleId, owner);
  };

  const remove: string[] = [];
  /** Per application, who is on it (submitted reviews included). */
  const on = new Map<string, Set<string>>();
  const opens: Open[] = [];
  const load = new Map<string, number>(state.reviewers.map((id) => [id, 0]));
  const total = new Map<string, number>(state.reviewers.map((id) => [id, 0]));
  const join = (vehicleId: string, reviewerId: string) => {
    const set = on.get(vehicleId) ?? new Set<string>();
    set.add(reviewerId);
    on.set(vehicleId, set);
  };

  for (const a of state.assignments) {
    if (a.submitted) {
      if (a.reviewerId) {
        join(a.vehicleId, a.reviewerId);
        total.set(a.reviewerId, (total.get(a.reviewerId) ?? 0) + 1);
      } else if (owners.has(a.vehicleId)) {
        // A deleted reviewer's submitted review still counts as one of the application's reviews.
        join(a.vehicleId, `deleted:${a.id}`);
      }
      continue;
    }
    // An open review whose application is no longer in review, or whose reviewer may not take it.
    const allowed =
      a.reviewerId !== null &&
      owners.has(a.vehicleId) &&
      (may(a.reviewerId, a.vehicleId) ||
        (a.manual &&
          state.staff.has(a.reviewerId) &&
          eligible(state, a.reviewerId, a.vehicleId, owners.get(a.vehicleId)!)));
    if (!allowed) {
      remove.push(a.id);
      continue;
    }
    const reviewerId = a.reviewerId!;
    join(a.vehicleId, reviewerId);
    opens.push({ id: a.id, vehicleId: a.vehicleId, reviewerId, movable: !a.manual });
    if (load.has(reviewerId)) {
      load.set(reviewerId, load.get(reviewerId)! + 1);
      total.set(reviewerId, total.get(reviewerId)! + 1);
    }
  }

  // Too many reviewers on an application (the number was lowered): the open reviews of the most loaded go.
  for (const app of state.applications) {
    const set = on.get(app.id);
    if (!set || set.size <= state.perApplication) continue;
    const mine = opens
      .filter((o) => o.vehicleId === app.id && o.movable)
      .sort((x, y) => (load.get(y.reviewerId) ?? 0) - (load.get(x.reviewerId) ?? 0));
    for (const o of mine) {
      if (set.size <= state.perApplication) break;
      set.delete(o.reviewerId);
      opens.splice(opens.indexOf(o), 1);
      remove.push(o.id!);
      if (load.has(o.reviewerId)) load.set(o.reviewerId, load.get(o.reviewerId)! - 1);
    }
  }

  const order = (a: string, b: string) =>
    load.get(a)! - load.get(b)! || total.get(a)! - total.get(b)! || (a < b ? -1 : a > b ? 1 : 0);

  // Fill: each application up to its number, from the least loaded allowed reviewers.
  for (const app of state.applications) {
    const set = on.get(app.id) ?? new Set<string>();
    on.set(app.id, set);
    let need = state.perApplication - set.size;
    if (need <= 0) continue;
    const candidates = state.reviewers.filter((r) => !set.has(r) && may(r, app.id)).sort(order);
    for (const reviewerId of candidates) {
      if (need-- <= 0) break;
      set.add(reviewerId);
      opens.push({ vehicleId: app.id, reviewerId, movable: true });
      load.set(reviewerId, load.get(reviewerId)! + 1);
      total.set(reviewerId, total.get(reviewerId)! + 1);
    }
  }

  // Even out: move an open review from a reviewer with at least two more than another to that one.
  const moved = new Map<Open, string>();
  for (;;) {
    const byLoad = [...state.reviewers].sort(order);
    let done = false;
    search: for (let hi = byLoad.length - 1; hi > 0; hi--) {
      for (let lo = 0; lo < hi; lo++) {
        const from = byLoad[hi]!;
        const to = byLoad[lo]!;
        if (load.get(from)! - load.get(to)! < 2) continue;
        // The newest open review that may go to `to`.
        for (let i = opens.length - 1; i >= 0; i--) {
          const o = opens[i]!;
          if (o.reviewerId !== from || !o.movable) continue;
          const set = on.get(o.vehicleId)!;
          if (set.has(to) || !may(to, o.vehicleId)) continue;
          set.delete(from);
          set.add(to);
          o.reviewerId = to;
          if (o.id) moved.set(o, to);
          load.set(from, load.get(from)! - 1);
          load.set(to, load.get(to)! + 1);
          total.set(from, total.get(from)! - 1);
          total.set(to, total.get(to)! + 1);
          done = true;
          break search;
        }
      }
    }
    if (!done) break;
  }

  return {
    remove,
    add: opens.filter((o) => !o.id).map((o) => ({ vehicleId: o.vehicleId, reviewerId: o.reviewerId })),
    move: [...moved].map(([o, to]) => ({ id: o.id!, to })),
  };
}

/**
 * Whether a person may review the application at all: not its owner, not biased towards the owner,
 * not excluded by a bias that ended their review of it. (An admin may also assign staff who are not
 * reviewers, e.g. themselves; the same rule holds for them.)
 */
function eligible(state: BalanceState, reviewerId: string, vehicleId: string, ownerId: string): boolean {
  return (
    reviewerId !== ownerId &&
    !state.conflicts.get(reviewerId)?.has(ownerId) &&
    !state.excluded?.get(vehicleId)?.has(reviewerId)
  );
}
