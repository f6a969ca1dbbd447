import { describe, expect, it } from 'vitest';
import { planBalance, type BalanceState } from './balance.js';

const apps = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `v${i}`, ownerId: `o${i}` }));

function state(overrides: Partial<BalanceState>): BalanceState {
  const reviewers = overrides.reviewers ?? ['r1', 'r2', 'r3'];
  return {
    perApplication: 2,
    reviewers,
    staff: new Set([...reviewers, 'admin']),
    applications: apps(6),
    conflicts: new Map(),
    assignments: [],
    ...overrides,
  };
}

/** Open reviews per reviewer after the plan (existing ones moved, removed ones gone, new ones added). */
function openAfter(s: BalanceState) {
  const plan = planBalance(s);
  const gone = new Set(plan.remove);
  const moved = new Map(plan.move.map((m) => [m.id, m.to]));
  const open = [
    ...s.assignments
      .filter((a) => !a.submitted && !gone.has(a.id))
      .map((a) => ({ vehicleId: a.vehicleId, reviewerId: moved.get(a.id) ?? a.reviewerId! })),
    ...plan.add,
  ];
  const load = new Map<string, number>();
  for (const o of open) load.set(o.reviewerId, (load.get(o.reviewerId) ?? 0) + 1);
  return { plan, open, load };
}

describe('planBalance', () => {
  it('gives each application its number of reviewers, evenly', () => {
    const { open, load } = openAfter(state({}));
    expect(open).toHaveLength(12);
    expect([...load.values()]).toEqual([4, 4, 4]);
  });

  it('never moves a submitted review or one an admin assigned; a deleted reviewer’s submitted review still counts', () => {
    const s = state({
      applications: apps(2),
      assignments: [
        { id: 'a1', vehicleId: 'v0', reviewerId: 'admin', submitted: false, manual: true },
        { id: 'a2', vehicleId: 'v0', reviewerId: null, submitted: true, manual: false },
        { id: 'a3', vehicleId: 'v1', reviewerId: 'r1', submitted: true, manual: false },
      ],
    });
    const { plan, open } = openAfter(s);
    expect(plan.remove).toEqual([]);
    expect(plan.move).toEqual([]);
    // v0 is full (admin + the deleted reviewer's review); v1 gets one more, not r1.
    expect(plan.add).toHaveLength(1);
    expect(plan.add[0]!.vehicleId).toBe('v1');
    expect(plan.add[0]!.reviewerId).not.toBe('r1');
    expect(open.filter((o) => o.vehicleId === 'v0')).toEqual([{ vehicleId: 'v0', reviewerId: 'admin' }]);
  });

  it('drops open reviews of a reviewer who declared bias or left, and of applications no longer in review', () => {
    const s = state({
      applications: apps(1),
      reviewers: ['r1', 'r2', 'r3'],
      conflicts: new Map([['r1', new Set(['o0'])]]),
      assignments: [
        { id: 'a1', vehicleId: 'v0', reviewerId: 'r1', submitted: false, manual: false },
        { id: 'a2', vehicleId: 'v0', reviewerId: 'gone', submitted: false, manual: false },
        { id: 'a3', vehicleId: 'v9', reviewerId: 'r2', submitted: false, manual: false },
      ],
    });
    const { plan, open } = openAfter(s);
    expect(plan.remove.sort()).toEqual(['a1', 'a2', 'a3']);
    expect(open.map((o) => o.reviewerId).sort()).toEqual(['r2', 'r3']);
  });

  it('lowering the number removes the most loaded reviewer’s open review', () => {
    const s = state({
      perApplication: 1,
      applications: apps(1),
      assignments: [
        { id: 'a1', vehicleId: 'v0', reviewerId: 'r1', submitted: false, manual: false },
        { id: 'a2', vehicleId: 'v0', reviewerId: 'r2', submitted: false, manual: false },
      ],
    });
    const { plan, open } = openAfter(s);
    expect(plan.remove).toHaveLength(1);
    expect(open).toHaveLength(1);
  });

  it('cannot even out what bias forbids: the loads stay as close as the rule allows', () => {
    // r1 is biased towards every owner: everything goes to r2 and r3.
    const s = state({
      perApplication: 1,
      conflicts: new Map([['r1', new Set(apps(6).map((a) => a.ownerId))]]),
    });
    const { load } = openAfter(s);
    expect(load.get('r1')).toBeUndefined();
    expect([load.get('r2'), load.get('r3')]).toEqual([3, 3]);
  });

  it('never gives an application back to a reviewer whose review of it a bias ended, nor moves one there', () => {
    // r1's review of v0 ended with a bias that is withdrawn now: v0 goes to r2 and r3, whatever the loads.
    const s = state({
      applications: apps(3),
      excluded: new Map([['v0', new Set(['r1'])]]),
      assignments: [
        { id: 'a1', vehicleId: 'v1', reviewerId: 'r2', submitted: false, manual: false },
        { id: 'a2', vehicleId: 'v1', reviewerId: 'r3', submitted: false, manual: false },
        { id: 'a3', vehicleId: 'v2', reviewerId: 'r2', submitted: false, manual: false },
        { id: 'a4', vehicleId: 'v2', reviewerId: 'r3', submitted: false, manual: false },
      ],
    });
    const { open } = openAfter(s);
    expect(
      open
        .filter((o) => o.vehicleId === 'v0')
        .map((o) => o.reviewerId)
        .sort(),
    ).toEqual(['r2', 'r3']);
    // An admin's assignment of an excluded pair goes too.
    const manual = state({
      applications: apps(1),
      excluded: new Map([['v0', new Set(['admin'])]]),
      assignments: [{ id: 'a1', vehicleId: 'v0', reviewerId: 'admin', submitted: false, manual: true }],
    });
    expect(planBalance(manual).remove).toEqual(['a1']);
  });

  it('gives an application as many reviewers as are eligible when owners, biases and exclusions leave fewer', () => {
    // Three reviewers, three per application: r1 owns v0, r2 is biased towards its owner, r3 was excluded.
    const s = state({
      perApplication: 3,
      applications: [{ id: 'v0', ownerId: 'r1' }, ...apps(3).slice(1)],
      conflicts: new Map([['r2', new Set(['r1'])]]),
      excluded: new Map([['v0', new Set(['r3'])]]),
    });
    const { open } = openAfter(s);
    expect(open.filter((o) => o.vehicleId === 'v0')).toEqual([]);
    expect(open.filter((o) => o.vehicleId === 'v1')).toHaveLength(3);
    // With one reviewer eligible, that one reviews it.
    const one = state({
      perApplication: 2,
      applications: [{ id: 'v0', ownerId: 'r1' }],
      excluded: new Map([['v0', new Set(['r3'])]]),
    });
    expect(openAfter(one).open).toEqual([{ vehicleId: 'v0', reviewerId: 'r2' }]);
  });
});
