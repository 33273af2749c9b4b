import { plainToInstance } from 'class-transformer';
import { BODY_DEPTH_MAX } from '../limits';
import { CreateContentDto } from '../content/create-content.dto';
import { CreateProjectDto } from '../project/create-project.dto';
import { validateBody } from './validate-body';
import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATION_OPTIONS } from './validation-options';

describe('validateBody', () => {
  it('returns the DTO instance for a valid body', async () => {
    const result = await validateBody(CreateProjectDto, { title: 'Proposal' });
    expect(result.ok).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.value).toBeInstanceOf(CreateProjectDto);
    expect(result.value).toEqual({ title: 'Proposal' });
  });

  it.each([[[]], [[{ title: 'x' }]], ['a string'], [null], [42], [true], [undefined]])(
    'rejects a body that is not a JSON object: %j',
    async (body) => {
      const result = await validateBody(CreateProjectDto, body);
      expect(result).toEqual({
        ok: false,
        errors: [{ pointer: '', detail: 'must be a JSON object' }],
      });
    },
  );

  it('rejects an unknown member at the top level', async () => {
    const result = await validateBody(CreateProjectDto, { title: 'x', colour: 'red' });
    expect(result.errors).toEqual([{ pointer: '/colour', detail: 'is not a known member' }]);
  });

  it('reports every invalid member, not only the first', async () => {
    const result = await validateBody(CreateProjectDto, { title: '', owner: 'me' });
    expect(result.errors).toEqual([
      { pointer: '/owner', detail: 'is not a known member' },
      { pointer: '/title', detail: 'must be a non-empty string of at most 200 characters' },
    ]);
  });

  it.each(['constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'])(
    'rejects the reserved key %s, which class-transformer would drop silently',
    async (key) => {
      const result = await validateBody(CreateProjectDto, { title: 'x', [key]: 1 });
      expect(result.errors).toEqual([{ pointer: `/${key}`, detail: 'is not a known member' }]);
    },
  );

  it('rejects __proto__ keys at any depth without polluting any prototype', async () => {
    const body: unknown = JSON.parse(
      '{"type":"text","__proto__":{"polluted":true},' +
        '"style":{"__proto__":{"polluted":true},"opacity":0.5},' +
        '"data":{"constructor":{"prototype":{"polluted":true}}}}',
    );
    const result = await validateBody(CreateContentDto, body);

    expect(result.errors).toEqual([
      { pointer: '/__proto__', detail: 'is not a known member' },
      { pointer: '/style/__proto__', detail: 'is not a known member' },
      { pointer: '/data/constructor', detail: 'is not a known member' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(CreateContentDto.prototype).not.toHaveProperty('polluted');
  });

  it('survives a nested own constructor member, on which class-transformer itself throws', async () => {
    const body = { type: 'text', data: { constructor: 1 }, extra: { constructor: { name: 'x' } } };
    expect(() => plainToInstance(CreateContentDto, body, CONTRACT_TRANSFORM_OPTIONS)).toThrow(
      TypeError,
    );

    const result = await validateBody(CreateContentDto, body);
    expect(result.errors).toEqual([
      { pointer: '/data/constructor', detail: 'is not a known member' },
      { pointer: '/extra/constructor', detail: 'is not a known member' },
      { pointer: '/extra', detail: 'is not a known member' },
    ]);
  });

  it('never changes the prototype of the instances it builds', async () => {
    const body: unknown = JSON.parse('{"title":"x","__proto__":{"isAdmin":true}}');
    const instance = new CreateProjectDto();
    const result = await validateBody(CreateProjectDto, body);
    expect(result.ok).toBe(false);
    expect(Object.getPrototypeOf(instance)).toBe(CreateProjectDto.prototype);
    expect((instance as unknown as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('rejects nesting deeper than any valid body without recursing into it', async () => {
    let deep: unknown = {};
    for (let level = 0; level < 100_000; level += 1) {
      deep = [deep];
    }
    const result = await validateBody(CreateProjectDto, { title: deep });
    const pointer = '/title' + '/0'.repeat(BODY_DEPTH_MAX - 1);
    expect(result.errors).toEqual([
      { pointer, detail: `is nested more than ${BODY_DEPTH_MAX} levels deep` },
    ]);
  });

  it('uses the options the server uses', () => {
    expect(CONTRACT_VALIDATION_OPTIONS).toMatchObject({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: false,
    });
    expect(CONTRACT_TRANSFORM_OPTIONS).toMatchObject({
      enableImplicitConversion: false,
      exposeDefaultValues: false,
    });
    expect(Object.isFrozen(CONTRACT_VALIDATION_OPTIONS)).toBe(true);
  });
});
