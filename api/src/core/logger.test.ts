import { afterEach, describe, expect, it } from 'vitest';
import { configureLogger, logger, requestIdOf, serializeError, withLogContext } from './logger.js';

const written: string[] = [];
const logged = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);

function capture(): void {
  written.length = 0;
  configureLogger(
    { level: 'info', format: 'json' },
    { destination: { write: (line) => void written.push(line) } },
  );
}
afterEach(() =>
  configureLogger({ level: 'silent', format: 'json' }, { destination: { write: () => undefined } }),
);

describe('logger', () => {
  it('writes one JSON object a line with level, time and message, and the request id of its context', () => {
    capture();
    logger.info({ route: '/api/vehicles/:id' }, 'outside');
    withLogContext({ requestId: 'abc-123' }, () => logger.warn('inside'));
    expect(written.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    const [outside, inside] = logged();
    expect(outside).toMatchObject({ level: 'info', msg: 'outside', route: '/api/vehicles/:id' });
    expect(outside).not.toHaveProperty('requestId');
    expect(typeof outside!.time).toBe('string');
    expect(inside).toMatchObject({ level: 'warn', msg: 'inside', requestId: 'abc-123' });
  });

  it('blanks secret fields and cuts addresses, credentials and tokens out of messages', () => {
    capture();
    logger.info(
      {
        password: 'geheim-123',
        user: { email: 'lena@example.de', id: 'u1', sessionId: 's-1' },
        token: 't-1',
      },
      'sign-in of lena@example.de via https://app.test/reset?token=abc123&x=1',
    );
    const line = written.join('');
    for (const secret of ['geheim-123', 'lena@example.de', 's-1', 't-1', 'abc123'])
      expect(line).not.toContain(secret);
    expect(logged()[0]).toMatchObject({
      msg: 'sign-in of [email] via https://app.test/reset?token=[redacted]&x=1',
      user: { id: 'u1', email: '[redacted]' },
      password: '[redacted]',
    });
  });

  it('logs an error as its type, code, message and frames, without the values a driver adds', () => {
    const driver = Object.assign(
      new Error(
        `insert into "user" ("email", "password_hash") values ('lena@example.de', '$argon2id$x') - duplicate key value violates unique constraint "user_email_unique"`,
      ),
      {
        code: '23505',
        detail: 'Key (email)=(lena@example.de) already exists.',
        parameters: ['lena@example.de'],
      },
    );
    driver.name = 'UniqueConstraintViolationException';
    const error = new Error('send failed: 550 5.1.1 <lena@example.de>: unknown; postgres://app:pw@db/x', {
      cause: driver,
    });
    const serialized = serializeError(error);
    expect(serialized.message).toBe('send failed: 550 5.1.1 <[email]>: unknown; postgres://[redacted]@db/x');
    expect(serialized.cause).toMatchObject({
      type: 'UniqueConstraintViolationException',
      code: '23505',
      message: 'duplicate key value violates unique constraint "user_email_unique"',
    });
    expect(serialized.stack).toMatch(/^\s+at /);
    const text = JSON.stringify(serialized);
    for (const secret of ['lena@example.de', 'argon2', 'pw@', 'Key (email)'])
      expect(text).not.toContain(secret);

    capture();
    withLogContext({ requestId: 'r-1' }, () => logger.error({ err: error }, 'request failed'));
    expect(logged()[0]).toMatchObject({ requestId: 'r-1', err: { type: 'Error', cause: { code: '23505' } } });
    expect(written.join('')).not.toContain('lena@example.de');
  });

  it('takes a request id that is a plain token of at most 128 characters, else makes one', () => {
    expect(requestIdOf('abc-123')).toBe('abc-123');
    expect(requestIdOf('Req_1.2-3')).toBe('Req_1.2-3');
    expect(requestIdOf('x'.repeat(128))).toBe('x'.repeat(128));
    for (const odd of ['x'.repeat(129), 'a b', 'a\nb', '<script>', '', undefined, ['a', 'b']]) {
      const made = requestIdOf(odd);
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});
