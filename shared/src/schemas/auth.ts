import * as v from 'valibot';
import { PASSWORD_MIN_LENGTH } from '../constants.js';
import { fieldObject } from './issues.js';

/** Account forms and the bodies of the auth calls, with their German messages. */

const EMAIL_MAX = 254;
const NAME_MAX = 100;
const PASSWORD_MAX = 200;
const INSTAGRAM_MAX = 100;
const TOKEN_MAX = 200;

const MSG = {
  email: 'Ungültige Email-Adresse',
  emailMax: `Email darf höchstens ${EMAIL_MAX} Zeichen lang sein`,
  firstName: 'Vorname ist erforderlich',
  firstNameMax: `Vorname darf höchstens ${NAME_MAX} Zeichen lang sein`,
  lastName: 'Nachname ist erforderlich',
  lastNameMax: `Nachname darf höchstens ${NAME_MAX} Zeichen lang sein`,
  instagram: 'Instagram Name muss ein Text sein',
  instagramMax: `Instagram Name darf höchstens ${INSTAGRAM_MAX} Zeichen lang sein`,
  password: 'Passwort ist erforderlich',
  passwordMin: 'Passwort muss mindestens 8 Zeichen lang sein',
  passwordMax: `Passwort darf höchstens ${PASSWORD_MAX} Zeichen lang sein`,
  passwordMismatch: 'Passwörter stimmen nicht überein',
  currentPassword: 'Aktuelles Passwort ist erforderlich',
  newPasswordMin: 'Neues Passwort muss mindestens 8 Zeichen lang sein',
  newPasswordMax: `Neues Passwort darf höchstens ${PASSWORD_MAX} Zeichen lang sein`,
  token: 'Reset-Token ist erforderlich',
  tokenMax: `Reset-Token darf höchstens ${TOKEN_MAX} Zeichen lang sein`,
} as const;

/** Trimmed, validated, then lower-cased. */
const email = v.pipe(
  v.string(MSG.email),
  v.trim(),
  v.email(MSG.email),
  v.maxLength(EMAIL_MAX, MSG.emailMax),
  v.toLowerCase(),
);

const firstName = v.pipe(
  v.string(MSG.firstName),
  v.trim(),
  v.nonEmpty(MSG.firstName),
  v.maxLength(NAME_MAX, MSG.firstNameMax),
);

const lastName = v.pipe(
  v.string(MSG.lastName),
  v.trim(),
  v.nonEmpty(MSG.lastName),
  v.maxLength(NAME_MAX, MSG.lastNameMax),
);

/** Optional; null and '' (after trimming) become undefined. */
const instagramHandle = v.pipe(
  v.nullish(v.pipe(v.string(MSG.instagram), v.trim(), v.maxLength(INSTAGRAM_MAX, MSG.instagramMax))),
  v.transform((value) => value || undefined),
);

/** A new password: at least 8 characters, never trimmed. */
const newPassword = (minMessage: string, maxMessage: string) =>
  v.pipe(
    v.string(minMessage),
    v.minLength(PASSWORD_MIN_LENGTH, minMessage),
    v.maxLength(PASSWORD_MAX, maxMessage),
  );

/** An existing password: only non-empty. */
const existingPassword = (message: string) =>
  v.pipe(v.string(message), v.nonEmpty(message), v.maxLength(PASSWORD_MAX, MSG.passwordMax));

const token = v.pipe(
  v.string(MSG.token),
  v.trim(),
  v.nonEmpty(MSG.token),
  v.maxLength(TOKEN_MAX, MSG.tokenMax),
);

/**
 * A form that asks for a new password twice: `confirmPassword` must repeat `field`, else
 * 'Passwörter stimmen nicht überein' shows on the confirmation, even while other fields are invalid.
 */
function confirmedPasswordForm<const TEntries extends v.ObjectEntries>(
  entries: TEntries,
  field: keyof TEntries & string,
) {
  const schema = fieldObject({ ...entries, confirmPassword: v.string(MSG.passwordMismatch) });
  type Form = v.InferOutput<typeof schema>;
  const confirmation = v.forward(
    v.partialCheck(
      [[field], ['confirmPassword']] as never,
      (input: Record<string, unknown>) => input[field] === input.confirmPassword,
      MSG.passwordMismatch,
    ),
    ['confirmPassword'] as never,
  ) as unknown as v.BaseValidation<Form, Form, v.PartialCheckIssue<Form>>;
  return v.pipe(schema, confirmation);
}

// Register.

export const RegisterFormSchema = confirmedPasswordForm(
  {
    firstName,
    lastName,
    email,
    instagramHandle,
    password: newPassword(MSG.passwordMin, MSG.passwordMax),
  },
  'password',
);

export const RegisterBodySchema = fieldObject({
  email,
  password: newPassword(MSG.passwordMin, MSG.passwordMax),
  firstName,
  lastName,
  instagramHandle,
});
export type RegisterBody = v.InferOutput<typeof RegisterBodySchema>;

// Login and password reset.

export const LoginSchema = fieldObject({
  email,
  password: existingPassword(MSG.password),
});
export type LoginInput = v.InferOutput<typeof LoginSchema>;

export const ForgotPasswordSchema = fieldObject({ email });
export type ForgotPasswordInput = v.InferOutput<typeof ForgotPasswordSchema>;

export const VerifyResetTokenSchema = fieldObject({ token });

export const ResetPasswordFormSchema = confirmedPasswordForm(
  { password: newPassword(MSG.passwordMin, MSG.passwordMax) },
  'password',
);

export const ResetPasswordBodySchema = fieldObject({
  token,
  newPassword: newPassword(MSG.passwordMin, MSG.passwordMax),
});
export type ResetPasswordBody = v.InferOutput<typeof ResetPasswordBodySchema>;

// Profile.

/**
 * PATCH /api/auth/profile. A changed email also needs the current password; the new address takes
 * effect once its confirmation link is opened.
 */
export const ProfileSchema = fieldObject({
  firstName,
  lastName,
  email,
  currentPassword: v.optional(v.pipe(v.string(MSG.currentPassword), v.maxLength(1000))),
});
export type ProfileInput = v.InferOutput<typeof ProfileSchema>;

export const ChangePasswordFormSchema = confirmedPasswordForm(
  {
    currentPassword: existingPassword(MSG.currentPassword),
    newPassword: newPassword(MSG.newPasswordMin, MSG.newPasswordMax),
  },
  'newPassword',
);

export const ChangePasswordBodySchema = fieldObject({
  currentPassword: existingPassword(MSG.currentPassword),
  newPassword: newPassword(MSG.newPasswordMin, MSG.newPasswordMax),
});
export type ChangePasswordBody = v.InferOutput<typeof ChangePasswordBodySchema>;
