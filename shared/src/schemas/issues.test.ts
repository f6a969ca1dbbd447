import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fieldObject, flattenIssues } from './issues.js';

describe('flattenIssues', () => {
  it('joins nested paths with dots', () => {
    const schema = v.object({ list: v.array(v.object({ name: v.string('Name fehlt') })) });
    const result = v.safeParse(schema, { list: [{ name: 'a' }, { name: 1 }] });
    expect(flattenIssues(result.issues ?? [])).toEqual([{ field: 'list.1.name', message: 'Name fehlt' }]);
  });

  it('keeps root issues with an empty field', () => {
    const result = v.safeParse(
      v.pipe(
        v.object({}),
        v.check(() => false, 'Wurzel'),
      ),
      {},
    );
    expect(flattenIssues(result.issues ?? [])).toEqual([{ field: '', message: 'Wurzel' }]);
  });

  it('returns an empty list for no issues', () => {
    expect(flattenIssues([])).toEqual([]);
  });
});

describe('fieldObject', () => {
  const schema = fieldObject({
    name: v.pipe(v.string('Name ist erforderlich'), v.nonEmpty('Name ist erforderlich')),
    nested: fieldObject({ flag: v.literal(true, 'Haken fehlt') }),
    note: v.optional(v.string()),
  });

  it('reports missing keys with the entry message for undefined', () => {
    const result = v.safeParse(schema, { nested: {} });
    expect(flattenIssues(result.issues ?? [])).toEqual([
      { field: 'name', message: 'Name ist erforderlich' },
      { field: 'nested.flag', message: 'Haken fehlt' },
    ]);
  });

  it('reports a non-object input with the generic message', () => {
    const result = v.safeParse(schema, 'text');
    expect(flattenIssues(result.issues ?? [])).toEqual([{ field: '', message: 'Die Anfrage ist ungültig.' }]);
  });

  it('parses like v.object', () => {
    expect(v.parse(schema, { name: 'a', nested: { flag: true }, extra: 1 })).toEqual({
      name: 'a',
      nested: { flag: true },
    });
  });
});
