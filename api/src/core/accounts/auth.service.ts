import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ChangePasswordBody,
  ProfileInput,
  RegisterBody,
  ResetPasswordBody,
} from '@schlosstreffen/shared';
import { MESSAGES, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { deleteAccount } from './account-deletion.js';
import { conflict, invalid } from '../errors.js';
import { destroyUserSessions } from './sessions.js';
import { seal } from '../crypto/seal.js';
import { enqueue } from '../outbox/outbox.js';
import { User } from './user.entity.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { createResetToken, hashResetToken } from './reset-token.js';

/** Email change links are valid one day. */
const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

/** Account use cases. Each owns its transaction. */
export class AuthService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: { publicUrl: string; secret: string; onOutbox?: () => void },
  ) {}

  async register(input: RegisterBody): Promise<User> {
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.em.transactional(async (em) => {
        if (await em.count(User, { email: input.email })) throw conflict(MESSAGES.emailTaken);
        return em.create(User, {
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          instagramHandle: input.instagramHandle || null,
        });
      });
    } catch (error) {
      // Two concurrent registrations: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
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
      const resetUrl = `${this.options.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      enqueue(em, 'email.send', {
        template: 'password-reset',
        to: user.email,
        props: { firstName: user.firstName },
        sealed: seal(this.options.secret, { resetUrl }),
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

  /** Sets the new password, consumes the token and ends every session of the account. */
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
      em.assign(user, { passwordHash, resetToken: null, resetTokenExpiry: null });
      await destroyUserSessions(em, user.id);
      return user;
    });
  }

  /**
   * Names change at once. A new email needs the current password and takes effect only once the
   * link sent to it is opened; the old address is told. Returns the user (email still the old one,
   * the new one as pendingEmail).
   */
  async updateProfile(user: User, input: ProfileInput): Promise<User> {
    const changesEmail = input.email !== user.email;
    if (changesEmail) await this.checkPassword(user.id, input.currentPassword);
    try {
      const updated = await this.em.transactional(async (em) => {
        const current = await em.findOneOrFail(User, user.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
        em.assign(current, { firstName: input.firstName, lastName: input.lastName });
        if (!changesEmail) return current;
        if (await em.count(User, { email: input.email })) throw conflict(MESSAGES.emailTaken);
        const { token, hash, expiresAt } = createResetToken(Date.now(), EMAIL_CHANGE_TTL_MS);
        em.assign(current, {
          pendingEmail: input.email,
          emailChangeToken: hash,
          emailChangeExpiry: expiresAt,
        });
        const confirmUrl = `${this.options.publicUrl}/email-bestaetigen?token=${encodeURIComponent(token)}`;
        enqueue(em, 'email.send', {
          template: 'email-change-confirm',
          to: input.email,
          props: { firstName: current.firstName, newEmail: input.email },
          sealed: seal(this.options.secret, { confirmUrl }),
        });
        enqueue(em, 'email.send', {
          template: 'email-change-notice',
          to: current.email,
          props: { firstName: current.firstName, newEmail: input.email },
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
   * The link sent to a new address: the address takes effect, a pending password reset is void and
   * every session but the caller's ends.
   */
  async confirmEmail(token: string, currentSid: string | undefined): Promise<User> {
    try {
      return await this.em.transactional(async (em) => {
        const user = await em.findOne(
          User,
          { emailChangeToken: hashResetToken(token), emailChangeExpiry: { $gt: new Date() } },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!user?.pendingEmail) throw invalid(PRIVACY_MESSAGES.emailLinkInvalid);
        if (await em.count(User, { email: user.pendingEmail, id: { $ne: user.id } })) {
          throw conflict(MESSAGES.emailTaken);
        }
        em.assign(user, {
          email: user.pendingEmail,
          pendingEmail: null,
          emailChangeToken: null,
          emailChangeExpiry: null,
          resetToken: null,
          resetTokenExpiry: null,
        });
        await destroyUserSessions(em, user.id, currentSid);
        return user;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
  }

  /** Deletes the caller's own account after checking the password (see deleteAccount). */
  async deleteOwnAccount(userId: string, password: string): Promise<void> {
    await this.checkPassword(userId, password, 'password');
    await deleteAccount(this.em, userId);
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
   * Checks the current password, stores the new one, voids a pending reset link, ends the user's
   * other sessions and tells the account's address.
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
      em.assign(user, { passwordHash, resetToken: null, resetTokenExpiry: null });
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
