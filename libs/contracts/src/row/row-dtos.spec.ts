import { validateBody } from '../validation/validate-body';
import { CreateRowDto } from './create-row.dto';
import { UpdateRowDto } from './update-row.dto';

describe.each([
  ['CreateRowDto', CreateRowDto],
  ['UpdateRowDto', UpdateRowDto],
])('%s', (_name, cls) => {
  it('accepts an empty body, a description and a position', async () => {
    expect((await validateBody(cls, {})).ok).toBe(true);
    expect((await validateBody(cls, { description: 'Row', position: 2 })).value).toEqual({
      description: 'Row',
      position: 2,
    });
  });

  it.each([
    [
      { description: 'x'.repeat(501) },
      '/description',
      'must be a string of at most 500 characters',
    ],
    [{ description: false }, '/description', 'must be a string of at most 500 characters'],
    [{ position: -3 }, '/position', 'must be an integer of at least 0'],
    [{ position: null }, '/position', 'must be an integer of at least 0'],
    [{ columns: [] }, '/columns', 'is not a known member'],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    expect((await validateBody(cls, body)).errors).toEqual([{ pointer, detail }]);
  });
});
