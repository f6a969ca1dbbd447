import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ChangePasswordBody,
  ProfileInput,
  RegisterBody,
  ResetPasswordBody,
} from '@schlosstreffen/shared';
import { MESSAGES } from '@schlosstreffen/shared';
import { badRequest, conflict } from '../../http/errors.js';
import { destroyUserSessions } from '../../http/session-store.js';
import { seal } from '../../lib/seal.js';
import { enqueue } from '../../outbox/outbox.js';
import { User } from '../users/user.entity.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { createResetToken, hashResetToken } from './reset-token.js';

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
    if (!user) throw badRequest(MESSAGES.resetTokenInvalid);
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
      if (!user) throw badRequest(MESSAGES.resetTokenInvalid);
      em.assign(user, { passwordHash, resetToken: null, resetTokenExpiry: null });
      await destroyUserSessions(em, user.id);
      return user;
    });
  }

  async updateProfile(user: User, input: ProfileInput): Promise<User> {
    try {
      return await this.em.transactional(async (em) => {
        const current = await em.findOneOrFail(User, user.id);
        if (input.email !== current.email && (await em.count(User, { email: input.email }))) {
          throw conflict(MESSAGES.emailTaken);
        }
        em.assign(current, { firstName: input.firstName, lastName: input.lastName, email: input.email });
        return current;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict(MESSAGES.emailTaken);
      throw error;
    }
  }

  /** Checks the current password, stores the new one and ends the user's other sessions. */
  async changePassword(
    userId: string,
    input: ChangePasswordBody,
    currentSid: string | undefined,
  ): Promise<void> {
    const user = await this.em.findOneOrFail(User, userId, { populate: ['passwordHash'] });
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      throw badRequest(MESSAGES.wrongCurrentPassword, [
        { field: 'currentPassword', message: MESSAGES.wrongCurrentPassword },
      ]);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await this.em.transactional(async (em) => {
      await em.nativeUpdate(User, { id: userId }, { passwordHash, updatedAt: new Date() });
      await destroyUserSessions(em, userId, currentSid);
    });
  }
}
