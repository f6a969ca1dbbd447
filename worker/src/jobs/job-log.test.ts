import { configureLogger, currentRequestId } from '@schlosstreffen/api/core';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureLogged, withJobLog } from './job-log.js';

const written: string[] = [];
const logged = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeEach(() => {
  written.length = 0;
  configureLogger(
    { level: 'info', format: 'json' },
    { destination: { write: (line) => void written.push(line) } },
  );
});
afterEach(() =>
  configureLogger({ level: 'silent', format: 'json' }, { destination: { write: () => undefined } }),
);

/** A job as BullMQ hands it to the processor: name, id, data, attempts. */
const job = (data: Record<string, unknown>, attemptsMade = 0) =>
  ({ name: 'email.send', id: 'job-1', data, attemptsMade, opts: { attempts: 3 } }) as unknown as Job;

describe('withJobLog', () => {
  it('runs the job under the request id it came with and ends with one line naming its outcome, not its data', async () => {
    let seen: string | undefined;
    const result = await withJobLog(async () => {
      seen = currentRequestId();
      return { status: 'refused', recipient: 'lena@example.de' };
    })(job({ requestId: 'abc-123', to: 'lena@example.de' }));
    expect(result).toEqual({ status: 'refused', recipient: 'lena@example.de' });
    expect(seen).toBe('abc-123');
    expect(logged()).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'job done',
        job: 'email.send',
        jobId: 'job-1',
        attempt: 1,
        durationMs: expect.any(Number),
        outcome: 'refused',
        requestId: 'abc-123',
      }),
    ]);
    expect(written.join('')).not.toContain('lena@example.de');
  });

  it('runs a job that came without a request id under its own id', async () => {
    let seen: string | undefined;
    await withJobLog(async () => {
      seen = currentRequestId();
    })(job({}));
    expect(seen).toBe('job-1');
    expect(logged()[0]).toMatchObject({ requestId: 'job-1' });
    expect(logged()[0]).not.toHaveProperty('outcome');
  });

  it('logs a failure as a warning while it is retried and as an error the last time, scrubbed', async () => {
    const fail = withJobLog(async () => {
      throw new Error('550 5.1.1 <lena@example.de>: no such user');
    });
    const first = await fail(job({ requestId: 'abc-123' })).catch((error: unknown) => error);
    await expect(fail(job({ requestId: 'abc-123' }, 2))).rejects.toThrow('550');
    const [retried, last] = logged();
    expect(retried).toMatchObject({
      level: 'warn',
      msg: 'job failed',
      attempt: 1,
      last: false,
      requestId: 'abc-123',
    });
    expect(last).toMatchObject({ level: 'error', attempt: 3, last: true });
    expect((retried!.err as { message: string }).message).toBe('550 5.1.1 <[email]>: no such user');
    expect(written.join('')).not.toContain('lena@example.de');
    // The worker's own 'failed' event leaves it be.
    expect(failureLogged(first)).toBe(true);
    expect(failureLogged(new Error('stalled'))).toBe(false);

    written.length = 0;
    await expect(
      withJobLog(async () => {
        throw new UnrecoverableError('invalid email.send job');
      })(job({})),
    ).rejects.toThrow(UnrecoverableError);
    expect(logged()[0]).toMatchObject({ level: 'error', last: true });
  });

  it('says when a job was put back to wait rather than failed', async () => {
    await expect(
      withJobLog(async () => {
        throw new DelayedError();
      })(job({ requestId: 'abc-123' })),
    ).rejects.toThrow(DelayedError);
    expect(logged()).toEqual([expect.objectContaining({ level: 'info', msg: 'job put back' })]);
  });
});
