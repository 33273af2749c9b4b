import { Prisma } from '../../generated/prisma/client';
import { isDatabaseUnavailable } from './database-unavailability';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('is true for a refused connection (ECONNREFUSED)', () => {
    const error = Object.assign(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), {
      errno: -111,
      syscall: 'connect',
    });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("is true for Prisma's P1001 (can't reach database server)", () => {
    const error = new Prisma.PrismaClientKnownRequestError('Server unreachable', {
      code: 'P1001',
      clientVersion: '7.10.0',
    });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is true when the cause is nested', () => {
    const root = withCode('read ECONNRESET', 'ECONNRESET');
    const error = new Error('query failed', { cause: new Error('driver failed', { cause: root }) });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is true for SQLSTATE 57P01 (admin shutdown), as pg code or adapter originalCode', () => {
    expect(
      isDatabaseUnavailable(
        withCode('terminating connection due to administrator command', '57P01'),
      ),
    ).toBe(true);
    const adapterError = new Error('driver adapter error', {
      cause: { kind: 'postgres', originalCode: '57P01', code: '57P01' },
    });
    expect(isDatabaseUnavailable(adapterError)).toBe(true);
  });

  it('is true for a database or a role that the server does not have', () => {
    expect(isDatabaseUnavailable(withCode('database "gone" does not exist', '3D000'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('role "nobody" does not exist', '28000'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('password authentication failed', '28P01'))).toBe(true);
    for (const kind of ['DatabaseDoesNotExist', 'DatabaseAccessDenied', 'AuthenticationFailed']) {
      expect(isDatabaseUnavailable({ cause: { kind } })).toBe(true);
    }
    const prisma = new Prisma.PrismaClientKnownRequestError('Database does not exist', {
      code: 'P1003',
      clientVersion: '7.10.0',
    });
    expect(isDatabaseUnavailable(prisma)).toBe(true);
  });

  it('is true for the driver adapter kind DatabaseNotReachable', () => {
    expect(isDatabaseUnavailable({ cause: { kind: 'DatabaseNotReachable' } })).toBe(true);
  });

  it('is false for a unique violation (P2002)', () => {
    const error = new Prisma.PrismaClientKnownRequestError(
      'Unique constraint failed on the fields: (`usernameKey`)',
      { code: 'P2002', clientVersion: '7.10.0', meta: { target: ['usernameKey'] } },
    );
    expect(isDatabaseUnavailable(error)).toBe(false);
    const adapterError = new Error('driver adapter error', {
      cause: { kind: 'UniqueConstraintViolation', originalCode: '23505' },
    });
    expect(isDatabaseUnavailable(adapterError)).toBe(false);
  });

  it('is false for a plain Error and for values that are not errors', () => {
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(
      isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')")),
    ).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  it('terminates on a cause cycle', () => {
    const error: { message: string; cause?: unknown } = { message: 'loop' };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
