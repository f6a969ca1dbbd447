import * as v from 'valibot';
import { fieldObject } from './issues.js';

/** Visitor pre-registration; this form's email message is spelled 'E-Mail', unlike the account forms' 'Email'. */

const MSG = {
  firstName: 'Vorname muss mindestens 2 Zeichen lang sein',
  firstNameMax: 'Vorname darf höchstens 100 Zeichen lang sein',
  lastName: 'Nachname muss mindestens 2 Zeichen lang sein',
  lastNameMax: 'Nachname darf höchstens 100 Zeichen lang sein',
  email: 'Ungültige E-Mail-Adresse',
  emailMax: 'E-Mail darf höchstens 254 Zeichen lang sein',
  phone: 'Telefon muss ein Text sein',
  phoneMax: 'Telefon darf höchstens 40 Zeichen lang sein',
  nextEdition: 'Bitte wähle aus, ob wir dich über das nächste Schlosstreffen informieren dürfen.',
} as const;

/**
 * The visitor's consent to hear about the next edition, in the wording shown; its version is
 * recorded with the consent. Without it the sign-up ends with its edition's retention.
 */
export const VISITOR_NEXT_EDITION_CONSENT = {
  text: 'Informiert mich per E-Mail auch über das nächste Schlosstreffen. Dafür bleibt meine Vormerkung bis dahin gespeichert; abmelden kann ich mich jederzeit.',
  version: '2026-11-26',
} as const;

/** The answer when the link mailed to a visitor's address has added that consent. */
export const VISITOR_NEXT_EDITION_CONSENTED =
  'Danke! Wir informieren dich per E-Mail, sobald das nächste Schlosstreffen feststeht.';

export const VisitorRegistrationSchema = fieldObject({
  firstName: v.pipe(
    v.string(MSG.firstName),
    v.trim(),
    v.minLength(2, MSG.firstName),
    v.maxLength(100, MSG.firstNameMax),
  ),
  lastName: v.pipe(
    v.string(MSG.lastName),
    v.trim(),
    v.minLength(2, MSG.lastName),
    v.maxLength(100, MSG.lastNameMax),
  ),
  email: v.pipe(
    v.string(MSG.email),
    v.trim(),
    v.email(MSG.email),
    v.maxLength(254, MSG.emailMax),
    v.toLowerCase(),
  ),
  /** 'Auch über das nächste Schlosstreffen informieren': an optional consent, unticked by default. */
  nextEdition: v.optional(v.boolean(MSG.nextEdition)),
  /** Optional; null and '' (after trimming) become undefined. */
  phone: v.pipe(
    v.nullish(v.pipe(v.string(MSG.phone), v.trim(), v.maxLength(40, MSG.phoneMax))),
    v.transform((value) => value || undefined),
  ),
});
export type VisitorRegistrationInput = v.InferOutput<typeof VisitorRegistrationSchema>;
