import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { flattenIssues } from './issues.js';
import { VisitorRegistrationSchema } from './visitor.js';

function issuesOf(input: unknown) {
  const result = v.safeParse(VisitorRegistrationSchema, input);
  return result.success ? [] : flattenIssues(result.issues);
}

const visitor = { firstName: 'Jo', lastName: 'Li', email: 'Jo@Example.de', phone: '' };

describe('VisitorRegistrationSchema', () => {
  it('accepts a visitor with an optional phone', () => {
    expect(v.parse(VisitorRegistrationSchema, visitor)).toEqual({
      firstName: 'Jo',
      lastName: 'Li',
      email: 'jo@example.de',
      phone: undefined,
    });
    expect(v.parse(VisitorRegistrationSchema, { ...visitor, phone: ' 0351 123456 ' }).phone).toBe(
      '0351 123456',
    );
    const { phone: _phone, ...withoutPhone } = visitor;
    expect(v.safeParse(VisitorRegistrationSchema, withoutPhone).success).toBe(true);
  });

  it("reports 'Vorname muss mindestens 2 Zeichen lang sein'", () => {
    expect(issuesOf({ ...visitor, firstName: ' J ' })).toEqual([
      { field: 'firstName', message: 'Vorname muss mindestens 2 Zeichen lang sein' },
    ]);
  });

  it("reports 'Nachname muss mindestens 2 Zeichen lang sein'", () => {
    expect(issuesOf({ ...visitor, lastName: '' })).toEqual([
      { field: 'lastName', message: 'Nachname muss mindestens 2 Zeichen lang sein' },
    ]);
  });

  it("reports 'Ungültige E-Mail-Adresse' (with hyphen)", () => {
    expect(issuesOf({ ...visitor, email: 'jo@' })).toEqual([
      { field: 'email', message: 'Ungültige E-Mail-Adresse' },
    ]);
    expect(issuesOf({ firstName: 'Jo', lastName: 'Li' })).toEqual([
      { field: 'email', message: 'Ungültige E-Mail-Adresse' },
    ]);
  });
});
