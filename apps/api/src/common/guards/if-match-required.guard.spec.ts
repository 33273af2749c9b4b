import { type ExecutionContext } from '@nestjs/common';
import { loadConfig } from '../../config/load-config';
import { PreconditionRequiredError } from '../errors';
import { IfMatchRequiredGuard } from './if-match-required.guard';

/** The execution context of an HTTP request carrying `headers`. */
function httpContext(headers: Record<string, string | string[] | undefined>): ExecutionContext {
  const request = { headers };
  return {
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const guardWith = (requireIfMatch: boolean) =>
  new IfMatchRequiredGuard({ ...loadConfig({}), requireIfMatch });

describe('IfMatchRequiredGuard', () => {
  describe('with REQUIRE_IF_MATCH off (the default)', () => {
    const guard = guardWith(false);

    it('lets a write without If-Match through', () => {
      expect(guard.canActivate(httpContext({}))).toBe(true);
    });

    it('lets a write with If-Match through', () => {
      expect(guard.canActivate(httpContext({ 'if-match': '"r1"' }))).toBe(true);
    });
  });

  describe('with REQUIRE_IF_MATCH on', () => {
    const guard = guardWith(true);

    it('refuses a write without If-Match with PreconditionRequiredError (428)', () => {
      expect(() => guard.canActivate(httpContext({}))).toThrow(PreconditionRequiredError);
    });

    it('refuses a write that sends only If-None-Match', () => {
      expect(() => guard.canActivate(httpContext({ 'if-none-match': '"r1"' }))).toThrow(
        PreconditionRequiredError,
      );
    });

    it.each([['"r1"'], ['*'], ['"r1", "r2"']])('lets a write with If-Match %s through', (tag) => {
      expect(guard.canActivate(httpContext({ 'if-match': tag }))).toBe(true);
    });

    it('lets an invalid If-Match through: the service then answers 412, not 428', () => {
      expect(guard.canActivate(httpContext({ 'if-match': 'not-a-tag' }))).toBe(true);
    });
  });
});
