import * as v from 'valibot';
import { venueDateTime } from '../venue-time.js';

/**
 * valibot's own messages, in German: every issue whose schema or action names no message of its
 * own reads one of these instead of valibot's English default ('Invalid length: Expected …').
 * api and web install them once at start (installGermanValidationMessages).
 */

const numberFormat = new Intl.NumberFormat('de-DE');

function requirementText(requirement: unknown): string {
  if (requirement instanceof Date) return venueDateTime(requirement);
  if (typeof requirement === 'number' || typeof requirement === 'bigint')
    return numberFormat.format(requirement);
  return String(requirement);
}

const TYPE_EXPECTED: Record<string, string> = {
  string: 'Hier wird ein Text erwartet.',
  number: 'Hier wird eine Zahl erwartet.',
  bigint: 'Hier wird eine Zahl erwartet.',
  boolean: 'Hier wird „true“ oder „false“ erwartet.',
  array: 'Hier wird eine Liste erwartet.',
  tuple: 'Hier wird eine Liste erwartet.',
  date: 'Hier wird ein Datum erwartet.',
  picklist: 'Dieser Wert ist nicht zulässig.',
  enum: 'Dieser Wert ist nicht zulässig.',
  literal: 'Dieser Wert ist nicht zulässig.',
  union: 'Dieser Wert ist nicht zulässig.',
  variant: 'Dieser Wert ist nicht zulässig.',
};

const ACTION_MESSAGES: Record<string, string> = {
  non_empty: 'Darf nicht leer sein.',
  integer: 'Bitte gib eine ganze Zahl an.',
  safe_integer: 'Bitte gib eine ganze Zahl an.',
  finite: 'Bitte gib eine Zahl an.',
  email: 'Ungültige E-Mail-Adresse.',
  rfc_email: 'Ungültige E-Mail-Adresse.',
  url: 'Ungültige Adresse (URL).',
  uuid: 'Ungültige Kennung.',
  iso_timestamp: 'Ungültige Zeitangabe.',
  iso_date_time: 'Ungültige Zeitangabe.',
  iso_date: 'Ungültiges Datum.',
  iso_time: 'Ungültige Uhrzeit.',
  iso_time_second: 'Ungültige Uhrzeit.',
  regex: 'Ungültiges Format.',
  value: 'Dieser Wert ist nicht zulässig.',
  values: 'Dieser Wert ist nicht zulässig.',
  not_value: 'Dieser Wert ist nicht zulässig.',
  not_values: 'Dieser Wert ist nicht zulässig.',
};

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/** The German text of an issue that carries no message of its own. */
function germanIssueMessage(issue: v.BaseIssue<unknown>): string {
  const listLike = Array.isArray(issue.input);
  const n = requirementText(issue.requirement);
  if (issue.kind === 'schema') {
    if (OBJECT_TYPES.has(issue.type) && issue.path?.length) {
      if (issue.expected === 'never') return 'Dieses Feld ist hier nicht vorgesehen.';
      if (issue.input === undefined) return 'Dieses Feld fehlt.';
    }
    if (OBJECT_TYPES.has(issue.type)) return 'Hier wird ein Objekt erwartet.';
    return TYPE_EXPECTED[issue.type] ?? 'Ungültiger Datentyp.';
  }
  switch (issue.type) {
    case 'min_length':
      return listLike ? `Zu wenige Einträge: mindestens ${n}.` : `Zu kurz: mindestens ${n} Zeichen.`;
    case 'max_length':
      return listLike ? `Zu viele Einträge: höchstens ${n}.` : `Zu lang: höchstens ${n} Zeichen.`;
    case 'length':
      return listLike ? `Genau ${n} Einträge erforderlich.` : `Genau ${n} Zeichen erforderlich.`;
    case 'min_value':
      return `Zu klein: mindestens ${n}.`;
    case 'gt_value':
      return `Zu klein: muss größer als ${n} sein.`;
    case 'max_value':
      return `Zu groß: höchstens ${n}.`;
    case 'lt_value':
      return `Zu groß: muss kleiner als ${n} sein.`;
    default:
      return ACTION_MESSAGES[issue.type] ?? 'Ungültige Eingabe.';
  }
}

/** Makes German the default of every valibot message; safe to call more than once. */
export function installGermanValidationMessages(): void {
  v.setGlobalMessage(germanIssueMessage);
}
