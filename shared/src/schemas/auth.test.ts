import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ChangePasswordBodySchema,
  ChangePasswordFormSchema,
  ForgotPasswordSchema,
  LoginSchema,
  ProfileSchema,
  RegisterBodySchema,
  RegisterFormSchema,
  ResetPasswordBodySchema,
  ResetPasswordFormSchema,
  VerifyResetTokenSchema,
} from './auth.js';
import { flattenIssues } from './issues.js';

function issuesOf(schema: v.GenericSchema, input: unknown) {
  const result = v.safeParse(schema, input);
  return result.success ? [] : flattenIssues(result.issues);
}

const register = {
  firstName: 'Max',
  lastName: 'Mustermann',
  email: 'max@example.de',
  instagramHandle: '',
  password: 'geheim123',
  confirmPassword: 'geheim123',
};

describe('RegisterFormSchema', () => {
  it('accepts a complete form', () => {
    const result = v.safeParse(RegisterFormSchema, register);
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ email: 'max@example.de', instagramHandle: undefined });
  });

  it("reports 'Ungültige Email-Adresse' on email", () => {
    expect(issuesOf(RegisterFormSchema, { ...register, email: 'keine-adresse' })).toEqual([
      { field: 'email', message: 'Ungültige Email-Adresse' },
    ]);
  });

  it("reports 'Passwort muss mindestens 8 Zeichen lang sein' on password", () => {
    expect(
      issuesOf(RegisterFormSchema, { ...register, password: '1234567', confirmPassword: '1234567' }),
    ).toEqual([{ field: 'password', message: 'Passwort muss mindestens 8 Zeichen lang sein' }]);
  });

  it("reports 'Passwörter stimmen nicht überein' on confirmPassword", () => {
    expect(issuesOf(RegisterFormSchema, { ...register, confirmPassword: 'geheim124' })).toEqual([
      { field: 'confirmPassword', message: 'Passwörter stimmen nicht überein' },
    ]);
  });

  it('reports the mismatch even while another field is invalid', () => {
    expect(
      issuesOf(RegisterFormSchema, { ...register, firstName: '', confirmPassword: 'anders123' }),
    ).toEqual([
      { field: 'firstName', message: 'Vorname ist erforderlich' },
      { field: 'confirmPassword', message: 'Passwörter stimmen nicht überein' },
    ]);
  });

  it("reports 'Vorname ist erforderlich' and 'Nachname ist erforderlich' for blank names", () => {
    expect(issuesOf(RegisterFormSchema, { ...register, firstName: '   ', lastName: '' })).toEqual([
      { field: 'firstName', message: 'Vorname ist erforderlich' },
      { field: 'lastName', message: 'Nachname ist erforderlich' },
    ]);
  });

  it('reports missing names with the same messages', () => {
    const { firstName: _f, lastName: _l, ...rest } = register;
    expect(issuesOf(RegisterFormSchema, rest)).toEqual([
      { field: 'firstName', message: 'Vorname ist erforderlich' },
      { field: 'lastName', message: 'Nachname ist erforderlich' },
    ]);
  });

  it('caps lengths with German messages', () => {
    expect(issuesOf(RegisterFormSchema, { ...register, firstName: 'x'.repeat(101) })).toEqual([
      { field: 'firstName', message: 'Vorname darf höchstens 100 Zeichen lang sein' },
    ]);
    const long = 'x'.repeat(201);
    expect(issuesOf(RegisterFormSchema, { ...register, password: long, confirmPassword: long })).toEqual([
      { field: 'password', message: 'Passwort darf höchstens 200 Zeichen lang sein' },
    ]);
    expect(issuesOf(RegisterFormSchema, { ...register, email: `${'a'.repeat(250)}@x.de` })).toEqual([
      { field: 'email', message: 'Email darf höchstens 254 Zeichen lang sein' },
    ]);
  });
});

