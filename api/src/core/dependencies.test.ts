import { DriverException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { dependencyClassifier } from './dependencies.js';

const classify = dependencyClassifier({
  database: 'postgres://postgres@127.0.0.1:5432/app',
  redis: 'redis://127.0.0.1:6379',
  storage: 'http://127.0.0.1:4569',
});

/** A socket error as Node raises it, with the stack it had where it was raised. */
function socketError(code: string, fields: { port?: number; stack?: string } = {}): Error {
  return Object.assign(new Error(`read ${code}`), { code, ...fields });
}

describe('dependencyClassifier', () => {
  it('tells PostgreSQL, Redis and S3 apart by the port a connection was refused on', () => {
    expect(classify(socketError('ECONNREFUSED', { port: 5432 }))).toBe('database');
    expect(classify(socketError('ECONNREFUSED', { port: 6379 }))).toBe('redis');
    expect(classify(socketError('ECONNREFUSED', { port: 4569 }))).toBe('storage');
  });

  it('takes a reset without a port for the database when its client raised it', () => {
    const fromPool = socketError('ECONNRESET', {
      stack: 'Error: read ECONNRESET\n    at /app/node_modules/pg-pool/index.js:45:11',
    });
    expect(classify(fromPool)).toBe('database');
    expect(classify(new DriverException(socketError('ECONNRESET')))).toBe('database');
    // Anything else that was reset stays an error of its own (500), not a missing service.
    expect(
      classify(socketError('ECONNRESET', { stack: 'Error: read ECONNRESET\n    at /app/x.js:1:1' })),
    ).toBe(undefined);
  });

  it("reads PostgreSQL's shutdown codes and messages", () => {
    expect(
      classify(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe('database');
    expect(classify(new Error('the database system is starting up'))).toBe('database');
    expect(classify(new Error('duplicate key value violates unique constraint'))).toBe(undefined);
  });
});
