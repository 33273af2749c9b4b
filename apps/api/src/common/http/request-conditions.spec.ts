import { PreconditionFailedError } from '../errors';
import { RequestConditions } from './request-conditions';

const CURRENT = '"r8"';

const conditions = (headers: Record<string, string | string[] | undefined>) =>
  RequestConditions.fromHeaders(headers);

/** The error assertIfMatch throws, or undefined when it lets the write through. */
function ifMatchFailure(request: RequestConditions, current = CURRENT): unknown {
  try {
    request.assertIfMatch(current);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('RequestConditions', () => {
  describe('without conditional headers', () => {
    const none = conditions({});

    it('lets every write through and asks nothing of reads', () => {
      expect(ifMatchFailure(none)).toBeUndefined();
      expect(none.asksIfNoneMatch).toBe(false);
      expect(none.isNotModified(CURRENT)).toBe(false);
    });

    it('NONE behaves the same', () => {
      expect(ifMatchFailure(RequestConditions.NONE)).toBeUndefined();
      expect(RequestConditions.NONE.asksIfNoneMatch).toBe(false);
    });
  });

  describe('If-Match (strong comparison, 412 when it fails)', () => {
    it('lets the write through when the current tag is listed', () => {
      const request = conditions({ 'if-match': '"r7", "r8"' });
      expect(ifMatchFailure(request)).toBeUndefined();
    });

    it('lets the write through with * when the resource exists', () => {
      expect(ifMatchFailure(conditions({ 'if-match': '*' }))).toBeUndefined();
    });

    it('throws PreconditionFailedError carrying the current tag when no listed tag is current', () => {
      const error = ifMatchFailure(conditions({ 'if-match': '"r7"' }));
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect((error as PreconditionFailedError).currentTag).toBe(CURRENT);
    });

    it('refuses a weak tag even when its opaque value is current', () => {
      expect(ifMatchFailure(conditions({ 'if-match': 'W/"r8"' }))).toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it.each([['r8'], [''], ['"r8'], ['*, "r8"']])(
      'treats the invalid value %j as matching nothing (412), not as absent',
      (header) => {
        const request = conditions({ 'if-match': header });
        const error = ifMatchFailure(request);
        expect(error).toBeInstanceOf(PreconditionFailedError);
        expect((error as PreconditionFailedError).currentTag).toBe(CURRENT);
      },
    );

    it('reads a repeated header (string array) as one list', () => {
      expect(ifMatchFailure(conditions({ 'if-match': ['"r1"', '"r8"'] }))).toBeUndefined();
      expect(ifMatchFailure(conditions({ 'if-match': ['"r1"', '"r2"'] }))).toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('does not look at If-None-Match', () => {
      const request = conditions({ 'if-none-match': '"r7"' });
      expect(ifMatchFailure(request)).toBeUndefined();
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

    it('does not touch If-Match', () => {
      const request = conditions({ 'if-none-match': '"r7"' });
      expect(ifMatchFailure(request)).toBeUndefined();
    });
  });
});
