import { PreconditionFailedError } from '../errors';
import { RequestConditions } from './request-conditions';

const CURRENT = '"r8"';

const conditions = (headers: Record<string, string | string[] | undefined>) =>
  RequestConditions.fromHeaders(headers);

/** The error assertPreconditions throws, or undefined when it lets the write through. */
function writeFailure(request: RequestConditions, current = CURRENT): unknown {
  try {
    request.assertPreconditions(current);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('RequestConditions', () => {
  describe('without conditional headers', () => {
    const none = conditions({});

    it('lets every write through and asks nothing of reads', () => {
      expect(writeFailure(none)).toBeUndefined();
      expect(none.asksIfNoneMatch).toBe(false);
      expect(none.isNotModified(CURRENT)).toBe(false);
    });

    it('NONE behaves the same', () => {
      expect(writeFailure(RequestConditions.NONE)).toBeUndefined();
      expect(RequestConditions.NONE.asksIfNoneMatch).toBe(false);
    });
  });

  describe('If-Match (strong comparison, 412 when it fails)', () => {
    it('lets the write through when the current tag is listed', () => {
      const request = conditions({ 'if-match': '"r7", "r8"' });
      expect(writeFailure(request)).toBeUndefined();
    });

    it('lets the write through with * when the resource exists', () => {
      expect(writeFailure(conditions({ 'if-match': '*' }))).toBeUndefined();
    });

    it('throws PreconditionFailedError carrying the current tag when no listed tag is current', () => {
      const error = writeFailure(conditions({ 'if-match': '"r7"' }));
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect((error as PreconditionFailedError).currentTag).toBe(CURRENT);
    });

    it('refuses a weak tag even when its opaque value is current', () => {
      expect(writeFailure(conditions({ 'if-match': 'W/"r8"' }))).toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it.each([['r8'], [''], ['"r8'], ['*, "r8"']])(
      'treats the invalid value %j as matching nothing (412), not as absent',
      (header) => {
        const request = conditions({ 'if-match': header });
        const error = writeFailure(request);
        expect(error).toBeInstanceOf(PreconditionFailedError);
        expect((error as PreconditionFailedError).currentTag).toBe(CURRENT);
      },
    );

    it('reads a repeated header (string array) as one list', () => {
      expect(writeFailure(conditions({ 'if-match': ['"r1"', '"r8"'] }))).toBeUndefined();
      expect(writeFailure(conditions({ 'if-match': ['"r1"', '"r2"'] }))).toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('lets a write through when If-None-Match names another tag', () => {
      const request = conditions({ 'if-none-match': '"r7"' });
      expect(writeFailure(request)).toBeUndefined();
    });
  });

  describe('If-None-Match on a write (RFC 9110 §13.1.2: 412 when it is false)', () => {
    it.each([['*'], ['"r8"'], ['"r1", "r8"'], ['W/"r8"'], [['"r1"', '"r8"']]])(
      'refuses the write when %j matches the current tag (weakly) or the resource exists',
      (header) => {
        const error = writeFailure(conditions({ 'if-none-match': header }));
        expect(error).toBeInstanceOf(PreconditionFailedError);
        expect((error as PreconditionFailedError).currentTag).toBe(CURRENT);
        expect((error as PreconditionFailedError).message).toMatch(/If-None-Match/);
      },
    );

    it.each([['"r7"'], ['"r1", W/"r9"']])('lets the write through with %j', (header) => {
      expect(writeFailure(conditions({ 'if-none-match': header }))).toBeUndefined();
    });

    it.each([['r8'], [''], ['W/r8']])('ignores the invalid value %j, as reads do', (header) => {
      expect(writeFailure(conditions({ 'if-none-match': header }))).toBeUndefined();
    });

    it('is evaluated after If-Match (§13.2.2): a passing If-Match does not excuse it', () => {
      const request = conditions({ 'if-match': '"r8"', 'if-none-match': '*' });
      expect((writeFailure(request) as Error).message).toMatch(/If-None-Match/);
      const stale = conditions({ 'if-match': '"r7"', 'if-none-match': '*' });
      expect((writeFailure(stale) as Error).message).toMatch(/changed since it was read/);
    });
  });

  describe('If-None-Match (weak comparison, 304 when it matches)', () => {
    it('is not modified when the current tag is listed', () => {
      const request = conditions({ 'if-none-match': '"r1", "r8"' });
      expect(request.asksIfNoneMatch).toBe(true);
      expect(request.isNotModified(CURRENT)).toBe(true);
    });

    it('is not modified when a weak tag has the current opaque value', () => {
      expect(conditions({ 'if-none-match': 'W/"r8"' }).isNotModified(CURRENT)).toBe(true);
    });

    it('is modified when no listed tag is current', () => {
      const request = conditions({ 'if-none-match': '"r7", W/"r9"' });
      expect(request.asksIfNoneMatch).toBe(true);
      expect(request.isNotModified(CURRENT)).toBe(false);
    });

    it('* is not modified for any existing resource', () => {
      const request = conditions({ 'if-none-match': '*' });
      expect(request.asksIfNoneMatch).toBe(true);
      expect(request.isNotModified('"l1"')).toBe(true);
    });

    it.each([['r8'], [''], ['W/r8']])('ignores the invalid value %j', (header) => {
      const request = conditions({ 'if-none-match': header });
      expect(request.asksIfNoneMatch).toBe(false);
      expect(request.isNotModified(CURRENT)).toBe(false);
    });

    it('reads a repeated header (string array) as one list', () => {
      expect(conditions({ 'if-none-match': ['"r1"', '"r8"'] }).isNotModified(CURRENT)).toBe(true);
    });

    it('does not look at If-Match', () => {
      const request = conditions({ 'if-match': '"r7"', 'if-none-match': '"r8"' });
      expect(request.isNotModified(CURRENT)).toBe(true);
    });
  });
});