describe('RegisterBodySchema', () => {
  const body = {
    email: '  Max@Example.DE ',
    password: 'geheim123',
    firstName: ' Max ',
    lastName: 'Mustermann',
  };

  it('trims and lower-cases the email, trims names and drops unknown keys', () => {
    const result = v.safeParse(RegisterBodySchema, { ...body, role: 'admin' });
    expect(result.success).toBe(true);
    expect(result.output).toEqual({
      email: 'max@example.de',
      password: 'geheim123',
      firstName: 'Max',
      lastName: 'Mustermann',
      instagramHandle: undefined,
    });
  });

  it('accepts instagramHandle missing, null, empty or a value', () => {
    for (const instagramHandle of [undefined, null, '', '  ']) {
      expect(v.parse(RegisterBodySchema, { ...body, instagramHandle }).instagramHandle).toBeUndefined();
    }
    expect(v.parse(RegisterBodySchema, { ...body, instagramHandle: ' @max ' }).instagramHandle).toBe('@max');
  });

  it('does not trim passwords', () => {
    expect(v.parse(RegisterBodySchema, { ...body, password: ' geheim12 ' }).password).toBe(' geheim12 ');
  });

  it('rejects a short password and an invalid email', () => {
    expect(issuesOf(RegisterBodySchema, { ...body, email: 'a@', password: 'kurz' })).toEqual([
      { field: 'email', message: 'Ungültige Email-Adresse' },
      { field: 'password', message: 'Passwort muss mindestens 8 Zeichen lang sein' },
    ]);
  });
});

describe('LoginSchema', () => {
  it('accepts email and any non-empty password', () => {
    expect(v.parse(LoginSchema, { email: 'A@B.de', password: 'x' })).toEqual({
      email: 'a@b.de',
      password: 'x',
    });
  });

  it("reports 'Ungültige Email-Adresse' and 'Passwort ist erforderlich'", () => {
    expect(issuesOf(LoginSchema, { email: '', password: '' })).toEqual([
      { field: 'email', message: 'Ungültige Email-Adresse' },
      { field: 'password', message: 'Passwort ist erforderlich' },
    ]);
    expect(issuesOf(LoginSchema, {})).toEqual([
      { field: 'email', message: 'Ungültige Email-Adresse' },
      { field: 'password', message: 'Passwort ist erforderlich' },
    ]);
  });
});

describe('ForgotPasswordSchema', () => {
  it('accepts a valid email', () => {
    expect(v.parse(ForgotPasswordSchema, { email: ' a@b.de' })).toEqual({ email: 'a@b.de' });
  });

  it("reports 'Ungültige Email-Adresse'", () => {
    expect(issuesOf(ForgotPasswordSchema, { email: 'a b@c.de' })).toEqual([
      { field: 'email', message: 'Ungültige Email-Adresse' },
    ]);
  });
});

describe('VerifyResetTokenSchema', () => {
  it('accepts a token and rejects an empty one', () => {
    expect(v.parse(VerifyResetTokenSchema, { token: 'abc' })).toEqual({ token: 'abc' });
    expect(issuesOf(VerifyResetTokenSchema, { token: '' })).toEqual([
      { field: 'token', message: 'Reset-Token ist erforderlich' },
    ]);
    expect(issuesOf(VerifyResetTokenSchema, {})).toEqual([
      { field: 'token', message: 'Reset-Token ist erforderlich' },
    ]);
  });
});

describe('ResetPasswordFormSchema', () => {
  it('accepts matching passwords', () => {
    expect(
      v.safeParse(ResetPasswordFormSchema, { password: 'neu12345', confirmPassword: 'neu12345' }).success,
    ).toBe(true);
  });

  it("reports 'Passwort muss mindestens 8 Zeichen lang sein' on password", () => {
    expect(issuesOf(ResetPasswordFormSchema, { password: 'kurz', confirmPassword: 'kurz' })).toEqual([
      { field: 'password', message: 'Passwort muss mindestens 8 Zeichen lang sein' },
    ]);
  });

  it("reports 'Passwörter stimmen nicht überein' on confirmPassword", () => {
    expect(issuesOf(ResetPasswordFormSchema, { password: 'neu12345', confirmPassword: 'neu12346' })).toEqual([
      { field: 'confirmPassword', message: 'Passwörter stimmen nicht überein' },
    ]);
  });
});

