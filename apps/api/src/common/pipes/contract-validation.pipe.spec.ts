import { CreateColumnDto } from '@layout/contracts';
import { RequestValidationError, ResourceNotFoundError } from '../errors';
import { ContractValidationPipe } from './contract-validation.pipe';

class ColumnPathStub {
  projectId!: string;
  columnId!: string;
}

const ID = '01a20156-031d-7308-8ece-3f57ceca9fe1';

describe('ContractValidationPipe', () => {
  const pipe = new ContractValidationPipe();
  const param = { type: 'param' as const, metatype: ColumnPathStub };
  const body = { type: 'body' as const, metatype: CreateColumnDto };

  it('passes well-formed path ids on as a plain object', async () => {
    const params = Object.assign(Object.create(null) as object, { projectId: ID, columnId: ID });
    await expect(pipe.transform(params, param)).resolves.toEqual({ projectId: ID, columnId: ID });
  });

  it.each(['not-an-id', `${ID}x`, "1' OR '1'='1", ''])(
    'answers a malformed id (%j) with not-found naming the resource',
    async (columnId) => {
      const error = await pipe
        .transform({ projectId: ID, columnId }, param)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect((error as ResourceNotFoundError).resource).toBe('Column');
    },
  );

  it('validates bodies with the shared library, turning "6" into 6', async () => {
    await expect(pipe.transform({ size: '6' }, body)).resolves.toMatchObject({ size: 6 });
  });

  it.each([[[]], ['text'], [null], [{ size: 13 }]])(
    'rejects the body %j with field errors',
    async (value) => {
      const error = await pipe.transform(value, body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors.length).toBeGreaterThan(0);
    },
  );
});
