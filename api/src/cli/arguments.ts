/** Reading the CLI's options. */
import { loadClock } from '../core/config.js';

/** The value after `flag`, undefined without the flag. */
export function optionValue(args: string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : (args[index + 1] ?? '');
}

/**
 * The moment after `flag` (an ISO date or date and time), without the flag now by the app's clock
 * (APP_CLOCK); null when malformed.
 */
export function momentArgument(args: string[], flag: string): Date | null {
  const value = optionValue(args, flag);
  if (value === undefined) return loadClock()();
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
