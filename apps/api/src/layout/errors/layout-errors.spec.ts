import { toProblem } from '../../common/filters/problem';
import {
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../common/errors';
import {
  BatchOperationFailedError,
  ContentTooLargeError,
  RefusedMemberError,
  RowWidthExceededError,
} from '.';

const INSTANCE = '/projects/p1/blocks/b1/rows/r1/columns';

describe("the layout's errors, as problems", () => {
  describe('rules of the tree', () => {
    it('RowWidthExceededError → 409 row-width-exceeded with availableSize', () => {
      const problem = toProblem(new RowWidthExceededError(4, 6, 12), INSTANCE);
      expect(problem.status).toBe(409);
      expect(problem.body).toMatchObject({
        type: '/problems/row-width-exceeded',
        status: 409,
        availableSize: 4,
      });
    });

    it('ContentTooLargeError → 413 payload-too-large, naming the pointer in errors', () => {
      const problem = toProblem(new ContentTooLargeError(256 * 1024, '/contents/2/data'), INSTANCE);
      expect(problem.status).toBe(413);
      expect(problem.headers).toEqual({});
      expect(problem.body).toMatchObject({
        type: '/problems/payload-too-large',
        title: 'Payload too large',
        status: 413,
        instance: INSTANCE,
      });
      expect(problem.body.detail).toContain('/contents/2/data');
      expect(problem.body.errors).toEqual([
        { pointer: '/contents/2/data', detail: 'is larger than 262144 bytes' },
      ]);
      expect(problem.unexpected).toBeUndefined();
    });

    it('ContentTooLargeError → its own pointer and limit in errors', () => {
      const problem = toProblem(new ContentTooLargeError(1000, '/data'), INSTANCE);
      expect(problem.body.errors).toEqual([
        { pointer: '/data', detail: 'is larger than 1000 bytes' },
      ]);
    });
  });

  describe('refusals wrapped with where they happened', () => {
    it('BatchOperationFailedError → the refusal’s own problem, its status, type and members, with operationIndex', () => {
      const refusal = new RowWidthExceededError(4, 6, 12);
      const alone = toProblem(refusal, INSTANCE);
      const problem = toProblem(new BatchOperationFailedError(3, refusal), INSTANCE);
      expect(problem.status).toBe(409);
      expect(problem.headers).toEqual(alone.headers);
      expect(problem.logLevel).toBe(alone.logLevel);
      expect(problem.body).toEqual({ ...alone.body, operationIndex: 3 });
      expect(problem.body).toMatchObject({
        type: '/problems/row-width-exceeded',
        availableSize: 4,
        operationIndex: 3,
      });
      expect(problem.unexpected).toBeUndefined();
    });

    it.each([
      [new RequestValidationError([{ pointer: '/size', detail: 'is required' }]), 400],
      [new ResourceNotFoundError('Row'), 404],
      [new PreconditionFailedError('"r5"'), 412],
      [new LimitExceededError(500, 'A block holds at most 500'), 409],
      [new ContentTooLargeError(256 * 1024, '/contents/0/data'), 413],
    ])(
      'BatchOperationFailedError of %p → its status %i and headers, operationIndex 0 included',
      (refusal, status) => {
        const alone = toProblem(refusal, INSTANCE);
        const problem = toProblem(new BatchOperationFailedError(0, refusal), INSTANCE);
        expect(problem.status).toBe(status);
        expect(problem.headers).toEqual(alone.headers);
        expect(problem.body).toEqual({ ...alone.body, operationIndex: 0 });
      },
    );

    it('BatchOperationFailedError of an error nobody anticipated → 500, still unexpected, nothing of it told', () => {
      const defect = new Error('column "secret" does not exist');
      const problem = toProblem(new BatchOperationFailedError(2, defect), INSTANCE);
      expect(problem.status).toBe(500);
      expect(problem.unexpected).toBe(defect);
      expect(problem.body).toMatchObject({ type: '/problems/internal', operationIndex: 2 });
      expect(JSON.stringify(problem.body)).not.toContain('secret');
    });

    it('RefusedMemberError → the refusal’s own problem with the member pointer', () => {
      const refusal = new LimitExceededError(500, 'A project holds at most 500');
      const alone = toProblem(refusal, INSTANCE);
      const problem = toProblem(new RefusedMemberError('/blocks/500', refusal), INSTANCE);
      expect(problem.status).toBe(409);
      expect(problem.headers).toEqual(alone.headers);
      expect(problem.body).toEqual({ ...alone.body, pointer: '/blocks/500' });
      expect(problem.body).toMatchObject({
        type: '/problems/limit-exceeded',
        detail: 'A project holds at most 500',
        limit: 500,
        pointer: '/blocks/500',
      });
    });

    it.each([
      [new RowWidthExceededError(2, 3, 12), '/blocks/2/rows/0/columns/3/size', 409],
      [
        new ContentTooLargeError(256 * 1024, '/rows/0/columns/0/contents/1/data'),
        '/rows/0/columns/0/contents/1/data',
        413,
      ],
      [new LimitExceededError(8 * 1024 * 1024, 'too big'), '', 409],
    ])(
      'RefusedMemberError of %p at %j → its status %i, its members and the pointer',
      (refusal, pointer, status) => {
        const alone = toProblem(refusal, INSTANCE);
        const problem = toProblem(new RefusedMemberError(pointer, refusal), INSTANCE);
        expect(problem.status).toBe(status);
        expect(problem.body).toEqual({ ...alone.body, pointer });
      },
    );

    it('a batch operation’s refused member → both the pointer and operationIndex', () => {
      const refusal = new RowWidthExceededError(0, 1, 12);
      const problem = toProblem(
        new BatchOperationFailedError(1, new RefusedMemberError('/columns/1/size', refusal)),
        INSTANCE,
      );
      expect(problem.status).toBe(409);
      expect(problem.body).toEqual({
        ...toProblem(refusal, INSTANCE).body,
        pointer: '/columns/1/size',
        operationIndex: 1,
      });
    });
  });
});
