import 'reflect-metadata';
import { getMetadataStorage, IsInt, validate } from 'class-validator';
import { cacheRuleLookups } from './rule-lookup-cache';

class Probe {
  @IsInt()
  n!: unknown;
}

const probe = (n: unknown) => Object.assign(new Probe(), { n });
const lookUp = () =>
  getMetadataStorage().getTargetValidationMetadatas(Probe, '', false, false, undefined);

describe('cacheRuleLookups', () => {
  beforeAll(() => cacheRuleLookups());

  it('answers the same rules for a class every time, without looking them up again', () => {
    const first = lookUp();
    expect(first.map((rule) => rule.propertyName)).toEqual(['n']);
    expect(lookUp()).toBe(first);
    expect(getMetadataStorage().groupByPropertyName(first)).toBe(
      getMetadataStorage().groupByPropertyName(first),
    );
  });

  it('validates as before', async () => {
    expect(await validate(probe(1))).toEqual([]);
    expect((await validate(probe('one'))).map((error) => error.constraints)).toEqual([
      { isInt: 'n must be an integer number' },
    ]);
  });

  it('looks the rules up afresh once a rule is added', async () => {
    const before = lookUp();
    class Later {
      @IsInt()
      m!: unknown;
    }
    expect(lookUp()).not.toBe(before);
    expect(lookUp()).toEqual(before);
    expect(await validate(Object.assign(new Later(), { m: 'x' }))).toHaveLength(1);
  });
});
