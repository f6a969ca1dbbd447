import * as v from 'valibot';
import { MESSAGES } from '../messages.js';

export type FieldIssue = { field: string; message: string };

/** Flattens valibot issues into field issues; `field` is the dot-joined path ('' for the root). */
export function flattenIssues(issues: readonly v.BaseIssue<unknown>[]): FieldIssue[] {
  return issues.map((issue) => ({
    field: (issue.path ?? []).map((item) => String(item.key)).join('.'),
    message: issue.message,
  }));
}

/**
 * Message function for an object schema: a missing key reads like its entry's own message for
 * `undefined` (valibot would otherwise report an English "Invalid key"); anything that is not an
 * object gets the generic bad-request message.
 */
function missingFieldMessage(entries: v.ObjectEntries): (issue: v.ObjectIssue) => string {
  return (issue) => {
    const key = issue.path?.[0]?.key;
    const entry = typeof key === 'string' && Object.hasOwn(entries, key) ? entries[key] : undefined;
    return (entry && v.safeParse(entry, undefined).issues?.[0]?.message) || MESSAGES.badRequest;
  };
}

/** `v.object` whose missing keys carry the entries' German messages. */
export function fieldObject<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object(entries, missingFieldMessage(entries));
}
