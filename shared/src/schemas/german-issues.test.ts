import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { GateSyncSchema } from './check-in.js';
import { WaitlistInviteSchema } from './event.js';
import { installGermanValidationMessages } from './german-issues.js';

beforeAll(installGermanValidationMessages);

const message = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).issues?.[0]?.message;

describe("valibot's default messages", () => {
  it('are German, for types, lengths, formats, values and keys', () => {
    const cases: Array<[v.GenericSchema, unknown, string]> = [
      [v.string(), 5, 'Hier wird ein Text erwartet.'],
      [v.number(), 'x', 'Hier wird eine Zahl erwartet.'],
      [v.boolean(), 1, 'Hier wird „true“ oder „false“ erwartet.'],
      [v.array(v.string()), {}, 'Hier wird eine Liste erwartet.'],
      [v.object({ a: v.string() }), 'x', 'Hier wird ein Objekt erwartet.'],
      [v.object({ a: v.string() }), {}, 'Dieses Feld fehlt.'],
      [v.strictObject({}), { b: 1 }, 'Dieses Feld ist hier nicht vorgesehen.'],
      [v.picklist(['a', 'b']), 'c', 'Dieser Wert ist nicht zulässig.'],
      [v.pipe(v.string(), v.maxLength(3)), 'abcd', 'Zu lang: höchstens 3 Zeichen.'],
      [v.pipe(v.string(), v.minLength(3)), 'a', 'Zu kurz: mindestens 3 Zeichen.'],
      [
        v.pipe(v.array(v.number()), v.maxLength(500)),
        Array(501).fill(1),
        'Zu viele Einträge: höchstens 500.',
      ],
      [v.pipe(v.array(v.number()), v.minLength(2)), [1], 'Zu wenige Einträge: mindestens 2.'],
      [v.pipe(v.string(), v.length(2)), 'a', 'Genau 2 Zeichen erforderlich.'],
      [v.pipe(v.string(), v.nonEmpty()), '', 'Darf nicht leer sein.'],
      [v.pipe(v.number(), v.maxValue(10_000)), 20_000, 'Zu groß: höchstens 10.000.'],
      [v.pipe(v.number(), v.minValue(1)), 0, 'Zu klein: mindestens 1.'],
      [v.pipe(v.number(), v.integer()), 1.5, 'Bitte gib eine ganze Zahl an.'],
      [v.pipe(v.string(), v.uuid()), 'x', 'Ungültige Kennung.'],
      [v.pipe(v.string(), v.email()), 'x', 'Ungültige E-Mail-Adresse.'],
      [v.pipe(v.string(), v.url()), 'x', 'Ungültige Adresse (URL).'],
      [v.pipe(v.string(), v.isoTimestamp()), 'gestern', 'Ungültige Zeitangabe.'],
      [v.pipe(v.string(), v.isoDate()), '31.12.', 'Ungültiges Datum.'],
      [v.pipe(v.string(), v.regex(/^a$/)), 'b', 'Ungültiges Format.'],
      [v.pipe(v.string(), v.hexColor()), 'b', 'Ungültige Eingabe.'],
    ];
    for (const [schema, input, expected] of cases) expect(message(schema, input)).toBe(expected);
  });

  it('leave no English in the shared schemas, and a message of its own wins', () => {
    const scan = {
      id: crypto.randomUUID(),
      invitationId: crypto.randomUUID(),
      scannedAt: '2026-06-20T08:00:00Z',
    };
    const english = /Invalid|Expected|Received/;
    const sync = v.safeParse(GateSyncSchema, {
      deviceId: 'kein-uuid',
      gate: 'Tor',
      scans: [{ id: 1, invitationId: 'x', scannedAt: 'gestern' }],
    });
    const texts = (sync.issues ?? []).map((issue) => issue.message);
    expect(texts).toEqual([
      'Ungültige Kennung.',
      'Hier wird ein Text erwartet.',
      'Ungültige Kennung.',
      'Ungültige Zeitangabe.',
    ]);
    // A field object's missing key reads as its entry's message for undefined.
    expect(message(WaitlistInviteSchema, {})).toBe('Hier wird ein Text erwartet.');
    expect(
      message(GateSyncSchema, { deviceId: crypto.randomUUID(), gate: 'Tor', scans: Array(501).fill(scan) }),
    ).toBe('Höchstens 500 Scans je Sendung.');
    for (const text of texts) expect(text).not.toMatch(english);
  });
});
