import { createHash } from 'node:crypto';

export const sha256Hex = (data: Uint8Array | string): string =>
  createHash('sha256').update(data).digest('hex');

/**
 * Counts the lines met under one key, so that otherwise identical lines (two payers paying the
 * same amount on the same day without any reference) keep distinct identities, and the same file
 * read again gives each the same one.
 */
export class OccurrenceCounter {
  private readonly seen = new Map<string, number>();

  next(key: string): number {
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    return n;
  }
}
