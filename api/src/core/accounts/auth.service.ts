import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { clearBounces } from '../emails/email-log.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ChangePasswordBody,
  ProfileInput,
  RegisterBody,
  ResetPasswordBody,
} from '@schlosstreffen/shared';
import { MESSAGES, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { deleteAccount } from './account-deletion.js';
import { requestDataExport } from './data-export.js';
import type { DataExport } from '../model/data-export.entity.js';
import { conflict, invalid } from '../errors.js';
import { destroyUserSessions } from './sessions.js';
import { seal } from '../crypto/seal.js';
import { enqueue } from '../outbox/outbox.js';
import { User } from '../model/user.entity.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { createResetToken, hashResetToken } from './reset-token.js';

/** Email change links are valid one day. */
const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;
/** Links that confirm a new account's address are valid two days. */
export const EMAIL_CONFIRM_TTL_MS = 48 * 3600 * 1000;

/** No pending email change: its address, link tokens and expiry cleared. */
const NO_EMAIL_CHANGE = {
  pendingEmail: null,
  emailChangeToken: null,
  emailChangeExpiry: null,
  emailChangeCancelToken: null,
} as const;

/** Which link a confirmation token belonged to. */
export type ConfirmedLink = 'account' | 'change';

/**
 * Marks an account's address as confirmed by other means (an operator checked it); false when no
 * account has that address.
 */
export async function confirmAddressByOperator(em: EntityManager, email: string): Promise<boolean> {
  const changed = await em.nativeUpdate(
    User,
    { email: email.trim().toLowerCase() },
    { emailVerified: true, emailConfirmToken: null, emailConfirmExpiry: null },
  );
  return changed > 0;
}

/** Account use cases. Each owns its transaction. */
export class AuthService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: { publicUrl: string; secret: string; onOutbox?: () => void },
  ) {}

  async register(input: RegisterBody): Promise<User> {
    const passwordHash = await hashPassword(input.password);
    try {
      const created = await this.em.transactional(async (em) => {
        if (await em.count(User, { email: input.email })) throw conflict(MESSAGES.emailTaken);
        const user = em.create(User, {
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          instagramHandle: input.instagramHandle || null,
        });
        this.queueAccountConfirmation(em, user);
        return user;
      });
      this.options.onOutbox?.();
      return created;
    } catch (error) {
      // Two concurrent registrations: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
  }

  /**
   * A new link that confirms the account's address (the previous one stops working), mailed to
   * that address. The mail names nobody: until the address is confirmed, nothing the registrant
   * typed reaches it.
   */
  private queueAccountConfirmation(em: EntityManager, user: User): void {
    const { token, hash, expiresAt } = createResetToken(Date.now(), EMAIL_CONFIRM_TTL_MS);
    em.assign(user, { emailConfirmToken: hash, emailConfirmExpiry: expiresAt });
    enqueue(em, 'email.send', {
      template: 'account-confirm',
      to: user.email,
      props: {},
      sealed: seal(this.options.secret, { confirmUrl: this.linkTo('/email-bestaetigen', token) }),
    });
  }

  /** Mails a fresh confirmation link to an unconfirmed account's address; false when already confirmed. */
  async resendConfirmation(userId: string): Promise<boolean> {
    const sent = await this.em.transactional(async (em) => {
      const user = await em.findOneOrFail(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (user.emailVerified) return false;
      this.queueAccountConfirmation(em, user);
      return true;
    });
    if (sent) this.options.onOutbox?.();
    return sent;
  }

  /**
   * At sign-in an unconfirmed account (one from before addresses were confirmed, or one whose link
   * expired) is sent a new link, unless one is still valid.
   */
  async askForConfirmation(user: User, now = new Date()): Promise<void> {
    // The signed-in user was just read whole: its link's expiry needs no second query.
    if (user.emailVerified || (user.emailConfirmExpiry && user.emailConfirmExpiry > now)) return;
    await this.resendConfirmation(user.id);
  }

  private linkTo(path: string, token: string): string {
    return `${this.options.publicUrl}${path}?token=${encodeURIComponent(token)}`;
  }

  /** Returns the user for a correct email and password, else null, in about the same time. */
  async authenticate(email: string, password: string): Promise<User | null> {
    const user = await this.em.findOne(User, { email }, { populate: ['passwordHash'] });
    if (!user) return verifyAgainstDummy(password).then(() => null);
    return (await verifyPassword(user.passwordHash, password)) ? user : null;
  }

  /** Issues a single-use token valid for one hour and queues the mail; silent when no account exists. */
  async requestPasswordReset(email: string): Promise<void> {
    const written = await this.em.transactional(async (em) => {
      const user = await em.findOne(User, { email });
      if (!user) return false;
      const { token, hash, expiresAt } = createResetToken();
      user.resetToken = hash;
      user.resetTokenExpiry = expiresAt;
      enqueue(em, 'email.send', {
        template: 'password-reset',
        to: user.email,
        // Anyone can ask for it, also for an address nobody has confirmed: it names nobody.
        props: {},
        sealed: seal(this.options.secret, { resetUrl: this.linkTo('/reset-password', token) }),
      });
      return true;
    });
    if (written) this.options.onOutbox?.();
  }

  async findByResetToken(token: string): Promise<User> {
    const user = await this.em.findOne(User, {
      resetToken: hashResetToken(token),
      resetTokenExpiry: { $gt: new Date() },
    });
    if (!user) throw invalid(MESSAGES.resetTokenInvalid);
    return user;
  }

  /**
   * Sets the new password, consumes the token and ends every session of the account. A pending
   * email change is cancelled (whoever started it may have known the old password), and the
   * address is confirmed: the link reached it.
   */
  async resetPassword(input: ResetPasswordBody): Promise<User> {
    const passwordHash = await hashPassword(input.newPassword);
    return this.em.transactional(async (em) => {
      // The row lock makes a concurrent second use wait and then find the token gone.
      const user = await em.findOne(
        User,
        { resetToken: hashResetToken(input.token), resetTokenExpiry: { $gt: new Date() } },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!user) throw invalid(MESSAGES.resetTokenInvalid);
      em.assign(user, {
        passwordHash,
        resetToken: null,
        resetTokenExpiry: null,
        ...NO_EMAIL_CHANGE,
        emailVerified: true,
        emailConfirmToken: null,
        emailConfirmExpiry: null,
      });
      await destroyUserSessions(em, user.id);
      return user;
    });
  }

  /**
   * Names change at once. A new email needs the current password and takes effect only once the
   * link sent to it is opened; the old address is told, with a link that cancels the change.
   * Entering the current address again cancels a pending change. `beforeMail` runs before a
   * change is mailed (the rate limits per account and address). Returns the user (email still the
   * old one, the new one as pendingEmail).
   */
  async updateProfile(
    user: User,
    input: ProfileInput,
    beforeMail: (newEmail: string) => Promise<void> = async () => undefined,
  ): Promise<User> {
    const changesEmail = input.email !== user.email;
    if (changesEmail) {
      await this.checkPassword(user.id, input.currentPassword);
      await beforeMail(input.email);
    }
    try {
      const updated = await this.em.transactional(async (em) => {
        const current = await em.findOneOrFail(User, user.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
        em.assign(current, { firstName: input.firstName, lastName: input.lastName });
        if (!changesEmail) {
          if (current.pendingEmail) em.assign(current, NO_EMAIL_CHANGE);
          return current;
        }
        if (await em.count(User, { email: input.email })) throw conflict(MESSAGES.emailTaken);
        const change = createResetToken(Date.now(), EMAIL_CHANGE_TTL_MS);
        const cancel = createResetToken(Date.now(), EMAIL_CHANGE_TTL_MS);
        em.assign(current, {
          pendingEmail: input.email,
          emailChangeToken: change.hash,
          emailChangeExpiry: change.expiresAt,
          emailChangeCancelToken: cancel.hash,
        });
        // The new address is not confirmed yet: its mail names nobody and repeats nothing typed.
        // The notice goes to the confirmed address the account has.
        enqueue(em, 'email.send', {
          template: 'email-change-confirm',
          to: input.email,
          props: {},
          sealed: seal(this.options.secret, {
            confirmUrl: this.linkTo('/email-bestaetigen', change.token),
          }),
        });
        enqueue(em, 'email.send', {
          template: 'email-change-notice',
          to: current.email,
          props: { firstName: current.firstName, newEmail: input.email },
          sealed: seal(this.options.secret, {
            cancelUrl: this.linkTo('/email-aenderung-abbrechen', cancel.token),
          }),
        });
        return current;
      });
      if (changesEmail) this.options.onOutbox?.();
      return updated;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
  }

  /**
   * A link that confirms an address. For a new account's address: the account is confirmed. For
   * the new address of an email change: the address takes effect (and is confirmed), a pending
   * password reset is void and every session but the caller's ends.
   */
  async confirmEmail(token: string, currentSid: string | undefined): Promise<ConfirmedLink> {
    const hash = hashResetToken(token);
    const now = new Date();
    try {
      return await this.em.transactional(async (em) => {
        const account = await em.findOne(
          User,
          { emailConfirmToken: hash, emailConfirmExpiry: { $gt: now } },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (account) {
          em.assign(account, { emailVerified: true, emailConfirmToken: null, emailConfirmExpiry: null });
          // The link reached the address: mails to it arrive.
          await clearBounces(em, [account.email]);
          return 'account';
        }
        const user = await em.findOne(
          User,
          { emailChangeToken: hash, emailChangeExpiry: { $gt: now } },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!user?.pendingEmail) throw invalid(PRIVACY_MESSAGES.emailLinkInvalid);
        if (await em.count(User, { email: user.pendingEmail, id: { $ne: user.id } })) {
          throw conflict(MESSAGES.emailTaken);
        }
        // The new address received the link; the old one is the account's no more: neither stays marked.
        await clearBounces(em, [user.email, user.pendingEmail]);
        em.assign(user, {
          email: user.pendingEmail,
          ...NO_EMAIL_CHANGE,
          emailVerified: true,
          emailConfirmToken: null,
          emailConfirmExpiry: null,
          resetToken: null,
          resetTokenExpiry: null,
        });
        await destroyUserSessions(em, user.id, currentSid);
        return 'change';
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
  }

  /** The link in the notice to the old address: the pending email change is dropped. */
  async cancelEmailChange(token: string): Promise<void> {
    const changed = await this.em.nativeUpdate(
      User,
      { emailChangeCancelToken: hashResetToken(token), pendingEmail: { $ne: null } },
      NO_EMAIL_CHANGE,
    );
    if (!changed) throw invalid(PRIVACY_MESSAGES.emailLinkInvalid);
  }

  /** Queues an export of the person's data (see requestDataExport). */
  async requestDataExport(user: User): Promise<DataExport> {
    const row = await requestDataExport(this.em, user);
    this.options.onOutbox?.();
    return row;
  }

  /** Deletes the caller's own account after checking the password (see deleteAccount). */
  async deleteOwnAccount(userId: string, password: string, at = new Date()): Promise<void> {
    await this.checkPassword(userId, password, 'password');
    await deleteAccount(this.em, userId, at);
    this.options.onOutbox?.();
  }

  private async checkPassword(
    userId: string,
    password: string | undefined,
    field: 'currentPassword' | 'password' = 'currentPassword',
  ): Promise<void> {
    const message = field === 'password' ? MESSAGES.wrongPassword : MESSAGES.wrongCurrentPassword;
    if (!password) {
      throw invalid(PRIVACY_MESSAGES.passwordRequiredForEmail, [
        { field, message: PRIVACY_MESSAGES.passwordRequiredForEmail },
      ]);
    }
    const user = await this.em.fork().findOneOrFail(User, userId, { populate: ['passwordHash'] });
    if (!(await verifyPassword(user.passwordHash, password))) throw invalid(message, [{ field, message }]);
  }

  /**
   * Checks the current password, stores the new one, voids a pending reset link and email change,
   * ends the user's other sessions and tells the account's address.
   */
  async changePassword(
    userId: string,
    input: ChangePasswordBody,
    currentSid: string | undefined,
  ): Promise<void> {
    await this.checkPassword(userId, input.currentPassword);
    const passwordHash = await hashPassword(input.newPassword);
    await this.em.transactional(async (em) => {
      const user = await em.findOneOrFail(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      em.assign(user, { passwordHash, resetToken: null, resetTokenExpiry: null, ...NO_EMAIL_CHANGE });
      await destroyUserSessions(em, userId, currentSid);
      enqueue(em, 'email.send', {
        template: 'password-changed',
        to: user.email,
        props: { firstName: user.firstName },
      });
    });
    this.options.onOutbox?.();
  }
}