describe('ResetPasswordBodySchema', () => {
  it('accepts token and new password', () => {
    expect(v.parse(ResetPasswordBodySchema, { token: 't', newPassword: 'neu12345' })).toEqual({
      token: 't',
      newPassword: 'neu12345',
    });
  });

  it("reports 'Passwort muss mindestens 8 Zeichen lang sein' on newPassword", () => {
    expect(issuesOf(ResetPasswordBodySchema, { token: 't', newPassword: '1234567' })).toEqual([
      { field: 'newPassword', message: 'Passwort muss mindestens 8 Zeichen lang sein' },
    ]);
  });
});

describe('ProfileSchema', () => {
  it('accepts and normalises a profile', () => {
    expect(
      v.parse(ProfileSchema, { firstName: ' Eva ', lastName: 'Muster', email: 'EVA@x.de', role: 'admin' }),
    ).toEqual({ firstName: 'Eva', lastName: 'Muster', email: 'eva@x.de' });
  });

  it('reports every field message', () => {
    expect(issuesOf(ProfileSchema, { firstName: '', lastName: ' ', email: 'x' })).toEqual([
      { field: 'firstName', message: 'Vorname ist erforderlich' },
      { field: 'lastName', message: 'Nachname ist erforderlich' },
      { field: 'email', message: 'Ungültige Email-Adresse' },
    ]);
  });
});

describe('ChangePasswordFormSchema', () => {
  const form = { currentPassword: 'alt12345', newPassword: 'neu12345', confirmPassword: 'neu12345' };

  it('accepts a valid change', () => {
    expect(v.safeParse(ChangePasswordFormSchema, form).success).toBe(true);
  });

  it("reports 'Aktuelles Passwort ist erforderlich'", () => {
    expect(issuesOf(ChangePasswordFormSchema, { ...form, currentPassword: '' })).toEqual([
      { field: 'currentPassword', message: 'Aktuelles Passwort ist erforderlich' },
    ]);
  });

  it("reports 'Neues Passwort muss mindestens 8 Zeichen lang sein'", () => {
    expect(
      issuesOf(ChangePasswordFormSchema, { ...form, newPassword: 'kurz', confirmPassword: 'kurz' }),
    ).toEqual([{ field: 'newPassword', message: 'Neues Passwort muss mindestens 8 Zeichen lang sein' }]);
  });

  it("reports 'Passwörter stimmen nicht überein' on confirmPassword", () => {
    expect(issuesOf(ChangePasswordFormSchema, { ...form, confirmPassword: 'neu1234' })).toEqual([
      { field: 'confirmPassword', message: 'Passwörter stimmen nicht überein' },
    ]);
  });
});

describe('ChangePasswordBodySchema', () => {
  it('accepts the body and drops confirmPassword', () => {
    expect(
      v.parse(ChangePasswordBodySchema, {
        currentPassword: 'a',
        newPassword: 'neu12345',
        confirmPassword: 'x',
      }),
    ).toEqual({ currentPassword: 'a', newPassword: 'neu12345' });
  });

  it('reports both field messages', () => {
    expect(issuesOf(ChangePasswordBodySchema, { currentPassword: '', newPassword: '1' })).toEqual([
      { field: 'currentPassword', message: 'Aktuelles Passwort ist erforderlich' },
      { field: 'newPassword', message: 'Neues Passwort muss mindestens 8 Zeichen lang sein' },
    ]);
  });
});
