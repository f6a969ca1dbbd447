/**
 * The event an edition describes, and the environment variables that describe the first one: they
 * seed the first edition of an empty database; afterwards admins manage editions.
 */
import * as v from 'valibot';
import { EVENT_END_INSTANT, EVENT_START_INSTANT } from './constants.js';
import { venueMidnight } from './gate-window.js';

const days = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.integer(), v.minValue(0));

/** The first edition's facts: the spec's values are the defaults. */
export const EventEnvSchema = v.object({
  EVENT_NAME: v.optional(v.string(), 'Schlosstreffen'),
  EVENT_START: v.optional(v.pipe(v.string(), v.isoTimestamp()), EVENT_START_INSTANT),
  EVENT_END: v.optional(v.pipe(v.string(), v.isoTimestamp()), EVENT_END_INSTANT),
  /** When the gates start taking scans; 00:00 at the venue on the event's first day when unset. */
  GATE_OPENS_AT: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  EVENT_PLACE: v.optional(v.string(), 'Schlosspark, Sachsen'),
  APPLICATION_DEADLINE: v.optional(v.pipe(v.string(), v.isoDate()), '2026-03-31'),
  /** Parking zones in order of allocation, `name:capacity` pairs. */
  PARKING_ZONES: v.optional(v.pipe(v.string(), v.regex(/^[^:,]+:\d+(,[^:,]+:\d+)*$/)), 'A:30,B:25,C:15'),
  /** Days an owner has to confirm an invitation after it was issued. */
  INVITATION_CONFIRM_DAYS: days(14),
  /** No confirm-by date lies later than this many days before the event; the waitlist stops moving then. */
  INVITATION_CUTOFF_DAYS: days(14),
  /** The reminder mail goes out this many days before the confirm-by date (0: none). */
  INVITATION_REMINDER_DAYS: days(3),
});

/** Deadlines of invitations, in days (see the env variables of the same names). */
export interface InvitationRules {
  confirmDays: number;
  cutoffDays: number;
  reminderDays: number;
}

export interface EventConfig {
  name: string;
  start: Date;
  end: Date;
  /** The gate window runs from here to `end` (a clock tolerance either side): scans outside are refused. */
  gateOpensAt: Date;
  place: string;
  /** The last day of applications, `YYYY-MM-DD` at the venue. */
  applicationDeadline: string;
  parkingZones: Array<{ name: string; capacity: number }>;
  invitations: InvitationRules;
}

export function eventOf(e: v.InferOutput<typeof EventEnvSchema>): EventConfig {
  return {
    name: e.EVENT_NAME,
    start: new Date(e.EVENT_START),
    end: new Date(e.EVENT_END),
    gateOpensAt: e.GATE_OPENS_AT ? new Date(e.GATE_OPENS_AT) : venueMidnight(new Date(e.EVENT_START)),
    place: e.EVENT_PLACE,
    applicationDeadline: e.APPLICATION_DEADLINE,
    parkingZones: e.PARKING_ZONES.split(',').map((pair) => {
      const [name = '', capacity = '0'] = pair.split(':');
      return { name: name.trim(), capacity: Number(capacity) };
    }),
    invitations: {
      confirmDays: e.INVITATION_CONFIRM_DAYS,
      cutoffDays: e.INVITATION_CUTOFF_DAYS,
      reminderDays: e.INVITATION_REMINDER_DAYS,
    },
  };
}

/** The event the environment variables describe; throws naming the variables that are invalid. */
export function eventFromEnv(env: Record<string, string | undefined>): EventConfig {
  const result = v.safeParse(EventEnvSchema, env);
  if (!result.success) {
    const names = result.issues.map((issue) => v.getDotPath(issue) ?? '?');
    throw new Error(`Invalid configuration: ${[...new Set(names)].join(', ')}`);
  }
  return eventOf(result.output);
}
