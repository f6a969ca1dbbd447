import { AWARD_MESSAGES } from '@schlosstreffen/shared';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors.js';
import { VoteSlots } from './award.routes.js';

describe('the vote slots', () => {
  it('run at most `running` votes at once, the rest in arrival order, and refuse beyond the queue', async () => {
    const slots = new VoteSlots(2, 3);
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const vote = (id: number) =>
      slots.run(async () => {
        active += 1;
        most = Math.max(most, active);
        order.push(id);
        await new Promise<void>((resolve) => releases.push(resolve));
        active -= 1;
        return id;
      });
    const running = [1, 2, 3, 4, 5].map(vote);
    const refused = await vote(6).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'rate_limited', message: AWARD_MESSAGES.busy });
    while (releases.length || order.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(running)).toEqual([1, 2, 3, 4, 5]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    // Free again: a vote runs at once.
    expect(await slots.run(async () => 'frei')).toBe('frei');
  });
});
